// The vocabulary of route chains: loaders resolve path parameters into typed state, gates and guards
// decide. Every step declares what it needs and provides, so the interpreter can check a chain at start.
// The request state the steps read and fill is lib/http/request.ts (re-exported here for the steps).
import type { Need, Outcome, RequestState } from '../lib/http/request.ts';

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
}

export function step(name: string, kind: StepKind, needs: readonly Need[], provides: readonly Need[], run: Step['run']): Step {
  return Object.freeze({ name, kind, needs, provides, run });
}
