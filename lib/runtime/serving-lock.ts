// Whether this process is the only one serving the instance, for the start-up cleanup of leftovers
// (lib/maintenance/leftovers.ts): another live process's uploads and pushes in progress look exactly like a dead
// one's. Every serving process holds a shared PostgreSQL advisory lock for its lifetime, on its own
// connection outside the pool; a starting process that can take the lock exclusively first knows
// that no other one is running. The embedded database admits one process only, so there it is alone.
import type { Config } from '../../config.ts';
import type { Orm } from '../../model/db.ts';
import { ownConnection } from '../../model/connection.ts';

/** An arbitrary constant: the advisory lock key of "a cairn process serves this database". */
const SERVING_KEY = 4_302_117_731;

export interface ServingLock {
  alone: boolean;
  release(): Promise<void>;
}

export async function takeServingLock(orm: Orm, cfg: Config): Promise<ServingLock> {
  if (!cfg.DATABASE.URL) return { alone: true, release: async () => {} };
  // A raw connection, not a pooled one: a session-level lock lives as long as its connection.
  const conn = await ownConnection(orm);
  const { rows } = await conn.query('select pg_try_advisory_lock($1) as alone', [SERVING_KEY]);
  const alone = rows[0]?.alone === true;
  await conn.query('select pg_advisory_lock_shared($1)', [SERVING_KEY]);
  if (alone) await conn.query('select pg_advisory_unlock($1)', [SERVING_KEY]);
  return { alone, release: () => conn.release() };
}
