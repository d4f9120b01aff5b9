// Repository labels (Forgejo's routers/api/v1/repo/label.go). Labels are not unique by name, as in
// Forgejo.
import type { Handler, HandlerCtx } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { CreateLabelOption, EditLabelOption } from '../model/schemas/index.ts';
import { Label, type ILabel } from '../model/label.ts';
import { applyLabelEdit, findOwnedLabel, labelOrder, newLabelFields } from '../lib/issues/label-fields.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { unprocessable } from '../lib/http/errors.ts';
import { toApiLabel } from '../lib/issues/api/label.ts';
import { need } from '../lib/http/request.ts';
import { rowId } from '../lib/http/query-values.ts';
import type { QueryOf } from '../model/schemas/query.ts';

const asJson = (c: HandlerCtx<unknown>, l: ILabel) => {
  const { repo, owner } = need(c.repo, 'repo');
  return toApiLabel(l, `${c.config.appUrl}api/v1/repos/${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}`);
};

const findLabel = (c: HandlerCtx<unknown>, byName: boolean): Promise<ILabel> =>
  findOwnedLabel(c.em, { repoId: need(c.repo, 'repo').repo.id, orgId: 0 }, c.params.id ?? '', byName);

/** Forgejo binds `name` with `Required`: an empty name is a 422 like a missing one. */
function labelName(name: string): string {
  if (name.trim() === '') throw unprocessable('[Name]: Required');
  return name;
}

export const list: Handler<never, QueryOf<'Labels'>> = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const p = pageOf(c);
  const orderBy = labelOrder(c.q.sort ?? null);
  const [rows, total] = await c.em.findAndCount(Label, { repoId: repo.id, orgId: 0 }, { orderBy, limit: p.limit, offset: p.offset });
  return json(
    200,
    rows.map((l) => asJson(c, l)),
    pagingHeaders(c, p, total),
  );
};

export const get: Handler = async (c) => json(200, asJson(c, await findLabel(c, true)));

export const create: Handler<CreateLabelOption> = async (c) => {
  const label = c.em.create(Label, { repoId: need(c.repo, 'repo').repo.id, orgId: 0, ...newLabelFields(c.body, labelName) });
  await c.em.flush();
  return json(201, asJson(c, label));
};

/** Only the fields the body carries change (as for organization labels). */
export const edit: Handler<EditLabelOption> = async (c) => {
  const label = await findLabel(c, false);
  applyLabelEdit(label, c.body, labelName);
  await c.em.flush();
  return json(200, asJson(c, label));
};

/** Like Forgejo's DeleteLabel, a label that is not there (or not this repository's) answers 204. */
export const remove: Handler = async (c) => {
  const raw = c.params.id ?? '';
  if (rowId(raw) !== null) await c.em.nativeDelete(Label, { id: rowId(raw)!, repoId: need(c.repo, 'repo').repo.id, orgId: 0 });
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `labels.<key>`. */
export const handlers = {
  list,
  get,
  create,
  edit,
  remove,
} satisfies Record<string, Handler<never, never>>;
