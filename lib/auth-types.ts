import type { IUser } from '../model/user.ts';
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

export interface Auth {
  doer: IUser | null;
  method: AuthMethod | null;
  token: TokenInfo | null;
  /** The signed-in admin when acting through sudo. */
  sudoer: IUser | null;
}
