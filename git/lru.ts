/**
 * A small least-recently-used map, for facts about immutable objects (a commit's stats, a path's last
 * commit, a parsed commit or tree). Bounded by the sum of its entries' weights (1 each unless `weigh`
 * says otherwise, e.g. a blob's bytes).
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  private readonly weights = new Map<K, number>();
  /** Loads under way, so that requests arriving together for one key start one load, not one each. */
  private readonly loading = new Map<K, Promise<V | undefined>>();
  private total = 0;
  private readonly max: number;
  private readonly weigh: (value: V) => number;
  constructor(max: number, weigh: (value: V) => number = () => 1) {
    this.max = max;
    this.weigh = weigh;
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
    this.drop(key);
    const w = this.weigh(value);
    if (w > this.max) return;
    this.map.set(key, value);
    this.weights.set(key, w);
    this.total += w;
    while (this.total > this.max) this.drop(this.map.keys().next().value as K);
  }

  /** The cached value, or the result of `load` (cached unless it is undefined); one load per key at a time. */
  async getOr<R extends V | undefined>(key: K, load: () => Promise<R>): Promise<V | R> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const pending = this.loading.get(key);
    if (pending) return pending as Promise<V | R>;
    const loaded = load().then((value) => {
      if (value !== undefined) this.set(key, value);
      return value;
    });
    this.loading.set(key, loaded);
    try {
      return await loaded;
    } finally {
      this.loading.delete(key);
    }
  }

  /**
   * The values of several keys, in order. Those neither cached nor loading are loaded by one call of
   * `load`, which answers the ones it found (a key it leaves out is not cached).
   */
  async getMany(keys: K[], load: (missing: K[]) => Promise<Map<K, V>>): Promise<(V | undefined)[]> {
    const missing = [...new Set(keys.filter((k) => !this.map.has(k) && !this.loading.has(k)))];
    if (missing.length > 0) {
      const batch = load(missing);
      for (const k of missing) {
        const one = batch.then((found) => {
          const value = found.get(k);
          if (value !== undefined) this.set(k, value);
          return value;
        });
        this.loading.set(k, one);
        const done = () => {
          this.loading.delete(k);
        };
        one.then(done, done);
      }
    }
    return Promise.all(keys.map((k) => this.get(k) ?? this.loading.get(k)));
  }

  private drop(key: K): void {
    const w = this.weights.get(key);
    if (w === undefined) return;
    this.map.delete(key);
    this.weights.delete(key);
    this.total -= w;
  }
}
