// What one request read before the step that uses it, and what its steps tell later steps: kept in
// the request's state (RequestState `ahead`), made with the request and dropped with it, so nothing
// read for one request can reach another. Each kind of value has its own slot, declared beside the
// code that keeps and takes it; a slot holds one value at a time.

/** A place for values of type `T` in a request's ReadAhead; `name` only names it for people reading. */
export class Slot<T> {
  declare readonly value?: T;
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

export class ReadAhead {
  readonly #values = new Map<Slot<unknown>, unknown>();

  keep<T>(slot: Slot<T>, value: T): void {
    this.#values.set(slot, value);
  }

  /** The value in `slot`, left in place. */
  peek<T>(slot: Slot<T>): T | undefined {
    return this.#values.get(slot) as T | undefined;
  }

  /** The value in `slot` when `matches` accepts it (or none is given), and the slot is emptied; else undefined. */
  take<T>(slot: Slot<T>, matches?: (value: T) => boolean): T | undefined {
    const value = this.#values.get(slot) as T | undefined;
    if (value === undefined || (matches && !matches(value))) return undefined;
    this.#values.delete(slot);
    return value;
  }
}
