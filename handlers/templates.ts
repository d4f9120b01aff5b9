// Repository initialisation templates: .gitignore, licenses and issue label sets.
import type { Handler } from '../lib/http/handler.ts';
import { json } from '../lib/http/handler.ts';
import { notFound } from '../lib/http/errors.ts';
import { GITIGNORE_NAMES, gitignore } from '../lib/repos/gitignore-templates.ts';
import { licenseNames, licenseText } from '../lib/repos/license-templates.ts';
import { LABEL_SETS, labelSet } from '../lib/issues/label-templates.ts';

export const listGitignores: Handler = async () => json(200, GITIGNORE_NAMES);

export const getGitignore: Handler = async (c) => {
  const name = c.params.name ?? '';
  const source = gitignore(name);
  if (source === undefined) throw notFound();
  return json(200, { name, source });
};

const licenseUrl = (appUrl: string, name: string) => `${appUrl}api/v1/licenses/${encodeURIComponent(name)}`;

export const listLicenses: Handler = async (c) =>
  json(
    200,
    licenseNames().map((n) => ({ key: n, name: n, url: licenseUrl(c.config.appUrl, n) })),
  );

export const getLicense: Handler = async (c) => {
  const name = c.params.name ?? '';
  const body = licenseText(name);
  if (body === undefined) throw notFound();
  return json(200, { key: name, name, url: licenseUrl(c.config.appUrl, name), body, implementation: '' });
};

export const listLabelSets: Handler = async () => json(200, Object.keys(LABEL_SETS).sort());

export const getLabelSet: Handler = async (c) => {
  const set = labelSet(c.params.name ?? '');
  if (!set) throw notFound();
  return json(
    200,
    set.map((l) => ({ name: l.name, exclusive: l.exclusive, color: l.color, description: l.description })),
  );
};

/** This family's handlers; `routes.table.ts` names each `templates.<key>`. */
export const handlers = {
  listGitignores,
  getGitignore,
  listLicenses,
  getLicense,
  listLabelSets,
  getLabelSet,
} satisfies Record<string, Handler<never, never>>;
