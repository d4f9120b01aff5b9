// E-mail addresses of users (Forgejo's modules/validation/email.go and services/user/email.go).
import type { EntityManager } from '@mikro-orm/core';
import { EmailAddress, type IEmailAddress, type IUser } from '../../model/user.ts';

// Forgejo's emailRegexp: a permissive local part and a host made of DNS labels.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+\-/=?^_`{|}~]*@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export function isValidEmail(email: string): boolean {
  return email.length > 0 && email.length <= 254 && email[0] !== '-' && !email.startsWith('@') && EMAIL.test(email);
}

/** Forgejo's api.Email; `user_id` and `username` are filled for every route here. */
export const emailJson = (e: IEmailAddress, user: Pick<IUser, 'id' | 'name'>) => ({
  email: e.email,
  verified: e.isActivated,
  primary: e.isPrimary,
  user_id: user.id,
  username: user.name,
});

export async function emailsOf(em: EntityManager, uid: number): Promise<IEmailAddress[]> {
  return em.find(EmailAddress, { uid }, { orderBy: { id: 'asc' } });
}
