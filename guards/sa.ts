// Spec, guard table: "SA — caller is a site admin; else 403".
import { MSG } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, step } from './types.ts';

export const SA = step('SA', 'guard', [], [], (s) => (isSiteAdmin(s) ? null : deny(403, MSG.siteAdmin)));
