// Routes that only make sense for some kinds of repository, with the status Forgejo answers otherwise:
// sync_fork "The Repo must be a fork" (400); convert "Repository is not a mirror" (422), mirror-sync
// the same text with 400; generate "this is not a template repo" (422).
import { deny, need, step } from './types.ts';

export const IS_FORK = step('IS_FORK', 'gate', ['repo'], [], (s) =>
  need(s.repo, 'repo').repo.isFork ? null : deny(400, 'The Repo must be a fork'),
);

export function IS_MIRROR(status: 400 | 422) {
  if (status !== 400 && status !== 422) throw new Error(`IS_MIRROR: status must be 400 or 422, not ${String(status)}`);
  return step(`IS_MIRROR(${status})`, 'gate', ['repo'], [], (s) =>
    need(s.repo, 'repo').repo.isMirror ? null : deny(status, 'Repository is not a mirror'),
  );
}

export const IS_TEMPLATE = step('IS_TEMPLATE', 'gate', ['repo'], [], (s) =>
  need(s.repo, 'repo').repo.isTemplate ? null : deny(422, 'this is not a template repo'),
);
