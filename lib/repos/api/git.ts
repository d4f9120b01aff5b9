// Wire shapes of git data (forgejo-facts 6.9-6.11; Forgejo services/convert and
// services/repository/files): commits, payload commits, branches, tags, contents and file responses.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../../config.ts';
import type { Commit, Signature } from '../../../git/commits.ts';
import type { ChangedFile, DiffStats } from '../../../git/commits.ts';
import { EmailAddress, User, type IUser } from '../../../model/user.ts';
import { plainPrefixed, prefixedColumns, textArray, type Plain } from '../../../model/raw.ts';
import { readPrepared } from '../../../model/sql.ts';
import type { IRepository } from '../../../model/repo.ts';
import { toApiUser, type ApiUser } from '../../users/index.ts';
import { ZERO_TIME } from '../../../model/time.ts';
import { Lru } from '../../../git/lru.ts';
import { jsonText, RenderedBytes } from '../../http/json.ts';
import type { TagInfo } from '../../../git/tags.ts';
import type {
  Commit as CommitJson,
  CommitUser,
  ContentsResponse,
  FileCommitResponse,
  PayloadCommit,
  PayloadCommitVerification,
  Tag,
  Wire,
} from '../../../model/schemas/index.ts';

export type ApiPayloadCommit = Wire<PayloadCommit>;
export type ApiVerification = Wire<PayloadCommitVerification>;
export type ApiCommit = Wire<CommitJson>;
export type ApiFileCommit = Wire<FileCommitResponse>;
export type ApiContents = Wire<ContentsResponse>;
export type ApiCommitUser = Wire<CommitUser>;
export type ApiTag = Wire<Tag>;

export interface RepoUrls {
  api: string;
  html: string;
}

const seg = (s: string) => s.split('/').map(encodeURIComponent).join('/');

export function repoUrls(cfg: Config, owner: Pick<IUser, 'name'>, repo: Pick<IRepository, 'name'>): RepoUrls {
  return { api: `${cfg.appUrl}api/v1/repos/${owner.name}/${repo.name}`, html: `${cfg.appUrl}${owner.name}/${repo.name}` };
}

/** A user's columns (prefixed `u__`) with the address it was found by. */
interface MatchedUserRow {
  matched: string;
  [column: string]: unknown;
}

/** Each user with the address it was found by: an activated address, else `<lower name><noreply>`. */
let commitUsersText: string | null = null;
const commitUsersSql = (em: EntityManager) =>
  (commitUsersText ??= `select m.matched, ${prefixedColumns(em, User, 'u')} from (
    select e.uid, e.lower_email as matched, 0 as by_name from email_address e where e.is_activated and e.lower_email = any(?::text[])
    union all select u.id, u.lower_name || ?, 1 from "user" u where u.lower_name = any(?::text[])
  ) m join "user" u on u.id = m.uid where u.type = 0 order by m.by_name`);

const NULL_BYTES = Buffer.from('null');

/** Users of commit emails (primary or activated addresses, and noreply addresses), one statement per batch. */
export class CommitUsers {
  private readonly cache = new Map<string, Plain<IUser> | null>();
  private readonly json = new Map<number, ApiUser>();
  private readonly bytes = new Map<number, Buffer>();
  private readonly em: EntityManager;
  private readonly cfg: Config;
  constructor(em: EntityManager, cfg: Config) {
    this.em = em;
    this.cfg = cfg;
  }

  async load(emails: string[]): Promise<void> {
    const wanted = [...new Set(emails.map((e) => e.toLowerCase()))].filter((e) => e !== '' && !this.cache.has(e));
    if (wanted.length === 0) return;
    for (const e of wanted) this.cache.set(e, null);
    const noreply = `@${this.cfg.SERVICE.NO_REPLY_ADDRESS.toLowerCase()}`;
    const names = wanted.filter((e) => e.endsWith(noreply)).map((e) => e.slice(0, -noreply.length));
    // One fixed statement text for any batch: a named prepared statement on PostgreSQL
    // (model/sql.ts readPrepared), and plain users, not managed entities (a commit list only renders them).
    const rows = await readPrepared<MatchedUserRow>(this.em, [User, EmailAddress], commitUsersSql(this.em), [
      textArray(wanted),
      noreply,
      textArray(names),
    ]);
    // A noreply match comes last and wins over an address of the same text.
    for (const r of rows) this.cache.set(r.matched, plainPrefixed(this.em, User, r, 'u'));
  }

  get(email: string): Plain<IUser> | null {
    return this.cache.get(email.toLowerCase()) ?? null;
  }

  /** apiUser's JSON bytes (`null` for none), rendered once per user for the batch. */
  apiUserBytes(email: string): Buffer {
    const u = this.get(email);
    if (!u) return NULL_BYTES;
    let bytes = this.bytes.get(u.id);
    if (bytes === undefined) this.bytes.set(u.id, (bytes = Buffer.from(jsonText(this.apiUser(email)))));
    return bytes;
  }

