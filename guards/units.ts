// Shared argument checking for the unit-taking guards (OWN, ADM, RW, RR): unknown unit names must
// stop the start, not fail at request time.
import { Unit, type UnitName } from '../lib/auth/perm.ts';

export function checkUnits(guard: string, units: readonly string[]): UnitName[] {
  for (const u of units) if (!Object.hasOwn(Unit, u)) throw new Error(`${guard}: unknown unit "${u}"`);
  return units as UnitName[];
}
export const label = (guard: string, units: readonly string[]) => (units.length ? `${guard}(${units.join(', ')})` : guard);
