// Authentication of an API request (spec, Authentication; forgejo-facts 2.1-2.6). Methods are tried in
// Forgejo's order; credentials that are present but rejected answer 401 on every route.
import type { EntityManager } from '@mikro-orm/core';
import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../../config.ts';
import { User, type IUser } from '../../model/user.ts';
import { AccessToken } from '../../model/token.ts';
import { isStorableText } from '../../model/schemas/storable.ts';
import { HttpError } from '../http/errors.ts';
import { verifyPassword } from './password.ts';
import { findTaskToken, findToken, TOKEN_RE, TokenLookupError, type TokenAhead } from './tokens.ts';
import { pseudoUser } from './pseudo-users.ts';
import { parseStoredScopes } from './scopes.ts';
import { checkTotp } from './totp.ts';
import type { SecretBox } from './secretbox.ts';
import type { AuthLimiter } from './limits.ts';
import type { AddressOf } from '../http/client-address.ts';
import type { Auth, TokenInfo } from './auth-types.ts';

export const QUERY_TOKEN_WARNING =
  'token and access_token API authentication is deprecated and will be removed in Forgejo v13.0.0. Please use AuthorizationHeaderToken instead. Existing queries will continue to work but without authorization.';
const OTP_HEADERS = ['x-forgejo-otp', 'x-gitea-otp', 'x-service-otp'] as const;

export interface AuthInput {
  headers: IncomingHttpHeaders;
  query: URLSearchParams;
}

/** A request to authenticate: its credentials and the address of the connection's peer. */
export interface AuthRequest extends AuthInput {
  peer: string | undefined;
  /** The request changes nothing of the caller (RequestState plainContext): it may be a plain object, not a managed entity. */
  plain?: boolean;
  /**
   * What the request's row can be served from the token's statement (lib/auth/tokens.ts), composed by
   * the interpreter from the row's declarations; asked only when a token is presented.
   */
  ahead?: () => TokenAhead | null;
}

export interface AuthDeps {
  secrets: SecretBox;
  limiter: AuthLimiter;
  /** The client's address (lib/http/client-address.ts), which the limits count by. */
  addressOf: AddressOf;
}

export interface AuthResult extends Auth {
  /** Response headers the authentication step asks for (the query-token deprecation warning). */
  warning?: string;
}

const anonymous = (): AuthResult => ({ doer: null, method: null, token: null, sudoer: null });

export async function authenticate(em: EntityManager, cfg: Config, deps: AuthDeps, req: AuthRequest): Promise<AuthResult> {
  const errors: string[] = [];
  let warning: string | undefined;
  // Only the limits need the client's address: a request that checks no password and fails nothing skips it.
  const address = () => deps.addressOf(req.peer, req.headers);
  const queryToken = req.query.get('token') || req.query.get('access_token') || '';
  if (req.query.has('token') || req.query.has('access_token')) warning = QUERY_TOKEN_WARNING;
  const header = typeof req.headers.authorization === 'string' ? req.headers.authorization.trim() : '';
  const [scheme, value, ...extra] = header.split(/\s+/);
  const kind = scheme?.toLowerCase();

  let result: AuthResult | null = null;
  // Whether credentials were checked (and so may count as a failed guess), and the 429 of a blocked password login.
  let attempted = false;
  let lockout: HttpError | null = null;
  let tried: { value: string; answer: AuthResult | string } | null = null;
  const tryToken = async (value: string) => {
    attempted = true;
    if (tried?.value !== value)
      tried = {
        value,
        answer: await tokenLogin(em, value, !!req.plain, req.ahead?.() ?? null),
      };
    return tried.answer;
  };
  // 1. Basic with a password.
  let basic: { user: string; pass: string } | null = null;
  if (kind === 'basic' && header) {
    basic = decodeBasic(value ?? '');
    if (!basic) errors.push('invalid basic authentication header');
    else if (!cfg.SERVICE.ENABLE_BASIC_AUTHENTICATION) errors.push('basic authentication by username & password is disabled');
    else {
      // A token in the password (how git clients send one) is looked up first, so that a valid one
      // costs no read of the limits; step 2 reuses the answer.
      const early = TOKEN_RE.test(basic.pass) ? await tryToken(basic.pass) : null;
      if (early !== null && typeof early !== 'string') result = early;
      // A password can be guessed: over a limit it is not even checked.
      else lockout = await deps.limiter.refusal({ account: basic.user, address: address() });
      if (!result && !lockout) {
        attempted = true;
        const r = await passwordLogin(em, deps.secrets, basic.user, basic.pass, req.headers);
        if (typeof r === 'string') errors.push(r);
        else result = { doer: r, method: 'basic', token: null, sudoer: null };
      }
    }
  }
  // 2. Access token: query parameter first, then `token`/`Bearer`, then Basic's password (or username).
  if (!result) {
    let presented: string | null = null;
    if (queryToken && !cfg.SECURITY.DISABLE_QUERY_AUTH_TOKEN) presented = queryToken;
    else if ((kind === 'token' || kind === 'bearer') && extra.length === 0) presented = value ?? '';
    else if (kind === 'token' || kind === 'bearer') errors.push('invalid authorization header');
    else if (basic) presented = basic.pass === '' || basic.pass === 'x-oauth-basic' ? basic.user : basic.pass;
    if (presented !== null) {
      const r = await tryToken(presented);
      if (typeof r === 'string') errors.push(r);
      else result = r;
    }
  }
  // 3. Reverse-proxy identity, only when the instance enables it for the API.
  if (!result && cfg.SERVICE.ENABLE_REVERSE_PROXY_AUTHENTICATION_API) {
    const name = req.headers[cfg.SECURITY.REVERSE_PROXY_AUTHENTICATION_USER.toLowerCase()];
    if (typeof name === 'string' && name.trim()) {
      const user = await em.findOne(User, { lowerName: name.trim().toLowerCase(), type: 0 });
      if (user) result = { doer: user, method: 'reverse-proxy', token: null, sudoer: null };
      else errors.push(`user does not exist [name: ${name.trim()}]`);
    }
  }
  if (!result) {
    if (lockout) throw lockout;
    if (errors.length) {
      // Failures of credentials only: a malformed header or a disabled method guesses nothing.
      if (attempted) await deps.limiter.fail({ account: basic?.user ?? null, address: address() });
      throw new HttpError(401, errors.join('\n'));
    }
    return { ...anonymous(), warning };
  }
  checkAccountState(result.doer!, cfg);
  return { ...result, warning };
}

