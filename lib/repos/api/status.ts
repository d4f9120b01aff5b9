// api.CommitStatus and api.CombinedStatus wire shapes (Forgejo's convert.ToCommitStatus, ToCombinedStatus).
import type { Config } from '../../../config.ts';
import type { ICommitStatus } from '../../../model/commit-status.ts';
import type { IUser } from '../../../model/user.ts';
import { fmtTime } from '../../../model/time.ts';
import type { CombinedStatus, CommitStatus, Wire } from '../../../model/schemas/index.ts';
import { toApiUser } from '../../users/index.ts';
import type { RepoUrls } from './git.ts';

export type ApiCommitStatus = Wire<CommitStatus>;
export type ApiCombinedStatus = Wire<CombinedStatus>;

/** `creator`: the status's creator when it still exists (Forgejo shows it to no one in particular). */
export function toApiCommitStatus(cfg: Config, urls: RepoUrls, s: ICommitStatus, creator: IUser | null): ApiCommitStatus {
  return {
    id: s.index,
    status: s.state,
    target_url: s.targetUrl,
    description: s.description,
    url: `${urls.api}/statuses/${s.sha}`,
    context: s.context,
    creator: creator ? toApiUser(cfg, creator, { doer: null, siteAdmin: false }) : null,
    created_at: fmtTime(s.createdAt),
    updated_at: fmtTime(s.updatedAt),
  };
}