  /** The user of an address as an anonymous viewer sees them, built once per user for the batch. */
  apiUser(email: string): ApiUser | null {
    const u = this.get(email);
    if (!u) return null;
    let json = this.json.get(u.id);
    if (!json) this.json.set(u.id, (json = toApiUser(this.cfg, u, { doer: null, siteAdmin: false })));
    return json;
  }
}

/** An unsigned commit, or a signed one this server has no key to check (no GPG keys are stored). */
export function toVerification(c: Pick<Commit, 'signature' | 'signedPayload'>): ApiVerification {
  if (c.signature === undefined)
    return { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };
  return { verified: false, reason: 'gpg.error.no_gpg_keys_found', signature: c.signature, signer: null, payload: c.signedPayload ?? '' };
}

export function toPayloadCommit(urls: RepoUrls, c: Commit, users: CommitUsers): ApiPayloadCommit {
  return {
    id: c.sha,
    message: c.message,
    url: `${urls.html}/commit/${c.sha}`,
    author: { name: c.author.name, email: c.author.email, username: users.get(c.author.email)?.name ?? '' },
    committer: { name: c.committer.name, email: c.committer.email, username: users.get(c.committer.email)?.name ?? '' },
    verification: toVerification(c),
    timestamp: c.author.date,
    added: null,
    removed: null,
    modified: null,
  };
}

export interface CommitExtras {
  files?: ChangedFile[] | null;
  stats?: DiffStats | null;
  verification?: boolean;
}

/** api.Commit (forgejo-facts 6.10), including the `tree.sha` = commit sha quirk. */
export function toApiCommit(cfg: Config, urls: RepoUrls, c: Commit, users: CommitUsers, extras: CommitExtras = {}): ApiCommit {
  const url = `${urls.api}/git/commits/${c.sha}`;
  return {
    url,
    sha: c.sha,
    created: c.committer.date,
    html_url: `${urls.html}/commit/${c.sha}`,
    commit: {
      url,
      author: { name: c.author.name, email: c.author.email, date: c.author.date },
      committer: { name: c.committer.name, email: c.committer.email, date: c.committer.date },
      message: c.message,
      tree: { url: `${urls.api}/git/trees/${c.sha}`, sha: c.sha, created: c.committer.date },
      verification: extras.verification === false ? null : toVerification(c),
    },
    author: users.apiUser(c.author.email),
    committer: users.apiUser(c.committer.email),
    parents: c.parents.map((p) => ({ url: `${urls.api}/git/commits/${p}`, sha: p, created: ZERO_TIME })),
    files: extras.files ? extras.files.map((f) => ({ filename: f.filename, status: f.status })) : null,
    stats: extras.stats ?? null,
  };
}

// A commit list's JSON is the same for every request but for its authors' and committers' users (who
// may change their name or addresses at any time, so they are read afresh): it is kept as the bytes
// between those users, keyed by the repository's URLs, the options and the commit ids (a
// page of 30 commits was 30 parsed commits, their changes and their parts looked up, joined and
// encoded on every request). Bounded by bytes.
// Weighed twice: the parts, and the last answer rendered from them.
const commitLists = new Lru<string, CommitList>(8 * 1024 * 1024, (l) => 2 * l.size + 128);

/** toApiCommit's JSON for a list of commits, as renderJson renders the array, split around the users. */
export class CommitList {
  /** parts[i] comes before the user of emails[i]; the last part closes the list. */
  private readonly parts: Buffer[];
  /** The author's and the committer's address of each commit, in order. */
  readonly emails: string[];
  readonly size: number;
  /** The last answer and the users' bytes it was rendered with. */
  private last: { users: Buffer[]; answer: RenderedBytes } | null = null;
  constructor(parts: Buffer[], emails: string[]) {
    this.parts = parts;
    this.emails = emails;
    this.size = parts.reduce((n, b) => n + b.length, 0);
  }

  /**
   * The list's JSON with these users, newline included. Users the same to the byte as last time give
   * the last answer, whose ETag is known (joining and hashing 70 KB cost more than the rest
   * of the route).
   */
  render(users: CommitUsers): RenderedBytes {
    const bytes = this.emails.map((e) => users.apiUserBytes(e));
    if (this.last && sameBytes(this.last.users, bytes)) return this.last.answer;
    const out: Buffer[] = [];
    let size = this.size;
    for (let i = 0; i < bytes.length; i++) {
      out.push(this.parts[i]!, bytes[i]!);
      size += bytes[i]!.length;
    }
    out.push(this.parts[bytes.length]!);
    const answer = new RenderedBytes(Buffer.concat(out, size));
    this.last = { users: bytes, answer };
    return answer;
  }
}

/** Whether two lists of buffers hold the same bytes; a buffer that repeats the previous one is not compared again. */
function sameBytes(a: Buffer[], b: Buffer[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const repeat = i > 0 && a[i] === a[i - 1] && b[i] === b[i - 1];
    if (!repeat && !a[i]!.equals(b[i]!)) return false;
  }
  return true;
}

const commitListKey = (urls: RepoUrls, shas: readonly string[], flags: string) => `${urls.api}\0${urls.html}\0${flags}\0${shas.join(',')}`;

/** The kept list of these commits with these options (see commitListOf), if any. */
export const keptCommitList = (urls: RepoUrls, shas: readonly string[], flags: string) => commitLists.get(commitListKey(urls, shas, flags));

