// api.Label wire shape (Forgejo's convert.ToLabel): the colour without `#`, the URL of the label
// under its repository or organization.
import type { Config } from '../../../config.ts';
import type { ILabel } from '../../../model/label.ts';
import type { Label, Wire } from '../../../model/schemas/index.ts';

export type ApiLabel = Wire<Label>;

/** `base` is the API URL of the owner: `<AppURL>api/v1/repos/o/r` or `<AppURL>api/v1/orgs/o`. */
export function toApiLabel(l: ILabel, base: string): ApiLabel {
  return {
    id: l.id,
    name: l.name,
    exclusive: l.exclusive,
    is_archived: l.isArchived,
    color: l.color.replace(/^#+/, ''),
    description: l.description,
    url: `${base}/labels/${l.id}`,
  };
}

export const orgApiUrl = (cfg: Config, orgName: string) => `${cfg.appUrl}api/v1/orgs/${encodeURIComponent(orgName)}`;
