// Builds the RequestState one guard reads, without a server: settings from `loadConfig`, an `auth`
// object, and a repository with a RepoPermission built directly. Pure guards get an EntityManager
// that throws on use, so a guard that quietly starts reading the database fails its tests. The
// casts of the guard tests live here and only here.
import type { IncomingHttpHeaders } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pino from 'pino';
import type { EntityManager } from '@mikro-orm/core';
import { loadConfig, type Config } from '../../config.ts';
import type { IUser } from '../../model/user.ts';
import type { IRepository } from '../../model/repo.ts';
import type { ITeam } from '../../model/org.ts';
import type { IComment, IIssue, ITrackedTime } from '../../model/issue.ts';
import type { IAutoMerge, IPullRequest, IReview } from '../../model/pull.ts';
import type { IPublicKey } from '../../model/keys.ts';
import type { Auth, AuthMethod, TokenInfo } from '../../lib/auth/auth-types.ts';
import { parseScopes } from '../../lib/auth/scopes.ts';
import { DEFAULT_UNITS, RepoPermission, Unit, type AccessMode, type UnitName } from '../../lib/auth/perm.ts';
import { SecretBox } from '../../lib/auth/secretbox.ts';
import { repoPathFor, type Services } from '../../lib/http/services.ts';
import type { Deny, LoadedRepo, Outcome, Redirect, RequestState, Step } from '../../guards/types.ts';
import { ReadAhead } from '../../lib/http/read-ahead.ts';

let nextId = 9000;

/** An in-memory user (never stored); `type: 1` makes it an organization. */
export function fakeUser(over: Partial<IUser> = {}): IUser {
  const id = over.id ?? ++nextId;
  const name = over.name ?? `user${id}`;
  return { id, name, lowerName: name.toLowerCase(), type: 0, isAdmin: false, visibility: 'public', ...over } as IUser;
}
export const fakeOrg = (over: Partial<IUser> = {}) => fakeUser({ name: `org${nextId + 1}`, ...over, type: 1 });

export function fakeRepo(owner: IUser, over: Partial<IRepository> = {}): IRepository {
  const id = over.id ?? ++nextId;
  const name = over.name ?? `repo${id}`;
  return {
    id,
    ownerId: owner.id,
    ownerName: owner.name,
    name,
    lowerName: name.toLowerCase(),
    defaultBranch: 'main',
    isPrivate: false,
    isArchived: false,
    isMirror: false,
    isEmpty: false,
    ...over,
  } as IRepository;
}

/** An in-memory issue (or pull) of `repo`, posted by `poster`. */
export function fakeIssue(repo: IRepository, poster: IUser, over: Partial<IIssue> = {}): IIssue {
  const id = over.id ?? ++nextId;
  return {
    id,
    repoId: repo.id,
    index: id,
    posterId: poster.id,
    title: `issue ${id}`,
    content: '',
    isPull: false,
    isClosed: false,
    isLocked: false,
    createdAt: new Date('2024-01-01T00:00:00.250Z'),
    updatedAt: new Date('2024-01-01T00:00:00.250Z'),
    ...over,
  } as IIssue;
}

/** An in-memory plain comment on `issue` by `poster`. */
export function fakeComment(issue: IIssue, poster: IUser, over: Partial<IComment> = {}): IComment {
  return { id: over.id ?? ++nextId, issueId: issue.id, posterId: poster.id, type: 0, content: 'hello', ...over } as IComment;
}

export function fakeTeam(org: IUser, over: Partial<ITeam> = {}): ITeam {
  const id = over.id ?? ++nextId;
  return { id, orgId: org.id, name: `team${id}`, lowerName: `team${id}`, accessMode: 1, includesAllRepositories: false, ...over } as ITeam;
}

/**
 * `new RepoPermission(mode, units, enabled)` from unit names: `units` gives the per-unit modes (only
 * enabled units are kept, as repoPermission does); `enabled` defaults to a new repository's units.
 */
export function perm(
  mode: AccessMode,
  units: Partial<Record<UnitName, AccessMode>> = {},
  enabled: readonly UnitName[] = DEFAULT_UNITS,
): RepoPermission {
  const on = new Set(enabled.map((u) => Unit[u]));
  const map = new Map<number, AccessMode>();
  for (const [u, m] of Object.entries(units) as [UnitName, AccessMode][]) if (on.has(Unit[u])) map.set(Unit[u], m);
  return new RepoPermission(mode, map, on);
}

/** Every enabled unit at one mode, as repoPermission gives owners, admins and anonymous readers. */
export const permAll = (mode: AccessMode, enabled: readonly UnitName[] = DEFAULT_UNITS) =>
  perm(mode, Object.fromEntries(enabled.map((u) => [u, mode])), enabled);

export function loadedRepo(p: RepoPermission, opts: { owner?: IUser; repo?: Partial<IRepository> } = {}): LoadedRepo {
  const owner = opts.owner ?? fakeUser();
  return { repo: fakeRepo(owner, opts.repo), owner, perm: p };
}

