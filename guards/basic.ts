// Spec, guard table: "BASIC — caller authenticated by password (or accepted reverse-proxy identity); else 401".
import { MSG } from '../lib/http/errors.ts';
import { deny, step } from './types.ts';

export const BASIC = step('BASIC', 'guard', [], [], (s) =>
  s.auth.method === 'basic' || s.auth.method === 'reverse-proxy' ? null : deny(401, MSG.authMethodNotAllowed),
);
