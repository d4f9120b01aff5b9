// Turns on a hot row (issue 10). A new issue raises its repository's counters and takes its number; a
// new comment raises its issue's: every writer of one repository or issue updates one row, and
// PostgreSQL lets one transaction at a time hold its lock, until its COMMIT is flushed. The others wait
// inside PostgreSQL, holding a pooled connection each, and the waiting is not free: pgbench with a new
// issue's statements (pipelined, as cairn sends them) cost 0.25 ms of PostgreSQL CPU per transaction
// with one client, 0.30 with two on one repository, 0.34 with four and 0.41 with six, against 0.25 at
// any number of clients each on a repository of its own; commits a second peaked at two clients.
//
// A transaction that sends everything with COMMIT holds no lock and no connection until then, so
// this process can let at most `TURNS` such transactions of one hot row go to PostgreSQL at once and
// queue the rest in memory, where waiting costs nothing and keeps no connection from the requests
// that read. Only a performance measure: correctness stays with PostgreSQL's row locks (other
// processes, and transactions that took their locks earlier, which never wait here: a transaction
// holding a lock must not wait behind one that waits for it).
/**
 * Transactions of one hot row let through to PostgreSQL at once, by this process: with one, the next
 * waited for the event loop to see the last one's COMMIT answered, and 64 connections made no more
 * new issues a second than without the turns; with two, 6 % more, and 10-15 % less of PostgreSQL's
 * CPU per new issue (bench/runtime.md).
 */
export const TURNS = 2;

interface Row { running: number; waiting: (() => void)[] }
const rows = new Map<string, Row>();

/** Keys with a transaction running or waiting (for tests). */
export const hotRowsInUse = (): number => rows.size;

/** Runs `fn` when fewer than `turns` others of this process run for `key`; in arrival order. */
export async function inTurn<T>(key: string, fn: () => Promise<T>, turns = TURNS): Promise<T> {
  let row = rows.get(key);
  if (row === undefined) {
    row = { running: 0, waiting: [] };
    rows.set(key, row);
  }
  if (row.running >= turns) await new Promise<void>((resolve) => row.waiting.push(resolve));
  else row.running++;
  try {
    return await fn();
  } finally {
    const next = row.waiting.shift();
    if (next) next();
    else if (--row.running === 0) rows.delete(key);
  }
}
