// Forgejo's CreateReaction: only the reactions the instance allows (`[ui] REACTIONS`) may be added;
// any other content is 403 "'<content>' is not an allowed reaction".
import { listSetting } from '../config.ts';
import { deny, step } from './types.ts';

export const ALLOWED_REACTION = step('ALLOWED_REACTION', 'guard', ['body'], [], (s) => {
  const content = (s.body as { content?: unknown } | undefined)?.content;
  const text = typeof content === 'string' ? content : '';
  return listSetting(s.config.UI.REACTIONS).includes(text) ? null : deny(403, `'${text}' is not an allowed reaction`);
});
