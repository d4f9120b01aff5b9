// Redirect locations for renamed owners and repositories (forgejo-facts 5): AppSubURL + the request
// path with the first occurrence of the old name replaced, plus the original query.
import type { RequestState } from './types.ts';

export function redirectPath(s: RequestState, oldName: string, newName: string): string {
  const full = `/api/v1${s.path}`;
  const i = full.toLowerCase().indexOf(`/${encodeURIComponent(oldName).toLowerCase()}`);
  const replaced = i < 0 ? full : `${full.slice(0, i + 1)}${encodeURIComponent(newName)}${full.slice(i + 1 + encodeURIComponent(oldName).length)}`;
  const q = s.query.toString();
  return `${s.config.appSubUrl}${replaced}${q ? `?${q}` : ''}`;
}
