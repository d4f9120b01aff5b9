// The vocabulary of route chains: loaders resolve path parameters into typed state, gates and guards
// decide. Every step declares what it needs and provides, so the interpreter can check a chain at start.
// The request state the steps read and fill is lib/http/request.ts (re-exported here for the steps).
import type { EntityManager } from '@mikro-orm/core';
import type { Need, Outcome, RequestState } from '../lib/http/request.ts';
import type { ReadAhead } from '../lib/http/read-ahead.ts';
import type { PreparedValue } from '../model/sql.ts';

export * from '../lib/http/request.ts';

/** `quota`: a Q(subject, target) check (413), listed in its own matrix column. */
export type StepKind = 'loader' | 'limit' | 'gate' | 'guard' | 'quota' | 'body';

export interface Step {
  /** As printed in the route matrix, e.g. `RW(code)`. */
  readonly name: string;
  readonly kind: StepKind;
  readonly needs: readonly Need[];
  readonly provides: readonly Need[];
  run(s: RequestState): Promise<Outcome> | Outcome;
  /** What the step can be served from the statement that finds the caller's token, if anything. */
  readonly ahead?: TokenRead;
}

export function step(name: string, kind: StepKind, needs: readonly Need[], provides: readonly Need[], run: Step['run']): Step {
  return Object.freeze({ name, kind, needs, provides, run });
}

/** `s`, declaring that it can be served from the token's statement by `read`. */
export const readsAhead = (s: Step, read: TokenRead): Step => Object.freeze({ ...s, ahead: read });

/**
 * A read that can be made in the statement that finds the caller's access token (lib/auth/tokens.ts),
 * declared by the step that would otherwise make it (a loader), or by a row (`ahead`) for its handler.
 * The interpreter composes the reads of the request's row into that one statement and hands what it
 * found to `keep`, which puts it in the request's read-ahead, where the step takes it: one round trip
 * instead of two or three. A read only saves a statement: its step reads for itself whatever was not
 * read ahead (no token, another credential, a value `values` refused).
 */
export interface TokenRead {
  /** Names the read in the statement's shape. */
  readonly name: string;
  /** The read whose join this one's select expressions go in (they may use its aliases); absent: over the token `t`. */
  readonly inside?: TokenRead;
  /** Select expressions, each led by a comma: over `t` (or, `inside` a join, over its aliases). */
  select?(em: EntityManager): string;
  /** A join after the token's user, whose select list holds `inner`, the select expressions of the reads inside it. */
  join?(em: EntityManager, inner: string): string;
  /**
   * The values of this read's own placeholders, from the path parameters, in the order of its text (a
   * join's own come after those of the reads inside it), scalars (the statement is a prepared one, model/sql.ts
   * readPrepared); null when this request cannot read it ahead.
   */
  values(params: Readonly<Record<string, string>>): readonly PreparedValue[] | null;
  /** Keeps what the statement found in `row` (the token's row, of user `uid`) in the request's read-ahead. */
  keep(found: TokenReadFound): void;
}

export interface TokenReadFound {
  readonly em: EntityManager;
  readonly ahead: ReadAhead;
  readonly row: Record<string, unknown>;
  /** The token's user. */
  readonly uid: number;
  /** The request changes nothing of its caller and context (RequestState plainContext). */
  readonly plain: boolean;
  readonly params: Readonly<Record<string, string>>;
}
