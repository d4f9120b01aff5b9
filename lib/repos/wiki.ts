// Repository wikis as Forgejo keeps them (services/wiki/wiki_path.go, services/wiki/wiki.go): a bare
// repository `<owner>/<repo>.wiki.git` next to the code, one Markdown file per page at the root of
// the wiki branch. A page has three spellings:
//   title     what people read and send:     "Home Page"      "2000-01-02 meeting"   "100% sure"
//   web path  sub_url and the {pageName}:    "Home-Page"      "2000-01-02+meeting.-" "100%25-sure"
//   git path  the file in the wiki branch:   "Home-Page.md"   "2000-01-02 meeting.-.md"
// Spaces become dashes, unless the title has a dash of its own (or ends in .md): then it keeps its
// spaces and gets the ".-" marker. Everything else is escaped like Go's url.QueryEscape, so a
// unicode title is stored as a percent-escaped file name, exactly as Forgejo stores it.
//
// Writes are plumbing commits on the bare repository with a compare-and-swap of the branch
// (git/write.ts commitFiles), retried on a lost race, so concurrent edits never corrupt the wiki.
import fs from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { readInfo, readObject } from '../../git/cat-file.ts';
import { RefConflictError } from '../../git/errors.ts';
import { entryAt, readRef, readTree } from '../../git/lookup.ts';
import { deleteRepo, initBare, type ObjectFormat } from '../../git/repo.ts';
import { commitFiles, type FileOp, type Identity } from '../../git/write.ts';

// --- names ----------------------------------------------------------------------------------------

const DASH_MARKER = '.-';
/** Forgejo's reservedWikiNames: the web UI's own sub-paths of /wiki. */
const RESERVED = ['_pages', '_new', '_edit', 'raw'];

/** Go's url.QueryEscape: all but [A-Za-z0-9-_.~] escaped per UTF-8 byte, space as `+`. */
export function queryEscape(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    if (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) && byte < 0x80) out += String.fromCharCode(byte);
    else if (byte === 0x20) out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Go's url.QueryUnescape (`plusIsSpace`) or url.PathUnescape; null where Go reports a bad escape. */
