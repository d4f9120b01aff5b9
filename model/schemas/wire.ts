// The type a converter returns. Forgejo's swagger marks every response field
// optional, so `Repository` alone would let a converter drop a field unnoticed: `Wire<T>` requires
// each field of `T`, except the `Omitted` ones, which Forgejo leaves out of the JSON (`omitempty`)
// in some cases and a converter therefore may too.
export type Wire<T, Omitted extends keyof T = never> = Required<Omit<T, Omitted>> & Partial<Pick<T, Omitted>>;
