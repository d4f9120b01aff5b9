// Webhook records as the API sees them (Forgejo's routers/api/v1/utils/hook.go, models/webhook and
// services/webhook): option validation with Forgejo's 422 messages, the event switches, the
// event list a hook answers with (its wire shape is lib/webhooks/api/hook.ts), and which hooks an event reaches.
import type { EntityManager } from '@mikro-orm/core';
import { Webhook, type HookEventSpec, type IWebhook } from '../../model/webhook.ts';
import type { CreateHookOption, EditHookOption } from '../../model/schemas/index.ts';
import { unprocessable } from '../http/errors.ts';
import { Slot, type ReadAhead } from '../http/read-ahead.ts';
import { jsonList, plainRows, type Plain } from '../../model/raw.ts';
import { compileGlob, GlobError } from '../repos/index.ts';
import type { SecretBox } from '../auth/secretbox.ts';
import { hookMeta, tokenAuthorization } from './config.ts';

/** Forgejo's webhook_module types (forgejo-facts 11.4). */
export const HOOK_TYPES = [
  'forgejo',
  'gitea',
  'gogs',
  'slack',
  'discord',
  'dingtalk',
  'telegram',
  'msteams',
  'feishu',
  'matrix',
  'wechatwork',
  'packagist',
  'sourcehut_builds',
];
/** The types whose body is the API payload itself; the chat services get their own formats (lib/webhooks/payloads/). */
export const RAW_PAYLOAD_TYPES = ['forgejo', 'gitea', 'gogs'];

/** Who owns a hook: a repository, a user or organization, or the instance (system or default hooks). */
export type HookOwner = { kind: 'repo'; repoId: number } | { kind: 'owner'; ownerId: number } | { kind: 'admin' };

export const ownerFilter = (o: HookOwner): { repoId: number; ownerId?: number } =>
  o.kind === 'repo' ? { repoId: o.repoId } : o.kind === 'owner' ? { ownerId: o.ownerId, repoId: 0 } : { repoId: 0, ownerId: 0 };

// ---------------------------------------------------------------------------------------------------
// Events

