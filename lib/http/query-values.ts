// Numbers read by hand from the query string and the path. Forgejo parses
// them with Go's strconv.Atoi/ParseInt: anything that is not an int64 parses as 0 ("not given").
// Our id and counter columns are PostgreSQL `integer`, so an id beyond int32 names nothing, and a
// number is only exact in a double up to 2^53: values are clamped or refused here, before a query
// can fail on them.

export const INT32_MAX = 2 ** 31 - 1;

/** Go's Atoi into int64: a decimal integer, else 0; the result is clamped to ±(2^53−1). */
export function atoi(raw: string | null | undefined): number {
  if (!raw || !/^[-+]?\d+$/.test(raw)) return 0;
  const n = BigInt(raw);
  if (n > 2n ** 63n - 1n || n < -(2n ** 63n)) return 0;
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  return Number(n > max ? max : n < -max ? -max : n);
}

/** A row id from the path or query: a positive integer an `integer` column can hold, else null. */
export function rowId(raw: string | null | undefined): number | null {
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 && n <= INT32_MAX ? n : null;
}
