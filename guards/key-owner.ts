// Forgejo's DeletePublicKey(actor, id): the key must be the actor's, or the actor a site admin, else
// 403 "You do not have access to this key". The actor is the caller on /user/keys/{id} (KEY_OWNER(doer))
// and the named user on the admin route (KEY_OWNER(user)), as in Forgejo.
import { userIsSiteAdmin } from '../lib/auth/auth-types.ts';
import { isSiteAdmin, deny, need, step, type Need } from './types.ts';

const ACTORS = ['doer', 'user'] as const;

export function KEY_OWNER(actor: (typeof ACTORS)[number]) {
  if (!ACTORS.includes(actor)) throw new Error(`KEY_OWNER: unknown actor "${actor}"`);
  const needs: Need[] = actor === 'user' ? ['user', 'key'] : ['key'];
  return step(`KEY_OWNER(${actor})`, 'guard', needs, [], (s) => {
    const key = need(s.key, 'key');
    const who = actor === 'user' ? need(s.contextUser, 'user') : s.auth.doer;
    const admin = actor === 'user' ? userIsSiteAdmin(need(s.contextUser, 'user')) : isSiteAdmin(s);
    return (who && key.ownerId === who.id) || admin ? null : deny(403, 'You do not have access to this key');
  });
}