/** A token with these scopes (`public-only` in the list makes it public-only); `repoIds` makes it repo-specific. */
export function token(scopes = 'all', repoIds: number[] | null = null): TokenInfo {
  const parsed = parseScopes(scopes);
  return { id: ++nextId, scopes: parsed, raw: scopes, publicOnly: parsed.publicOnly, repoIds };
}
/** A stored token whose scope string no longer parses. */
export const brokenToken = (raw: string): TokenInfo => ({ id: ++nextId, scopes: null, raw, publicOnly: false, repoIds: null });

export interface Given {
  /** Setting overrides by variable name without the CAIRN__ prefix: `{ SECURITY__DISABLE_WEBHOOKS: 'true' }`. */
  config?: Record<string, string>;
  doer?: IUser | null;
  /** Defaults: `token` when a token is given, `basic` for a signed-in doer, none for anonymous. */
  method?: AuthMethod | null;
  token?: TokenInfo | null;
  repo?: LoadedRepo;
  org?: IUser;
  team?: ITeam;
  contextUser?: IUser;
  issue?: IIssue;
  comment?: { comment: IComment; issue: IIssue };
  trackedTime?: ITrackedTime;
  pull?: { pull: IPullRequest; issue: IIssue };
  review?: IReview;
  autoMerge?: IAutoMerge;
  key?: IPublicKey;
  newOwner?: IUser;
  dependency?: { issue: IIssue; at: LoadedRepo };
  params?: Record<string, string>;
  headers?: IncomingHttpHeaders;
  body?: unknown;
  httpMethod?: string;
  path?: string;
  query?: string;
  /** A real EntityManager for the database-backed loaders and guards. */
  em?: EntityManager;
}

const noDb = new Proxy(
  {},
  {
    get(_t, prop) {
      throw new Error(`a pure guard used the database (em.${String(prop)})`);
    },
  },
) as unknown as EntityManager;

export const servicesFor = (config: Config): Services => ({
  log: pino({ level: 'silent' }),
  secrets: new SecretBox('guard-tests'),
  repoPath: repoPathFor(config),
});

export function state(g: Given = {}): RequestState {
  const config = loadConfig({}, g.config ?? {});
  const services = servicesFor(config);
  const doer = g.doer ?? null;
  const tok = g.token ?? null;
  const method = g.method !== undefined ? g.method : tok ? 'token' : doer ? 'basic' : null;
  const auth: Auth = { doer, method, token: tok, sudoer: null };
  return {
    config,
    services,
    em: g.em ?? noDb,
    ahead: new ReadAhead(),
    method: g.httpMethod ?? 'GET',
    plainContext: (g.httpMethod ?? 'GET') === 'GET' || g.httpMethod === 'HEAD',
    path: g.path ?? '/',
    params: g.params ?? {},
    query: new URLSearchParams(g.query ?? ''),
    q: Object.fromEntries(new URLSearchParams(g.query ?? '')),
    headers: g.headers ?? {},
    auth,
    readBody: async () => ({ value: g.body }),
    body: g.body,
    contextUser: g.contextUser,
    org: g.org,
    repo: g.repo,
    team: g.team,
    issue: g.issue ?? g.comment?.issue,
    comment: g.comment,
    trackedTime: g.trackedTime,
    pull: g.pull,
    review: g.review,
    autoMerge: g.autoMerge,
    key: g.key,
    newOwner: g.newOwner,
    dependency: g.dependency,
  };
}

/** Expected outcome: `null` (pass), a bare status, a denial with the fixed parts, or a redirect. */
export type Want = null | number | (Partial<Deny> & { status: number }) | Redirect;

export interface Row {
  name: string;
  given: () => Given | Promise<Given>;
  want: Want;
  /** Why the row is written to the spec but skipped (the guard disagrees; see the report). */
  skip?: string;
  /** Extra checks on the state after the step ran (what a loader provided). */
  then?: (s: RequestState) => void;
}

export function assertOutcome(out: Outcome, want: Want): void {
  if (want === null) return assert.is(out, null, `expected the step to pass, got ${JSON.stringify(out)}`);
  assert.ok(out, `expected ${JSON.stringify(want)}, the step passed`);
  if (typeof want === 'number') return assert.is(out.status, want);
  assert.is(out.status, want.status, `status of ${JSON.stringify(out)}`);
  if ('location' in want) return assert.is('location' in out ? out.location : undefined, want.location);
  if (want.message !== undefined) assert.is('message' in out ? out.message : undefined, want.message);
  if ('errors' in want) assert.equal('errors' in out ? out.errors : undefined, want.errors);
}

/** One uvu test per fixture row. */
export function table(step: Step, rows: readonly Row[]): void {
  for (const row of rows) {
    const run = async () => {
      const s = state(await row.given());
      const out = await step.run(s);
      assertOutcome(out, row.want);
      row.then?.(s);
    };
    if (row.skip) test.skip(`${step.name}: ${row.name} [spec: ${row.skip}]`, run);
    else test(`${step.name}: ${row.name}`, run);
  }
}

/** A constructor called the way an untyped caller could, to check its start-up argument checks. */
export const loose = <A extends unknown[]>(ctor: (...args: A) => Step) => ctor as unknown as (...args: string[]) => Step;
