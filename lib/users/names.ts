// Name rules for users, organizations and repositories (forgejo-facts 8.1; Forgejo's reserved names).
import { unprocessable } from '../http/errors.ts';

const RESERVED_USER = new Set([
  '.',
  '..',
  '-',
  'admin',
  'api',
  'assets',
  'attachments',
  'avatar',
  'avatars',
  'captcha',
  'commits',
  'debug',
  'devtest',
  'error',
  'explore',
  'favicon.ico',
  'ghost',
  'issues',
  'login',
  'manifest.json',
  'metrics',
  'milestones',
  'new',
  'notifications',
  'org',
  'pulls',
  'raw',
  'repo',
  'repo-avatars',
  'robots.txt',
  'search',
  'serviceworker.js',
  'ssh_info',
  'swagger.v1.json',
  'user',
  'v2',
  'gitea-actions',
  'forgejo-actions',
]);
const RESERVED_USER_PATTERNS = [/\.keys$/, /\.gpg$/, /\.rss$/, /\.atom$/, /\.png$/];
const RESERVED_REPO = new Set(['.', '..', '-']);
const RESERVED_REPO_PATTERNS = [/\.git$/, /\.wiki$/, /\.rss$/, /\.atom$/];

/** Forgejo's username rule: word characters, dots and dashes, no leading/trailing or doubled specials. */
export function isValidUsername(name: string): boolean {
  return /^[\w.-]+$/.test(name) && !/^[.-]|[.-]$/.test(name) && !/[._-]{2}/.test(name);
}

export function checkUserName(name: string): void {
  const lower = name.toLowerCase();
  if (RESERVED_USER.has(lower)) throw unprocessable(`name is reserved [name: ${name}]`);
  const pattern = RESERVED_USER_PATTERNS.find((p) => p.test(lower));
  if (pattern) throw unprocessable(`name pattern is not allowed [pattern: *${pattern.source.slice(1, -1).replace('\\', '')}]`);
  if (!isValidUsername(name)) throw unprocessable(`[Username]: invalid username`);
}

export function checkRepoName(name: string): void {
  const lower = name.toLowerCase();
  if (RESERVED_REPO.has(lower)) throw unprocessable(`name is reserved [name: ${name}]`);
  const pattern = RESERVED_REPO_PATTERNS.find((p) => p.test(lower));
  if (pattern) throw unprocessable(`name pattern is not allowed [pattern: *${pattern.source.slice(1, -1).replace('\\', '')}]`);
  if (!/^[-.\w]+$/.test(name) || name.length > 100) throw unprocessable('[Name]: AlphaDashDot');
}
