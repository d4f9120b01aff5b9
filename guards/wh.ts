// Spec, guard table: "WH — webhooks not disabled by administrator; else 403" (a runtime switch, not a flag).
import { MSG } from '../lib/http/errors.ts';
import { deny, step } from './types.ts';

export const WH = step('WH', 'gate', [], [], (s) => (s.config.SECURITY.DISABLE_WEBHOOKS ? deny(403, MSG.webhooksDisabled) : null));
