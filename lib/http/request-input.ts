// The check every row runs before sudo: path parameters and query values that no
// stored text can equal (NUL, lone surrogates; model/schemas/storable.ts) are refused before any step
// reaches the database. A path parameter names something, so it answers 404 like any unknown name
// (except a name a write is to create, which is input: 422);
// a query value is input the caller chose, so it answers 422 naming the parameter, in the body
// binding's `[Field]: Rule` style.
import type { Deny } from './request.ts';
import { isStorableText } from '../../model/schemas/storable.ts';
import { NOT_FOUND } from './errors.ts';

/** Path parameters that name what a write creates (`POST/PUT contents/*`, the `path` parameter): input, so 422. */
const NAMES_TO_CREATE = new Set(['path']);

export function unusableInput(params: Record<string, string>, query: URLSearchParams, method = 'GET'): Deny | null {
  for (const [name, value] of Object.entries(params)) {
    if (isStorableText(value)) continue;
    if ((method === 'POST' || method === 'PUT') && NAMES_TO_CREATE.has(name)) return { status: 422, message: `[${name}]: Invalid` };
    return { status: 404, message: NOT_FOUND, errors: [] };
  }
  for (const [name, value] of query) {
    if (!isStorableText(name) || !isStorableText(value)) return { status: 422, message: `[${isStorableText(name) ? name : ''}]: Invalid` };
  }
  return null;
}
