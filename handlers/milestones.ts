// Repository milestones (Forgejo's routers/api/v1/repo/milestone.go). Names are not unique; `{id}`
// is tried as an id first, then as a name (getMilestoneByIDOrName).
import type { FilterQuery } from '@mikro-orm/core';
import type { Handler, HandlerCtx } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { CreateMilestoneOption, EditMilestoneOption } from '../model/schemas/index.ts';
import { Milestone, type IMilestone } from '../model/milestone.ts';
import { toApiMilestone } from '../lib/issues/api/milestone.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { notFound, unprocessable } from '../lib/http/errors.ts';
import { need } from '../lib/http/request.ts';
import type { QueryOf } from '../model/schemas/query.ts';

async function findMilestone(c: HandlerCtx<unknown>): Promise<IMilestone> {
  const repoId = need(c.repo, 'repo').repo.id;
  const raw = c.params.id ?? '';
  const byId =
    /^\d+$/.test(raw) && Number(raw) > 0 && Number(raw) <= 2 ** 31 - 1 ? await c.em.findOne(Milestone, { repoId, id: Number(raw) }) : null;
  const m = byId ?? (await c.em.findOne(Milestone, { repoId, name: raw }, { orderBy: { id: 'asc' } }));
  if (!m) throw notFound();
  return m;
}

function title(t: string): string {
  if (t.trim() === '') throw unprocessable('[Title]: Required');
  return t;
}

/** A zero time (`0001-01-01T00:00:00Z`, what Go clients send for "none") leaves no deadline. */
function deadline(v: string): Date | null {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw unprocessable(`[Deadline]: invalid date-time: ${v}`);
  return d.getUTCFullYear() <= 1 || d.getUTCFullYear() >= 9999 ? null : d;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** `state`: open (default), closed or all; `name`: a case-insensitive part of the title. */
export const list: Handler<never, QueryOf<'Milestones'>> = async (c) => {
  const where: FilterQuery<IMilestone> = { repoId: need(c.repo, 'repo').repo.id };
  const state = c.q.state ?? 'open';
  if (state === 'closed') where.isClosed = true;
  else if (state !== 'all') where.isClosed = false;
  const name = c.q.name ?? '';
  if (name !== '') where.name = { $ilike: `%${likeEscape(name)}%` };
  const p = pageOf(c);
  // Forgejo orders by deadline (none counts as the far future), then id.
  const [rows, total] = await c.em.findAndCount(Milestone, where, {
    orderBy: { deadline: 'asc nulls last', id: 'asc' },
    limit: p.limit,
    offset: p.offset,
  });
  return json(200, rows.map(toApiMilestone), pagingHeaders(c, p, total));
};

export const get: Handler = async (c) => json(200, toApiMilestone(await findMilestone(c)));

export const create: Handler<CreateMilestoneOption> = async (c) => {
  const b = c.body;
  const closed = b.state === 'closed';
  const m = c.em.create(Milestone, {
    repoId: need(c.repo, 'repo').repo.id,
    name: title(b.title),
    description: b.description ?? '',
    isClosed: closed,
    deadline: b.due_on !== undefined ? deadline(b.due_on) : null,
    closedAt: closed ? new Date() : null,
  });
  await c.em.flush();
  return json(201, toApiMilestone(m));
};

/** Forgejo: an empty title and a zero deadline leave those fields; any `state` but closed opens. */
export const edit: Handler<EditMilestoneOption> = async (c) => {
  const m = await findMilestone(c);
  const b = c.body;
  if (b.title !== undefined && b.title !== '') m.name = title(b.title);
  if (b.description !== undefined) m.description = b.description;
  if (b.due_on !== undefined) {
    const d = deadline(b.due_on);
    if (d) m.deadline = d;
  }
  if (b.state !== undefined) {
    const closed = b.state === 'closed';
    if (closed !== m.isClosed) m.closedAt = closed ? new Date() : null;
    m.isClosed = closed;
  }
  await c.em.flush();
  return json(200, toApiMilestone(m));
};

export const remove: Handler = async (c) => {
  const m = await findMilestone(c);
  c.em.remove(m);
  await c.em.flush();
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `milestones.<key>`. */
export const handlers = {
  list,
  get,
  create,
  edit,
  remove,
} satisfies Record<string, Handler<never, never>>;