/**
 * The list of the commits with their extras; `keep`: they are all the ids' commits with their final
 * extras (their files and stats were found), so the list may be kept for the next request. `flags`
 * names the options the extras follow.
 */
export function commitListOf(
  cfg: Config,
  urls: RepoUrls,
  commits: Commit[],
  users: CommitUsers,
  extras: CommitExtras[],
  flags: string,
  keep: boolean,
): CommitList {
  const texts: string[] = [];
  const emails: string[] = [];
  let before = '[';
  for (let i = 0; i < commits.length; i++) {
    const c = commits[i]!;
    // toApiCommit's keys in its order, split around the users.
    const { url, sha, created, html_url, commit, parents, files, stats } = toApiCommit(cfg, urls, c, users, extras[i]);
    texts.push(`${before}${jsonText({ url, sha, created, html_url, commit }).slice(0, -1)},"author":`, ',"committer":');
    emails.push(c.author.email, c.committer.email);
    before = `,${jsonText({ parents, files, stats }).slice(1)},`;
  }
  texts.push(`${commits.length === 0 ? '[' : before.slice(0, -1)}]\n`);
  const list = new CommitList(
    texts.map((t) => Buffer.from(t)),
    emails,
  );
  if (keep)
    commitLists.set(
      commitListKey(
        urls,
        commits.map((c) => c.sha),
        flags,
      ),
      list,
    );
  return list;
}

export const utcDate = (s: Signature) => new Date(s.timestamp * 1000).toISOString().replace('.000Z', 'Z');

/** The commit part of a file-change answer (Forgejo GetFileCommitResponse): UTC dates, the real tree. */
export function toFileCommit(urls: RepoUrls, c: Commit): ApiFileCommit {
  return {
    url: `${urls.api}/git/commits/${c.sha}`,
    sha: c.sha,
    created: ZERO_TIME,
    html_url: `${urls.html}/commit/${c.sha}`,
    author: { name: c.author.name, email: c.author.email, date: utcDate(c.author) },
    committer: { name: c.committer.name, email: c.committer.email, date: utcDate(c.committer) },
    parents: c.parents.map((p) => ({ url: `${urls.api}/git/commits/${p}`, sha: p, created: ZERO_TIME })),
    message: c.message,
    tree: { url: `${urls.api}/git/trees/${c.tree}`, sha: c.tree, created: ZERO_TIME },
  };
}

export interface ContentsInput {
  name: string;
  path: string;
  sha: string;
  type: 'file' | 'dir' | 'symlink' | 'submodule';
  size: number;
  /** The ref as the client gave it (or the default branch). */
  ref: string;
  /** branch | tag | commit: the URL segment of html_url / download_url. */
  refType: string;
  /** The ref as it appears in html_url / download_url (a full commit id for commit ids). */
  refInUrl: string;
  lastCommitSha: string;
  lastCommitWhen: string;
  content?: string | null;
  target?: string | null;
  submoduleUrl?: string | null;
}

/** ContentsResponse (forgejo-facts 6.11): every key present, nullable ones null when not applicable. */
export function toContents(urls: RepoUrls, e: ContentsInput): ApiContents {
  const self = `${urls.api}/contents/${seg(e.path)}?ref=${encodeURIComponent(e.ref)}`;
  const submodule = e.type === 'submodule';
  const html = submodule ? null : `${urls.html}/src/${e.refType}/${seg(e.refInUrl)}/${seg(e.path)}`;
  const git = submodule ? null : `${urls.api}/git/blobs/${e.sha}`;
  const download = e.type === 'file' || e.type === 'symlink' ? `${urls.html}/raw/${e.refType}/${seg(e.refInUrl)}/${seg(e.path)}` : null;
  return {
    name: e.name,
    path: e.path,
    sha: e.sha,
    last_commit_sha: e.lastCommitSha,
    last_commit_when: e.lastCommitWhen,
    type: e.type,
    size: e.size,
    encoding: e.content === undefined || e.content === null ? null : 'base64',
    content: e.content ?? null,
    target: e.target ?? null,
    url: self,
    html_url: html,
    git_url: git,
    download_url: download,
    submodule_git_url: e.submoduleUrl ?? null,
    _links: { self, git, html },
  };
}

export function toCommitUser(s: Signature): ApiCommitUser {
  return { name: s.name, email: s.email, date: utcDate(s) };
}

/** api.Tag (Forgejo's convert.ToTag): `id` is the tag object's id, `commit` the commit it points at. */
export function toApiTag(urls: RepoUrls, t: TagInfo): ApiTag {
  return {
    name: t.name,
    message: t.message.trim(),
    id: t.id,
    commit: { url: `${urls.api}/git/commits/${t.id}`, sha: t.commit ?? t.id, created: t.created ?? ZERO_TIME },
    zipball_url: `${urls.html}/archive/${encodeURIComponent(t.name)}.zip`,
    tarball_url: `${urls.html}/archive/${encodeURIComponent(t.name)}.tar.gz`,
    archive_download_count: { zip: 0, tar_gz: 0 },
  };
}
