// Redirect locations for renamed owners and repositories (forgejo-facts 5): AppSubURL + the request
// path with the first occurrence of the old name replaced, plus the original query.
import type { RequestState } from './request.ts';

const enc = (name: string) => name.split('/').map(encodeURIComponent).join('/');

/** Names may be `owner/repo` pairs; each segment is escaped on its own. */
export function redirectPath(s: RequestState, oldName: string, newName: string): string {
  const full = `/api/v1${s.path}`;
  const old = enc(oldName);
  const i = full.toLowerCase().indexOf(`/${old.toLowerCase()}`);
  const replaced = i < 0 ? full : `${full.slice(0, i + 1)}${enc(newName)}${full.slice(i + 1 + old.length)}`;
  const q = s.query.toString();
  return `${s.config.appSubUrl}${replaced}${q ? `?${q}` : ''}`;
}
