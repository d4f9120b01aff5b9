// Webhooks of repositories, organizations, users and the instance (Forgejo's routers/api/v1/{repo,org,
// user,admin}/hook.go over utils/hook.go), the test delivery, and the repository's Git hooks.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Handler, HandlerCtx, SignedInCtx } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreateHookOption, EditGitHookOption, EditHookOption } from '../model/schemas/index.ts';
import { HookTask, Webhook, type IWebhook } from '../model/webhook.ts';
import { notFound } from '../lib/http/errors.ts';
import { positiveInt } from '../lib/issues/issues.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { applyHookEdit, newHookFields, ownerFilter, type HookOwner } from '../lib/webhooks/webhooks.ts';
import { toApiHook } from '../lib/webhooks/api/hook.ts';
import { queueTestDelivery } from '../lib/webhooks/tasks.ts';
import { readPushCommit } from '../lib/transport/push-events.ts';
import { lookupRef } from '../git/lookup.ts';
import { need, type RequestState } from '../lib/http/request.ts';
import type { QueryOf } from '../model/schemas/query.ts';

// ---------------------------------------------------------------------------------------------------
// Shared by the four owners

async function listFor(c: RequestState, owner: HookOwner, paged: boolean, extra: object = {}) {
  const where = { ...ownerFilter(owner), ...extra };
  if (!paged) {
    const hooks = await c.em.find(Webhook, where, { orderBy: { id: 'asc' } });
    return json(
      200,
      hooks.map((h) => toApiHook(c.config, h)),
    );
  }
  const p = pageOf(c);
  const [hooks, total] = await c.em.findAndCount(Webhook, where, { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset });
  return json(
    200,
    hooks.map((h) => toApiHook(c.config, h)),
    pagingHeaders(c, p, total),
  );
}

/**
 * One hook as `GET .../hooks/{id}` answers it: Forgejo's Hook, and (beyond Forgejo, whose web UI alone
 * shows them) `deliveries`, its last ten hook tasks, newest first: the event, whether and when it was
 * delivered, whether it succeeded, the attempts made, when the next is due and the status answered.
 * Lists stay Forgejo's Hook only (one read more per hook would grow with the page).
 */
async function hookWithDeliveries(c: RequestState, hook: IWebhook) {
  const tasks = await c.em.find(HookTask, { hookId: hook.id }, { orderBy: { id: 'desc' }, limit: 10 });
  const deliveries = tasks.map((t) => ({
    uuid: t.uuid,
    event: t.eventType,
    is_delivered: t.isDelivered,
    is_succeed: t.isSucceed,
    attempts: t.attempts,
    created_at: t.createdAt.toISOString(),
    delivered_at: t.deliveredAt?.toISOString() ?? null,
    next_attempt_at: t.isDelivered ? null : (t.nextAttemptAt?.toISOString() ?? null),
    response_status: t.responseInfo?.status ?? null,
  }));
  return json(200, { ...toApiHook(c.config, hook), deliveries });
}

/** The hook `{id}` of this owner; 404 otherwise (also for a non-numeric id). */
async function hookOf(c: RequestState, owner: HookOwner): Promise<IWebhook> {
  const id = positiveInt(c.params.id);
  const hook = id === null ? null : await c.em.findOne(Webhook, { id, ...ownerFilter(owner) });
  if (!hook) throw notFound();
  return hook;
}

async function createFor(c: HandlerCtx<CreateHookOption>, owner: HookOwner) {
  const hook = c.em.create(Webhook, newHookFields(c.services.secrets, owner, c.body));
  await c.em.flush();
  return json(201, toApiHook(c.config, hook));
}

async function editFor(c: HandlerCtx<EditHookOption>, owner: HookOwner) {
  const hook = await hookOf(c, owner);
  applyHookEdit(c.services.secrets, hook, c.body);
  await c.em.flush();
  return json(200, toApiHook(c.config, hook));
}

/** The hook and its tasks, delivered or not (Forgejo's deleteWebhook). */
async function removeFor(c: RequestState, owner: HookOwner) {
  const hook = await hookOf(c, owner);
  await c.em.nativeDelete(HookTask, { hookId: hook.id });
  c.em.remove(hook);
  return noContent();
}

const repoOwner = (c: RequestState): HookOwner => ({ kind: 'repo', repoId: need(c.repo, 'repo').repo.id });
const orgOwner = (c: RequestState): HookOwner => ({ kind: 'owner', ownerId: need(c.org, 'org').id });
const userOwner = (c: SignedInCtx<unknown, unknown>): HookOwner => ({ kind: 'owner', ownerId: c.auth.doer.id });
const ADMIN: HookOwner = { kind: 'admin' };

// ---------------------------------------------------------------------------------------------------
// Repository hooks

export const list: Handler = (c) => listFor(c, repoOwner(c), true);
export const create: Handler<CreateHookOption> = (c) => createFor(c, repoOwner(c));
export const get: Handler = async (c) => hookWithDeliveries(c, await hookOf(c, repoOwner(c)));
export const edit: Handler<EditHookOption> = (c) => editFor(c, repoOwner(c));
export const remove: Handler = (c) => removeFor(c, repoOwner(c));

/**
 * POST {R}/hooks/{id}/tests: a push payload for the commit `ref` names (a branch, tag or commit; the
 * default branch when absent), 204 once queued. An unknown ref or an empty repository is 404.
 */
