// Reading a repository path as ContentsResponse entries (Forgejo services/repository/files/content.go):
// a file with its base64 content, or a directory listing without content.
import type { Config } from '../../config.ts';
import { readObject } from '../../git/cat-file.ts';
import { commitOf } from '../../git/commits.ts';
import { blobContent, blobSize, entryAt, lastCommitFor, readTree, type Entry } from '../../git/lookup.ts';
import type { ResolvedRef } from '../../git/repo.ts';
import { toContents, type RepoUrls } from './api/git.ts';

export interface RefView {
  /** As the client named it (or the default branch): it goes into `url` as is. */
  name: string;
  resolved: ResolvedRef;
}

/** The URL `<url of .gitmodules entry>` for a submodule path, read from the commit's .gitmodules. */
async function submoduleUrl(repoPath: string, commit: string, p: string): Promise<string | null> {
  const obj = await readObject(repoPath, `${commit}:.gitmodules`);
  if (!obj || obj.type !== 'blob') return null;
  let section: { path?: string; url?: string } = {};
  const sections: { path?: string; url?: string }[] = [];
  for (const raw of obj.content.toString('utf8').split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      section = {};
      sections.push(section);
      continue;
    }
    const m = /^(path|url)\s*=\s*(.*)$/.exec(line);
    if (m) section[m[1] as 'path' | 'url'] = m[2].trim();
  }
  return sections.find((s) => s.path === p)?.url ?? null;
}

const kindOf = (e: Entry): 'file' | 'dir' | 'symlink' | 'submodule' =>
  e.type === 'tree' ? 'dir' : e.type === 'commit' ? 'submodule' : e.mode === '120000' ? 'symlink' : 'file';

/** One ContentsResponse; `withContent` for a single file (lists carry no content). */
export async function contentsOf(cfg: Config, repoPath: string, urls: RepoUrls, ref: RefView, e: Entry, withContent: boolean) {
  const commit = ref.resolved.commit!;
  const type = kindOf(e);
  const lastSha = (await lastCommitFor(repoPath, commit, e.path)) ?? commit;
  // Both ids come from the ref this request resolved (the commit, and rev-list below it).
  const last = await commitOf(repoPath, lastSha);
  const size = e.type === 'blob' ? ((await blobSize(repoPath, e.oid)) ?? 0) : 0;
  let content: string | null = null;
  let target: string | null = null;
  if (type === 'file' && withContent) {
    content = size > cfg.API.DEFAULT_MAX_BLOB_SIZE ? '' : ((await blobContent(repoPath, e.oid))?.toString('base64') ?? '');
  }
  if (type === 'symlink') target = (await blobContent(repoPath, e.oid))?.toString('utf8') ?? '';
  const refType = ref.resolved.kind;
  return toContents(urls, {
    name: e.name,
    path: e.path,
    sha: e.oid,
    type,
    size,
    ref: ref.name,
    refType,
    refInUrl: refType === 'commit' ? commit : ref.name,
    lastCommitSha: lastSha,
    lastCommitWhen: last?.committer.date ?? '',
    content,
    target,
    submoduleUrl: type === 'submodule' ? await submoduleUrl(repoPath, commit, e.path) : null,
  });
}

/** The entry at `p` as one ContentsResponse, or its directory listing; null when nothing is there. */
export async function contentsOrList(cfg: Config, repoPath: string, urls: RepoUrls, ref: RefView, p: string) {
  const commit = ref.resolved.commit;
  if (!commit) return null;
  const entry = await entryAt(repoPath, commit, p);
  if (!entry) return null;
  if (entry.type !== 'tree') return contentsOf(cfg, repoPath, urls, ref, entry, true);
  const children = (await readTree(repoPath, entry.oid)) ?? [];
  // Each entry may need a `rev-list` for its last commit: a few at a time, not one process per entry at once.
  const out: Awaited<ReturnType<typeof contentsOf>>[] = [];
  for (let i = 0; i < children.length; i += 16) {
    out.push(
      ...(await Promise.all(
        children
          .slice(i, i + 16)
          .map((child) => contentsOf(cfg, repoPath, urls, ref, { ...child, path: p === '' ? child.name : `${p}/${child.name}` }, false)),
      )),
    );
  }
  return out;
}