export function unescape(s: string, plusIsSpace: boolean): string | null {
  const src = Buffer.from(s, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < src.length; i++) {
    if (src[i] === 0x25) {
      const hex = src.subarray(i + 1, i + 3).toString('latin1');
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return null;
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(plusIsSpace && src[i] === 0x2b ? 0x20 : src[i]);
  }
  return Buffer.from(out).toString('utf8');
}

/** Forgejo's util.PathJoinRelX for one element: backslashes are slashes, `.`/`..` resolved, no leading `/`. */
function pathJoinRelX(s: string): string {
  if (s === '') return '';
  const out: string[] = [];
  for (const seg of s.replace(/\\/g, '/').split('/')) {
    if (seg === '..') out.pop();
    else if (seg !== '' && seg !== '.') out.push(seg);
  }
  return out.length > 0 ? out.join('/') : '.';
}

/** A web path segment as text; `ok` is false when the escapes are malformed (the text is then used as is). */
function unescapeSegment(seg: string): { text: string; ok: boolean } {
  const plain = seg.endsWith(DASH_MARKER) ? seg.slice(0, -DASH_MARKER.length) : seg.replaceAll('-', ' ');
  const text = unescape(plain, true);
  return text === null ? { text: plain, ok: false } : { text, ok: true };
}

function escapeSegToWeb(text: string, hadDashMarker: boolean): string {
  const marked = hadDashMarker || text.includes('-') || text.endsWith('.md');
  return queryEscape(marked ? `${text}${DASH_MARKER}` : text.replaceAll(' ', '-'));
}

/** Forgejo's WebPathFromRequest: the {pageName} segment as the client sent it, still escaped. */
export const webPathFromRequest = (raw: string) => pathJoinRelX(raw);

/** UserTitleToWebPath: a blank title (or `.`/`..`) names the page "unnamed". */
export function titleToWebPath(title: string): string {
  const p = pathJoinRelX(escapeSegToWeb(title.trim(), false));
  return p === '' || p === '.' ? 'unnamed' : p;
}

/** WebPathToGitPath: a web path that ends in `.md` names the file itself (unescaped). */
export function webPathToGitPath(web: string): string {
  if (web.endsWith('.md')) return pathJoinRelX(unescape(web, false) ?? '');
  const segs = web.split('/').map((seg) =>
    // A space is safe in a git path, so it is kept rather than escaped.
    escapeSegToWeb(unescapeSegment(seg).text, seg.endsWith(DASH_MARKER)).replaceAll('%20', ' ').replaceAll('+', ' '),
  );
  return `${segs.join('/')}.md`;
}

/** GitPathToWebPath; null for a file that is not a page (not `.md`, or malformed escapes). */
export function gitPathToWebPath(file: string): string | null {
  if (!file.endsWith('.md')) return null;
  const segs: string[] = [];
  for (const seg of file.slice(0, -3).split('/')) {
    const { text, ok } = unescapeSegment(seg);
    if (!ok) return null;
    segs.push(escapeSegToWeb(text, seg.endsWith(DASH_MARKER)));
  }
  return segs.join('/');
}

/** WebPathToUserTitle: the title of the page's last path segment. */
export function webPathToTitle(web: string): string {
  const trimmed = web.replace(/\/+$/, '');
  let display = web === '' ? '.' : trimmed === '' ? '/' : trimmed.slice(trimmed.lastIndexOf('/') + 1);
  // Go ignores the error and goes on with an empty string.
  if (display.endsWith('.md')) display = unescape(display.slice(0, -3), false) ?? '';
  return unescapeSegment(display).text;
}

export class WikiNameError extends Error {
  readonly reserved: boolean;
  constructor(reserved: boolean, message: string) {
    super(message);
    this.reserved = reserved;
    this.name = 'WikiNameError';
  }
}

/** Forgejo's SanitizeWikiPath and validateWebPath for the name a page is written under. */
export function checkPageName(web: string): void {
  const parts = web
    .replace(/^\//, '')
    .split('/')
    .map((p) => p.replace(/^ +| +$/g, ''))
    .filter((p) => p !== '');
  if (parts.length === 0) throw new WikiNameError(false, 'Invalid wiki filename: empty segment');
  for (const p of parts) {
    if (p === '.' || p === '..') throw new WikiNameError(false, 'Invalid wiki filename: path navigation');
    if (p.includes('?')) throw new WikiNameError(false, 'Invalid wiki filename: query injection');
    const title = unescapeSegment(p).text;
    if (RESERVED.includes(title)) throw new WikiNameError(true, `wiki title is reserved: ${title}`);
  }
}

// --- the wiki repository --------------------------------------------------------------------------

export interface Wiki {
  path: string;
  branch: string;
}

export interface PageFile {
  gitPath: string;
  oid: string;
}

const exists = (p: string) =>
  fs.access(p).then(
    () => true,
    () => false,
  );

/** The commit at the tip of the wiki branch; null when the wiki was never written (no repository or no branch). */
export async function wikiTip(w: Wiki): Promise<string | null> {
  if (!(await exists(w.path))) return null;
  const ref = await readRef(w.path, 'heads', w.branch);
  return ref?.type === 'commit' ? ref.oid : null;
}

/**
 * The file of a page: its git path, else the web path taken as the file name and the unescaped git
 * path, under which older Forgejo versions stored pages (prepareGitPath, findEntryForFile).
 */
export async function findPage(w: Wiki, tip: string, web: string): Promise<PageFile | null> {
  const gitPath = webPathToGitPath(web);
  const candidates = new Set([gitPath, `${web}.md`, unescape(gitPath, true) ?? gitPath]);
  for (const p of candidates) {
    if (p === '' || p === '.') continue;
    const e = await entryAt(w.path, tip, p);
    if (e?.type === 'blob') return { gitPath: p, oid: e.oid };
  }
  return null;
}

/** The pages of the wiki in tree order: regular `.md` files at the root of the branch. */
export async function listPageFiles(w: Wiki, tip: string): Promise<{ gitPath: string; web: string }[]> {
  const root = await readInfo(w.path, `${tip}^{tree}`);
  const entries = root ? ((await readTree(w.path, root.oid)) ?? []) : [];
  return entries.flatMap((e) => {
    const web = e.mode === '100644' ? gitPathToWebPath(e.name) : null;
    return web === null ? [] : [{ gitPath: e.name, web }];
  });
}

/** Blob content as base64, empty above `maxSize` bytes (Forgejo's DEFAULT_MAX_BLOB_SIZE cut-off). */
export async function blobBase64(w: Wiki, oid: string, maxSize: number): Promise<string> {
  const info = await readInfo(w.path, oid);
  if (!info || info.size > maxSize) return '';
  return (await readObject(w.path, oid))?.content.toString('base64') ?? '';
}

/**
 * Creates the wiki repository on first use (Forgejo's InitWiki) with the code repository's object
 * format and HEAD on the wiki branch. It is built under a temporary name and renamed into place, so
 * a concurrent request never sees a half-initialised repository.
 */
export async function ensureWikiRepo(w: Wiki, objectFormat: ObjectFormat): Promise<void> {
  if (await exists(w.path)) return;
  const tmp = `${w.path}.init-${randomBytes(4).toString('hex')}`;
  await initBare(tmp, { defaultBranch: w.branch, objectFormat });
  try {
    await fs.rename(tmp, w.path);
  } catch (e) {
    await deleteRepo(tmp);
    // Another request created it first.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST' || (e as NodeJS.ErrnoException).code === 'ENOTEMPTY') return;
    throw e;
  }
}

export interface WikiChange {
  ops: FileOp[];
  message: string;
}

const ATTEMPTS = 8;
const writing = new Map<string, Promise<unknown>>();

/**
 * Runs the writes of one wiki one after the other in this process, as Forgejo's wikiWorkingPool
 * does, so that they do not all race for the branch. Only a shortcut: the compare-and-swap is what
 * keeps writers of several processes apart.
 */
async function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const run = (writing.get(key) ?? Promise.resolve()).then(fn, fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  writing.set(key, settled);
  try {
    return await run;
  } finally {
    if (writing.get(key) === settled) writing.delete(key);
  }
}

/**
 * Commits the change `plan` makes from the current tip (null: nothing to commit). `plan` runs again
 * on a fresh tip when another writer moved the branch in between, so its checks (page exists, name
 * free) always hold for the commit that lands.
 */
export function changeWiki(w: Wiki, who: Identity, plan: (tip: string | null) => Promise<WikiChange | null>): Promise<void> {
  return oneAtATime(w.path, async () => {
    for (let attempt = 1; ; attempt++) {
      const tip = await wikiTip(w);
      const change = await plan(tip);
      if (!change) return;
      try {
        await commitFiles(w.path, {
          branch: w.branch,
          parent: tip,
          expectedOld: tip,
          ops: change.ops,
          message: change.message,
          author: who,
        });
        return;
      } catch (e) {
        if (!(e instanceof RefConflictError) || attempt >= ATTEMPTS) throw e;
        // Another process won the race: back off a little, at random, before trying again.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      }
    }
  });
}