export const test = signedIn<never, QueryOf<'HookTest'>>(async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const hook = await hookOf(c, repoOwner(c));
  const ref = c.q.ref?.trim() || `refs/heads/${repo.defaultBranch}`;
  const repoPath = c.services.repoPath(owner.name, repo.name);
  const resolved = repo.isEmpty ? null : await lookupRef(repoPath, ref.replace(/^refs\/(heads|tags)\//, ''));
  const head = resolved?.commit ? await readPushCommit(repoPath, resolved.commit) : null;
  if (!head) throw notFound();
  await queueTestDelivery(c.em, c, hook, repo, c.auth.doer, ref, head);
  return noContent();
});

// ---------------------------------------------------------------------------------------------------
// Organization and user hooks

export const orgList: Handler = (c) => listFor(c, orgOwner(c), true);
export const orgCreate: Handler<CreateHookOption> = (c) => createFor(c, orgOwner(c));
export const orgGet: Handler = async (c) => hookWithDeliveries(c, await hookOf(c, orgOwner(c)));
export const orgEdit: Handler<EditHookOption> = (c) => editFor(c, orgOwner(c));
export const orgRemove: Handler = (c) => removeFor(c, orgOwner(c));

export const userList = signedIn((c) => listFor(c, userOwner(c), true));
export const userCreate = signedIn<CreateHookOption>((c) => createFor(c, userOwner(c)));
export const userGet = signedIn(async (c) => hookWithDeliveries(c, await hookOf(c, userOwner(c))));
export const userEdit = signedIn<EditHookOption>((c) => editFor(c, userOwner(c)));
export const userRemove = signedIn((c) => removeFor(c, userOwner(c)));

// ---------------------------------------------------------------------------------------------------
// Instance hooks: system hooks (every repository's events) and default hooks

/** Forgejo's admin ListHooks: `type` = default or all, anything else lists system hooks; unpaged. */
export const adminList: Handler<never, QueryOf<'AdminHooks'>> = (c) => {
  const type = c.q.type;
  const extra = type === 'all' ? {} : { isSystemWebhook: type !== 'default' };
  return listFor(c, ADMIN, false, extra);
};
export const adminCreate: Handler<CreateHookOption> = (c) => createFor(c, ADMIN);
export const adminGet: Handler = async (c) => hookWithDeliveries(c, await hookOf(c, ADMIN));
export const adminEdit: Handler<EditHookOption> = (c) => editFor(c, ADMIN);
export const adminRemove: Handler = (c) => removeFor(c, ADMIN);

// ---------------------------------------------------------------------------------------------------
// Git hooks

/**
 * Forgejo keeps a repository's server-side hooks in `hooks/<name>.d/<name>` of the bare repository
 * and runs them from its own hook scripts. cairn stores them at the same place but never runs them:
 * receive-pack always runs with core.hooksPath set to cairn's own hook directory (lib/transport/push-hook.ts),
 * so nothing in the repository's `hooks/` directory executes, and a stored hook cannot weaken the
 * protected-branch check. The files are written without execute permission.
 */
const GIT_HOOKS = ['pre-receive', 'update', 'post-receive'];

function gitHookPath(c: RequestState, name: string): string {
  if (!GIT_HOOKS.includes(name)) throw notFound();
  const { repo, owner } = need(c.repo, 'repo');
  return path.join(c.services.repoPath(owner.name, repo.name), 'hooks', `${name}.d`, name);
}

/** Forgejo's git.GetHook: a present file is active; otherwise the `.sample` content, inactive. */
async function readGitHook(c: RequestState, name: string) {
  const file = gitHookPath(c, name);
  const read = (f: string) =>
    fs.readFile(f, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw e;
    });
  const content = await read(file);
  if (content !== null) return { name, is_active: true, content };
  const sample = await read(path.join(path.dirname(path.dirname(file)), `${name}.sample`));
  return { name, is_active: false, content: sample ?? '' };
}

export const listGit: Handler = async (c) => {
  const out = [];
  for (const name of GIT_HOOKS) out.push(await readGitHook(c, name));
  return json(200, out);
};

export const getGit: Handler = async (c) => json(200, await readGitHook(c, c.params.id ?? ''));

/** Forgejo's Hook.Update: CRLF becomes LF; empty content removes the hook. */
export const editGit: Handler<EditGitHookOption> = async (c) => {
  const name = c.params.id ?? '';
  const file = gitHookPath(c, name);
  const content = (c.body.content ?? '').replace(/\r\n/g, '\n');
  if (content === '') await fs.rm(file, { force: true });
  else {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content, { mode: 0o644 });
    await fs.chmod(file, 0o644);
  }
  return json(200, await readGitHook(c, name));
};

export const removeGit: Handler = async (c) => {
  await fs.rm(gitHookPath(c, c.params.id ?? ''), { force: true });
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `hooks.<key>`. */
export const handlers = {
  list,
  create,
  get,
  edit,
  remove,
  test,
  listGit,
  getGit,
  editGit,
  removeGit,
  orgList,
  orgCreate,
  orgGet,
  orgEdit,
  orgRemove,
  userList,
  userCreate,
  userGet,
  userEdit,
  userRemove,
  adminList,
  adminCreate,
  adminGet,
  adminEdit,
  adminRemove,
} satisfies Record<string, Handler<never, never>>;