/** HookEvents switches an API `events` list sets; `issues` and `pull_request` set their families. */
const ISSUE_FAMILY = ['issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
const PULL_FAMILY = [
  'pull_request_assign',
  'pull_request_label',
  'pull_request_milestone',
  'pull_request_comment',
  'pull_request_review',
  'pull_request_review_request',
  'pull_request_sync',
];
const PLAIN = ['create', 'delete', 'fork', 'push', 'wiki', 'repository', 'release'];

/** Forgejo's addHook/editHook: an empty list means `push`; `issues_only`/`pull_request_only` set just the base switch. */
export function eventSwitches(list: string[] | undefined): Record<string, boolean> {
  const events = list?.length ? list : ['push'];
  const has = (e: string) => events.includes(e);
  const out: Record<string, boolean> = {};
  for (const e of PLAIN) out[e] = has(e);
  out.issues = has('issues_only') || has('issues');
  for (const e of ISSUE_FAMILY) out[e] = has(e) || has('issues');
  out.pull_request = has('pull_request_only') || has('pull_request');
  for (const e of PULL_FAMILY) out[e] = has(e) || has('pull_request');
  return out;
}

/** The switch a fine event type depends on (review verdicts share `pull_request_review`). */
const switchOf = (fine: string) =>
  fine.startsWith('pull_request_review_') && fine !== 'pull_request_review_request' ? 'pull_request_review' : fine;

/** Forgejo's Has<Event>Event: everything, push-only for push, or the chosen switch. */
export function hasEvent(spec: HookEventSpec, fine: string): boolean {
  if (spec.send_everything) return true;
  if (fine === 'push' && spec.push_only) return true;
  return spec.choose_events && spec.events[switchOf(fine)] === true;
}

/** Forgejo's EventCheckers order, which EventsArray follows. */
const LISTED = [
  'create',
  'delete',
  'fork',
  'push',
  'issues',
  'issue_assign',
  'issue_label',
  'issue_milestone',
  'issue_comment',
  'pull_request',
  'pull_request_assign',
  'pull_request_label',
  'pull_request_milestone',
  'pull_request_comment',
  'pull_request_review_approved',
  'pull_request_review_rejected',
  'pull_request_review_comment',
  'pull_request_sync',
  'wiki',
  'repository',
  'release',
  'package',
  'pull_request_review_request',
];
export const eventsArray = (spec: HookEventSpec) => LISTED.filter((e) => hasEvent(spec, e));

/** forgejo-facts 11.1: the coarse event of a fine type (X-Forgejo-Event). */
export function coarseEvent(fine: string): string {
  if (['issue_assign', 'issue_label', 'issue_milestone'].includes(fine)) return 'issues';
  if (
    ['pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_sync', 'pull_request_review_request'].includes(
      fine,
    )
  )
    return 'pull_request';
  if (fine === 'pull_request_comment') return 'issue_comment';
  if (fine === 'pull_request_review_approved') return 'pull_request_approved';
  if (fine === 'pull_request_review_rejected') return 'pull_request_rejected';
  if (fine === 'pull_request_review_comment') return 'pull_request_comment';
  if (['package', 'schedule', 'workflow_dispatch'].includes(fine)) return '';
  return fine;
}

/** Forgejo's checkBranch: an empty filter or `*` passes everything. */
export function branchMatches(filter: string, branch: string): boolean {
  if (filter === '' || filter === '*') return true;
  try {
    return compileGlob(filter).test(branch);
  } catch (e) {
    if (e instanceof GlobError) return false;
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------------
// Options

/** Forgejo's validation.IsValidURL: an absolute http(s) URL. */
const isValidUrl = (u: string) => URL.canParse(u) && ['http:', 'https:'].includes(new URL(u).protocol);
const isContentType = (t: string) => t === 'json' || t === 'form';

function checkBranchFilter(filter: string | undefined): string {
  const f = filter ?? '';
  try {
    if (f !== '' && f !== '*') compileGlob(f);
  } catch (e) {
    if (e instanceof GlobError) throw unprocessable('[BranchFilter]: GlobPattern');
    throw e;
  }
  return f;
}

/** Forgejo's checkCreateHookOption and addHook; `active` defaults to false. */
export function newHookFields(secrets: SecretBox, owner: HookOwner, o: CreateHookOption) {
  const type: string = o.type;
  if (!HOOK_TYPES.includes(type)) throw unprocessable(`Invalid hook type: ${type}`);
  const config = o.config;
  for (const name of ['url', 'content_type']) if (!(name in config)) throw unprocessable(`Missing config option: ${name}`);
  if (!isContentType(config.content_type)) throw unprocessable('Invalid content type');
  if (!isValidUrl(config.url)) throw unprocessable('Invalid url');
  let isSystem = false;
  if ((config.is_system_webhook ?? '') !== '') {
    const v = parseGoBool(config.is_system_webhook);
    if (v === null) throw unprocessable('Invalid is_system_webhook value');
    isSystem = v;
  }
  const branchFilter = checkBranchFilter(o.branch_filter);
  const meta = hookMeta(type, config, '', true);
  const authorization = o.authorization_header || tokenAuthorization(type, config) || '';
  return {
    repoId: owner.kind === 'repo' ? owner.repoId : 0,
    ownerId: owner.kind === 'owner' ? owner.ownerId : 0,
    // Only instance hooks can be system hooks; Forgejo ignores the flag elsewhere too (the query filters by owner).
    isSystemWebhook: owner.kind === 'admin' && isSystem,
    type,
    url: config.url,
    httpMethod: 'POST',
    contentType: config.content_type,
    secret: config.secret ? secrets.seal(config.secret) : '',
    events: { push_only: false, send_everything: false, choose_events: true, branch_filter: branchFilter, events: eventSwitches(o.events) },
    meta,
    isActive: o.active ?? false,
    authorizationHeader: authorization ? secrets.seal(authorization) : '',
  };
}

/**
 * Forgejo's editHook: config fields present are checked and applied; as in Forgejo, the events list
 * (empty = push), the branch filter and the Authorization header are replaced by what the option
 * carries, and `active` changes only when given.
 */
export function applyHookEdit(secrets: SecretBox, hook: IWebhook, o: EditHookOption): void {
  const config = o.config;
  if (config) {
    if ('url' in config) {
      if (!isValidUrl(config.url)) throw unprocessable('Invalid url');
      hook.url = config.url;
    }
    if ('content_type' in config) {
      if (!isContentType(config.content_type)) throw unprocessable('Invalid content type');
      hook.contentType = config.content_type;
    }
    if ('secret' in config) hook.secret = config.secret ? secrets.seal(config.secret) : '';
    hook.meta = hookMeta(hook.type, config, hook.meta, false);
  }
  const branchFilter = checkBranchFilter(o.branch_filter);
  hook.events = {
    push_only: false,
    send_everything: false,
    choose_events: true,
    branch_filter: branchFilter,
    events: eventSwitches(o.events),
  };
  const authorization = o.authorization_header || tokenAuthorization(hook.type, config ?? {}) || '';
  hook.authorizationHeader = authorization ? secrets.seal(authorization) : '';
  if (o.active !== undefined) hook.isActive = o.active;
  hook.updatedAt = new Date();
}

/** Go's strconv.ParseBool. */
function parseGoBool(v: string): boolean | null {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return null;
}

/** What `hooksList` selected, read early by the request, for its next event of repository `repoId`. */
const HOOKS = new Slot<{ repoId: number; hooks: Plain<IWebhook>[] }>("a repository's hooks, read early");

/** The hooks `hooksFor` reads, as a select-list expression (model/raw.ts jsonList) and its parameters. */
export function hooksList(em: EntityManager, repo: { id: number; ownerId: number }): { sql: string; params: unknown[] } {
  return { sql: hooksOver(em, '?', '?'), params: [repo.id, repo.ownerId] };
}

/** The same over SQL expressions for the repository's and its owner's id. */
export function hooksOver(em: EntityManager, repoId: string, ownerId: string): string {
  return jsonList(
    em,
    Webhook,
    'h',
    `h.is_active and (h.repo_id = ${repoId} or (h.owner_id = ${ownerId} and h.repo_id = 0) or (h.repo_id = 0 and h.owner_id = 0 and h.is_system_webhook))`,
  );
}

/** Keep what `hooksList` selected, read now, for the next event of `repo` (lib/http/read-ahead.ts). */
export function keepHooks(em: EntityManager, ahead: ReadAhead, repo: { id: number }, list: unknown): void {
  ahead.keep(HOOKS, { repoId: repo.id, hooks: plainRows(em, Webhook, list as unknown[]) });
}

/** The hooks an event of `repo` reaches: the repository's, its owner's (user or organization) and the system hooks. */
export async function hooksFor(em: EntityManager, repo: { id: number; ownerId: number }, ahead?: ReadAhead): Promise<IWebhook[]> {
  return ahead?.take(HOOKS, (k) => k.repoId === repo.id)?.hooks ?? readHooks(em, repo);
}

function readHooks(em: EntityManager, repo: { id: number; ownerId: number }): Promise<IWebhook[]> {
  return em.find(
    Webhook,
    {
      isActive: true,
      $or: [{ repoId: repo.id }, { ownerId: repo.ownerId, repoId: 0 }, { repoId: 0, ownerId: 0, isSystemWebhook: true }],
    },
    { orderBy: { id: 'asc' } },
  );
}
