// The state of one API request as the route chain and the handler see it: who calls (auth), what the
// loaders resolved (repository, issue, comment, ...), and how a step refuses (Deny) or redirects.
// The chain's own vocabulary (steps, their kinds) lives in guards/types.ts, above this layer.
import type { EntityManager } from '@mikro-orm/core';
import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../../config.ts';
import type { IUser } from '../../model/user.ts';
import type { IRepository, IRepoUnit } from '../../model/repo.ts';
import type { ITeam } from '../../model/org.ts';
import type { IComment, IIssue, ITrackedTime } from '../../model/issue.ts';
import type { Plain } from '../../model/raw.ts';
import type { IAttachment } from '../../model/attachment.ts';
import type { IAutoMerge, IPullRequest, IReview } from '../../model/pull.ts';
import type { IPackage, IPackageVersion } from '../../model/package.ts';
import type { IPublicKey } from '../../model/keys.ts';
import { siteAdminOf, type Auth } from '../auth/auth-types.ts';
import type { RepoPermission } from '../auth/perm.ts';
import type { Services } from './services.ts';
import type { ReceivedBody } from './request-body.ts';
import type { QueryValues } from '../../model/schemas/query.ts';
import type { ReadAhead } from './read-ahead.ts';
import type { WriteQueue } from '../db/counters.ts';

/**
 * Where the interpreter records, on Koa's request state, the table row that answers a request (or whose
 * kept answer is sent): its method and path as the table spells them. Read by the metrics
 * (lib/runtime/metrics.ts), which label requests by row, never by raw path.
 */
export const ROW_STATE = 'cairnRow';
export interface RowLabel {
  readonly method: string;
  readonly path: string;
}

export type Need =
  | 'doer'
  | 'user'
  | 'org'
  | 'repo'
  | 'team'
  | 'issue'
  | 'pull'
  | 'review'
  | 'comment'
  | 'attachment'
  | 'time'
  | 'package'
  | 'auto-merge'
  | 'key'
  | 'new-owner'
  | 'dependency'
  | 'head'
  | 'target-user'
  | 'body';

export interface Deny {
  status: number;
  message: string;
  /** 404 bodies carry an `errors` list; a few 403 bodies carry only `message`. */
  errors?: string[];
  bare?: boolean;
  /** More keys of the body, such as the 413 quota reply's `user_id` and `username`. */
  fields?: Record<string, unknown>;
}
export interface Redirect {
  status: 301 | 307;
  location: string;
}
export type Outcome = Deny | Redirect | null;

/** Managed entities, or plain rows when the request reads its context plain: to change one, `managedOf` (model/raw.ts). */
export interface LoadedRepo {
  repo: Plain<IRepository>;
  owner: Plain<IUser>;
  perm: RepoPermission;
  /** The repository's unit rows, when the loader read them (handlers reuse them; plain rows, to read only). */
  units?: IRepoUnit[];
  /** Whether a transfer waits for its recipient, when the loader read it. */
  transferPending?: boolean;
}

