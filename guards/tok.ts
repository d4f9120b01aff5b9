// Spec, guard table: "TOK — caller is signed in (any method, or actions task token); else 401".
import { MSG } from '../lib/http/errors.ts';
import { deny, step } from './types.ts';

export const TOK = step('TOK', 'guard', [], ['doer'], (s) => (s.auth.doer ? null : deny(401, MSG.tokenRequired)));
