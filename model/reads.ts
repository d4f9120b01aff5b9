// Reads that a converter needs together. Outside a transaction each one takes its own pooled
// connection, so they overlap. Inside a transaction they all share its one connection, where pg would
// queue them itself and warns ("Calling client.query() when the client is already executing a query",
// removed in pg 9): there they run one after another, which costs the same round trips.
import type { EntityManager } from '@mikro-orm/core';

export async function readTogether<T extends readonly unknown[]>(
  em: EntityManager,
  reads: { readonly [K in keyof T]: () => Promise<T[K]> | T[K] },
): Promise<T> {
  if (!em.isInTransaction()) return Promise.all(reads.map((read) => read())) as unknown as Promise<T>;
  const out: unknown[] = [];
  for (const read of reads) out.push(await read());
  return out as unknown as T;
}
