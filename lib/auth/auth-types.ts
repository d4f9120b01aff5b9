import type { IUser } from '../../model/user.ts';
import type { Plain } from '../../model/raw.ts';
import type { ParsedScopes } from './scopes.ts';

export type AuthMethod = 'basic' | 'token' | 'reverse-proxy' | 'actions';

export interface TokenInfo {
  id: number;
  /** Null when the stored scope string does not parse; the scope check then answers 403. */
  scopes: ParsedScopes | null;
  raw: string;
  publicOnly: boolean;
  /** Repositories of a repo-specific token; null for all-repository tokens. */
  repoIds: number[] | null;
}

/** The actions task whose token authenticated the request (spec, path resolution rule 4). */
export interface TaskInfo {
  id: number;
  repoId: number;
  isForkPullRequest: boolean;
}

export interface Auth {
  /** A plain row when the request reads its context plain (AuthRequest `plain`), else managed. */
  doer: Plain<IUser> | null;
  method: AuthMethod | null;
  token: TokenInfo | null;
  /** The signed-in admin when acting through sudo. */
  sudoer: IUser | null;
  /** Set when an actions task token authenticated the request; the doer is then the Actions user. */
  task?: TaskInfo | null;
}

/**
 * Site-admin rights of a caller: an admin account, unless the request's token is public-only or
 * repo-specific, which do not inherit them (spec, token kinds). The one implementation of the rule;
 * guards read it as `isSiteAdmin`, the git and attachment transports through this function.
 */
export function siteAdminOf(auth: Pick<Auth, 'doer' | 'token'>): boolean {
  const { doer, token } = auth;
  return !!doer?.isAdmin && !(token && (token.publicOnly || token.repoIds));
}

/** Site-admin rights of a user acting as themself, not through the request's token (a reviewer, a recipient, a job's doer). */
export const userIsSiteAdmin = (user: IUser | null): boolean => siteAdminOf({ doer: user, token: null });
