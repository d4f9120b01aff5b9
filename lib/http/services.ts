// Long-lived, per-process services a request may use. None of them holds state that decides
// correctness: two processes on one database behave as one.
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { SecretBox } from '../auth/secretbox.ts';

export interface Services {
  log: Logger;
  secrets: SecretBox;
  /** `<ROOT>/<lowercase owner>/<lowercase repo>.git` (forgejo-facts 10.1). */
  repoPath(owner: string, name: string): string;
}

export function repoPathFor(cfg: Config) {
  return (owner: string, name: string) => path.join(cfg.repoRoot, owner.toLowerCase(), `${name.toLowerCase()}.git`);
}
