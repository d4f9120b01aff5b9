// Forgejo's GET /actions/run: only an automatic actions task token knows its run; any other caller
// (anonymous, a user, a personal token) gets 403.
import { deny, step } from './types.ts';

export const TASK_TOKEN = step('TASK_TOKEN', 'guard', [], [], (s) =>
  s.auth.task?.id ? null : deny(403, 'must use an automatic actions token'),
);
