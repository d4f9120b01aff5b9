// Merges one handler family into the registry: a family `labels` exporting `{ list, get }` registers
// `labels.list` and `labels.get`, so a key's prefix names the file its handler lives in.
export type Family<P extends string, M> = { readonly [K in keyof M & string as `${P}.${K}`]: M[K] };

export function family<P extends string, M extends Record<string, unknown>>(prefix: P, members: M): Family<P, M> {
  return Object.fromEntries(Object.entries(members).map(([k, v]) => [`${prefix}.${k}`, v])) as Family<P, M>;
}
