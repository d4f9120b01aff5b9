// What a handler sees and returns. Handlers never touch Koa: the interpreter renders the Reply.
import type { Readable } from 'node:stream';
import type { IUser } from '../../model/user.ts';
import type { Plain } from '../../model/raw.ts';
import type { Auth } from '../auth/auth-types.ts';
import type { Need, RequestState, Transact } from './request.ts';
import type { QueryValues } from '../../model/schemas/query.ts';

export interface Reply {
  status: number;
  /** JSON value, a string or Buffer (sent as is), a stream, or undefined for no body. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Content type for string/Buffer/stream bodies; JSON bodies are always application/json. */
  type?: string;
}

/** `Q` is the row's query declaration, `QueryOf<'Name'>` (model/schemas/query.ts). */
export interface HandlerCtx<B = unknown, Q = QueryValues> extends Omit<RequestState, 'q'> {
  body: B;
  readonly q: Q;
}

export type Handler<B = never, Q = QueryValues> = ((c: HandlerCtx<B, Q>) => Promise<Reply>) & {
  /** What the handler relies on its row's chain to provide; checked when the table is mounted. */
  readonly needs?: readonly Need[];
  /** The handler changes none of the rows its request reads first (see `plainContext`). */
  readonly plainContext?: boolean;
  /** The handler calls other hosts and writes in short transactions of its own (see `network`). */
  readonly network?: boolean;
  /** The handler's writes are queued until the end, unless it begins the transaction itself (see `writesAtEnd`). */
  readonly writesAtEnd?: boolean;
};

/** The context of a handler whose row has TOK: the caller is known. */
export interface SignedInCtx<B = unknown, Q = QueryValues> extends HandlerCtx<B, Q> {
  readonly auth: Auth & { readonly doer: Plain<IUser> };
}

/**
 * A handler for rows whose chain has TOK: it reads `c.auth.doer` without a null check, and the
 * interpreter refuses a row that names it without a step that provides the doer.
 */
export function signedIn<B = never, Q = QueryValues>(h: (c: SignedInCtx<B, Q>) => Promise<Reply>): Handler<B, Q> {
  const run = (c: HandlerCtx<B, Q>): Promise<Reply> => {
    if (!c.auth.doer) throw new Error('a signed-in handler ran without a caller: its row lacks TOK');
    return h(c as SignedInCtx<B, Q>);
  };
  return Object.assign(run, { needs: ['doer'] as const });
}

/**
 * A write handler that changes none of the rows of its context, the caller, the addressed repository
 * and its owner (a new issue or comment: its counters are written in SQL): they are read as plain
 * objects, not managed entities, as a GET reads them (mapping them into the identity map and
 * comparing them at every flush was about a tenth of the server's CPU of such a write).
 */
export function plainContext<B, Q>(h: Handler<B, Q>): Handler<B, Q> {
  return Object.assign(h, { plainContext: true as const });
}

/**
 * A write handler that calls other hosts: a git remote, another instance's API, a federation inbox.
 * The other host may be this very instance, whose answer then needs the database too (on the embedded
 * database, the one connection there is), and a slow host must not keep a pooled connection busy. So
 * the interpreter opens no transaction around such a handler: it does its network work holding no
 * transaction (reads outside one take a connection for each statement only), and writes what came of
 * it in short transactions of its own (`transactionOf(c)`), none of them open across a call.
 */
export function network<B, Q>(h: Handler<B, Q>): Handler<B, Q> {
  return Object.assign(h, { network: true as const });
}

/** The request's short transactions (RequestState `transaction`); only a `network` handler has them. */
export function transactionOf(c: Pick<HandlerCtx, 'transaction'>): Transact {
  if (!c.transaction) throw new Error('a handler wrote in a transaction of its own without being declared network');
  return c.transaction;
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers });

/**
 * A reply body made once the request's transaction has committed (the interpreter makes it before
 * rendering): for an answer that needs what a statement sent with COMMIT returned (a new issue's
 * number, lib/issues/issues.ts numberAtCommit).
 */
export class AfterCommit {
  readonly make: () => Promise<unknown>;
  constructor(make: () => Promise<unknown>) {
    this.make = make;
  }
}
export const noContent = (): Reply => ({ status: 204 });
export const isStream = (b: unknown): b is Readable => !!b && typeof (b as Readable).pipe === 'function';

/**
 * A write handler whose writes, in its common case, are all queued on the request's WriteQueue
 * (lib/db/counters.ts: `firstWrite`, `tailWrite`, `addCounters`): the interpreter opens no transaction
 * before it, its reads run alone (under READ COMMITTED each statement of a transaction takes a new
 * snapshot anyway, so they see what they would have seen inside one), and the queued writes go at the
 * end as one call of a database function (a first write's `combine`) or one multi-statement text, which
 * PostgreSQL runs as one implicit transaction: all or nothing, one round trip, and the row locks they
 * take are held for that statement only. Invariant: before any write it does not queue (a row whose
 * insert a hook's payload needs now, a flush of changed entities, a recount), the handler calls
 * `em.begin()`; from there it is an ordinary transaction, committed with its queued writes.
 */
export function writesAtEnd<B, Q>(h: Handler<B, Q>): Handler<B, Q> {
  return Object.assign(h, { writesAtEnd: true as const });
}
