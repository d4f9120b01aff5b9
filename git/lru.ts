/** A small least-recently-used map, for facts about immutable objects (a commit's stats, a path's last commit). */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }

  /** The cached value, or the result of `load` (cached unless it is undefined). */
  async getOr<R extends V | undefined>(key: K, load: () => Promise<R>): Promise<V | R> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    if (value !== undefined) this.set(key, value);
    return value;
  }
}
