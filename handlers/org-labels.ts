// Organization labels (Forgejo's routers/api/v1/org/label.go): usable on every repository of the
// organization. Labels are not unique by name, as in Forgejo.
import type { Handler, HandlerCtx } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { CreateLabelOption, EditLabelOption } from '../model/schemas/index.ts';
import { Label, type ILabel } from '../model/label.ts';
import { applyLabelEdit, findOwnedLabel, labelOrder, newLabelFields } from '../lib/issues/label-fields.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { orgApiUrl, toApiLabel } from '../lib/issues/api/label.ts';
import { need } from '../lib/http/request.ts';
import { rowId } from '../lib/http/query-values.ts';
import type { QueryOf } from '../model/schemas/query.ts';

const asJson = (c: HandlerCtx<unknown>, l: ILabel) => toApiLabel(l, orgApiUrl(c.config, need(c.org, 'org').name));

const findLabel = (c: HandlerCtx<unknown>, byName: boolean): Promise<ILabel> =>
  findOwnedLabel(c.em, { orgId: need(c.org, 'org').id, repoId: 0 }, c.params.id ?? '', byName);

export const list: Handler<never, QueryOf<'Labels'>> = async (c) => {
  const p = pageOf(c);
  const orderBy = labelOrder(c.q.sort ?? null);
  const [rows, total] = await c.em.findAndCount(
    Label,
    { orgId: need(c.org, 'org').id, repoId: 0 },
    { orderBy, limit: p.limit, offset: p.offset },
  );
  return json(
    200,
    rows.map((l) => asJson(c, l)),
    pagingHeaders(c, p, total),
  );
};

export const get: Handler = async (c) => json(200, asJson(c, await findLabel(c, true)));

export const create: Handler<CreateLabelOption> = async (c) => {
  const label = c.em.create(Label, { orgId: need(c.org, 'org').id, repoId: 0, ...newLabelFields(c.body) });
  await c.em.flush();
  return json(201, asJson(c, label));
};

/** Only the fields the body carries change (Forgejo would also unarchive when `is_archived` is absent). */
export const edit: Handler<EditLabelOption> = async (c) => {
  const label = await findLabel(c, false);
  applyLabelEdit(label, c.body);
  await c.em.flush();
  return json(200, asJson(c, label));
};

/** Like Forgejo, deleting a label that is not there (or not the organization's) answers 204. */
export const remove: Handler = async (c) => {
  const raw = c.params.id ?? '';
  if (rowId(raw) !== null) await c.em.nativeDelete(Label, { id: rowId(raw)!, orgId: need(c.org, 'org').id, repoId: 0 });
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `orgLabels.<key>`. */
export const handlers = {
  list,
  create,
  get,
  edit,
  remove,
} satisfies Record<string, Handler<never, never>>;
