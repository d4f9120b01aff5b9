// What a handler sees and returns. Handlers never touch Koa: the interpreter renders the Reply.
import type { Readable } from 'node:stream';
import type { RequestState } from './request.ts';
import type { QueryValues } from '../model/schemas/query.ts';

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

export type Handler<B = never, Q = QueryValues> = (c: HandlerCtx<B, Q>) => Promise<Reply>;

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers });
export const noContent = (): Reply => ({ status: 204 });
export const isStream = (b: unknown): b is Readable => !!b && typeof (b as Readable).pipe === 'function';