/** Everything a step or handler may read about the request. Loaders fill the optional parts. */
export interface RequestState {
  readonly config: Config;
  readonly services: Services;
  readonly em: EntityManager;
  /**
   * What this request read ahead of the step that uses it (the token's statement, a new row's insert)
   * and what its steps tell later ones: made with the request, dropped with it (lib/http/read-ahead.ts).
   */
  readonly ahead: ReadAhead;
  readonly method: string;
  /**
   * The caller, the repository and its owner are plain objects, not managed entities: a GET or HEAD,
   * or a row whose handler changes none of them (lib/http/handler.ts plainContext).
   */
  readonly plainContext?: boolean;
  /** Request path below the API base, without the query. */
  readonly path: string;
  readonly params: Record<string, string>;
  /** The query string as received; handlers read `q` instead (only the input check, sudo, auth and Link headers read this). */
  readonly query: URLSearchParams;
  /** The query parsed with the row's declaration (lib/http/query-params.ts): every declared name, typed. */
  readonly q: QueryValues;
  readonly headers: IncomingHttpHeaders;
  readonly auth: Auth;
  /**
   * Reads the body (JSON value, text, or multipart fields and files; and the text as received for
   * SIG's Digest), once. Only the BODY step and SIG call it, so nothing is buffered for a caller
   * the chain turned away before (lib/http/request-body.ts).
   */
  readonly readBody: () => Promise<ReceivedBody>;
  /** The request line's path and query as received: what an HTTP signature covers (SIG). */
  readonly requestUri?: string;
  /**
   * What the request's writes queue to send last (lib/db/counters.ts): made by the interpreter for a
   * mutating row's handler and dropped with the request; passed explicitly to what queues.
   */
  readonly writes?: WriteQueue;
  /** Work for after the handler's transaction committed (set for mutating rows only). */
  readonly afterCommit?: (work: () => Promise<void>) => void;
  /**
   * A short transaction of the request's EntityManager around `work`: flushed and committed when it
   * returns, rolled back when it throws. Set for a handler that calls other hosts (lib/http/handler.ts
   * `network`), which the interpreter runs outside any transaction: it writes only in here, and never
   * calls out from in here.
   */
  readonly transaction?: Transact;
  body?: unknown;
  contextUser?: IUser;
  org?: IUser;
  repo?: LoadedRepo;
  team?: ITeam;
  /**
   * The issue or pull of `{index}` (ISSUE loader), or the issue of the loaded comment (COMMENT): a plain
   * row when the request reads its context plain, else managed (to change it, `managedOf`).
   */
  issue?: Plain<IIssue>;
  /** The pull request of `{index}` and its issue (PULL loader). */
  pull?: { pull: IPullRequest; issue: IIssue };
  /** The merge scheduled on the loaded pull (SCHEDULED_MERGE loader). */
  autoMerge?: IAutoMerge;
  /** The review `{id}` of the loaded pull (REVIEW loader). */
  review?: IReview;
  /** The comment of `{id}`/`{comment}` and its issue (COMMENT loader). */
  comment?: { comment: IComment; issue: IIssue };
  /** The attachment of `{attachment_id}` on the loaded issue or comment (ATTACHMENT loader). */
  attachment?: IAttachment;
  /** The tracked time of `{id}` on the loaded issue (TRACKED_TIME loader). */
  trackedTime?: ITrackedTime;
  /** The issue an IssueMeta body names, with its repository as the caller sees it (DEPENDENCY loader). */
  dependency?: { issue: IIssue; at: LoadedRepo };
  /** The user or organization a transfer body names as `new_owner` (NEW_OWNER loader). */
  newOwner?: IUser;
  /** The head repository and branch a CreatePullRequestOption body names, the caller may read its code (HEAD_REPO loader). */
  head?: { repo: IRepository; owner: IUser; branch: string };
  /** The user of `{target}` (TARGET_USER loader). */
  targetUser?: IUser;
  /** The user SSH key of `{id}` (KEY loader). */
  key?: IPublicKey;
  /** The package version of `{type}/{name}/{version}` and its package (PACKAGE loader). */
  package?: { pkg: IPackage; version: IPackageVersion };
}

/** Runs `work` in a transaction and commits it (RequestState `transaction`). */
export type Transact = <T>(work: () => Promise<T>) => Promise<T>;

export const deny = (status: number, message: string, extra: Partial<Deny> = {}): Deny => ({ status, message, ...extra });
export const isRedirect = (o: Outcome): o is Redirect => o !== null && 'location' in o;

/** Site-admin rights, which public-only and repo-specific tokens do not inherit (spec, token kinds). */
export function isSiteAdmin(s: Pick<RequestState, 'auth'>): boolean {
  return siteAdminOf(s.auth);
}

/** Narrow a loader-provided field; the start-up check guarantees it is present. */
export function need<T>(value: T | undefined, what: Need): T {
  if (value === undefined) throw new Error(`chain bug: ${what} not loaded`);
  return value;
}
