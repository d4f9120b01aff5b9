// Forgejo's GetPublicKey / DeletePublicKey: the user SSH key numbered `{id}`, whoever owns it; an unknown
// number (or a deploy key's) answers 404.
import { KeyType, PublicKey } from '../model/keys.ts';
import { NOT_FOUND } from '../lib/http/errors.ts';
import { rowId } from '../lib/http/query-values.ts';
import { deny, step } from './types.ts';

export const KEY = step('KEY', 'loader', [], ['key'], async (s) => {
  const key = await s.em.findOne(PublicKey, { id: rowId(s.params.id) ?? 0, type: KeyType.user });
  if (!key) return deny(404, NOT_FOUND, { errors: [] });
  s.key = key;
  return null;
});