function decodeBasic(value: string): { user: string; pass: string } | null {
  if (!/^[A-Za-z0-9+/]+=*$/.test(value)) return null;
  const text = Buffer.from(value, 'base64').toString('utf8');
  const i = text.indexOf(':');
  return i < 0 ? null : { user: text.slice(0, i), pass: text.slice(i + 1) };
}

async function passwordLogin(
  em: EntityManager,
  secrets: SecretBox,
  login: string,
  password: string,
  headers: IncomingHttpHeaders,
): Promise<IUser | string> {
  const lower = login.trim().toLowerCase();
  // A Basic user name is base64 and may decode to NUL, which no stored name holds.
  const user = !isStorableText(lower)
    ? null
    : await em.findOne(User, lower.includes('@') ? { email: { $ilike: lower }, type: 0 } : { lowerName: lower, type: 0 }, {
        populate: ['passwordHash', 'totpSecret', 'totpLastUsed'],
      });
  if (!user || !user.passwordHash || !(await verifyPassword(password, user.passwordHash))) {
    return `user's password is invalid [name: ${login}]`;
  }
  if (user.totpSecret) {
    const code = OTP_HEADERS.map((h) => headers[h]).find((v): v is string => typeof v === 'string' && v !== '') ?? '';
    const step = checkTotp(secrets.open(user.totpSecret), code.trim());
    // A code is good once: replaying the last accepted step is refused.
    if (step === null || String(step) === user.totpLastUsed) return 'invalid provided OTP';
    user.totpLastUsed = String(step);
    await em.flush();
  }
  return user;
}

async function tokenLogin(em: EntityManager, value: string, plain: boolean, ahead: TokenAhead | null): Promise<AuthResult | string> {
  let row;
  try {
    row = await findToken(em, value, { plain, ahead });
  } catch (e) {
    if (!(e instanceof TokenLookupError)) throw e;
    // Not a personal access token: perhaps the token of a running actions task. Its caller is the
    // Actions user, with no scope restriction (forgejo-facts 2.10).
    const task = await findTaskToken(em, value);
    if (task) return { doer: pseudoUser(-2), method: 'actions', token: null, sudoer: null, task };
    return e.message;
  }
  const user = row.user;
  if (!user) return `access token does not exist [sha: ${value}]`;
  const scopes: TokenInfo['scopes'] = parseStoredScopes(row.scope);
  const token: TokenInfo = { id: row.id, scopes, raw: row.scope, publicOnly: !!scopes?.publicOnly, repoIds: row.repoIds };
  // Last use is kept to the minute: a write on every request would serialise readers for nothing.
  if (Date.now() - row.updatedAt.getTime() > 60_000) await em.nativeUpdate(AccessToken, { id: row.id }, { updatedAt: new Date() });
  return { doer: user, method: 'token', token, sudoer: null };
}

/** forgejo-facts 2.6: account states that stop a signed-in request, answered with a bare `{message}`. */
function checkAccountState(user: IUser, cfg: Config) {
  if (user.prohibitLogin)
    throw new HttpError(403, 'This account is prohibited from signing in, please contact your site administrator.', { bare: true });
  if (!user.isActive) throw new HttpError(403, 'This account is not activated.', { bare: true });
  if (user.mustChangePassword)
    throw new HttpError(403, `You must change your password. Change it at: ${cfg.appUrl}/user/change_password`, { bare: true });
}

/** Spec, impersonation rule: `sudo` query first, then the `Sudo` header. */
export async function applySudo(em: EntityManager, auth: Auth, req: AuthInput, isAdmin: boolean): Promise<Auth> {
  const name = req.query.get('sudo') || (typeof req.headers.sudo === 'string' ? req.headers.sudo : '');
  if (!name) return auth;
  if (!auth.doer || !isAdmin) throw new HttpError(403, 'Only administrators allowed to sudo.', { bare: true });
  const target = await em.findOne(User, { lowerName: name.toLowerCase(), type: 0 });
  if (!target) throw new HttpError(404, "The target couldn't be found.", { errors: [] });
  return { ...auth, doer: target, sudoer: auth.doer };
}
