// Spec, token kinds: "Repo-specific tokens ... cannot convert a mirror to a normal repository, create a
// repository from a template, transfer a repository, create a repository, delete a repository, or
// edit repository settings." These routes carry NO_REPO_TOKEN.
import { MSG } from '../lib/http/errors.ts';
import { deny, step } from './types.ts';

export const NO_REPO_TOKEN = step('NO_REPO_TOKEN', 'limit', [], [], (s) =>
  s.auth.token?.repoIds ? deny(403, MSG.repoSpecificToken) : null,
);
