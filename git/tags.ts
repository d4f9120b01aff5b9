// Tags as the API shows them: annotated tags are read from their tag object, lightweight ones from
// the commit they name.
import { readInfo, readObject } from './cat-file.ts';
import { parseCommit, type Signature } from './commits.ts';
import { runGit } from './exec.ts';

export interface TagObject {
  sha: string;
  object: string;
  type: string;
  tag: string;
  tagger: Signature | null;
  message: string;
  signature?: string;
}

export interface TagInfo {
  name: string;
  /** The tag object for annotated tags, the target for lightweight ones. */
  id: string;
  /** The commit the tag leads to, null when it names no commit. */
  commit: string | null;
  message: string;
  /** Tagger date of an annotated tag, committer date of a lightweight one (RFC 3339, own offset). */
  created: string | null;
  annotated: boolean;
}

/** Parses a raw tag object; the tagger line is parsed like a commit identity. */
export function parseTagObject(sha: string, raw: Buffer): TagObject {
  const text = raw.toString('utf8');
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  let message = split < 0 ? '' : text.slice(split + 2);
  const out: TagObject = { sha, object: '', type: '', tag: '', tagger: null, message: '' };
  for (const line of head.split('\n')) {
    const i = line.indexOf(' ');
    const key = i < 0 ? line : line.slice(0, i);
    const value = i < 0 ? '' : line.slice(i + 1);
    if (key === 'object') out.object = value;
    else if (key === 'type') out.type = value;
    else if (key === 'tag') out.tag = value;
    else if (key === 'tagger') out.tagger = parseCommit(sha, Buffer.from(`committer ${value}\n\n`)).committer;
  }
  const sig = message.indexOf('-----BEGIN ');
  if (sig >= 0 && /-----BEGIN (PGP|SSH) SIGNATURE-----/.test(message.slice(sig))) {
    out.signature = message.slice(sig);
    message = message.slice(0, sig);
  }
  out.message = message;
  return out;
}

export async function readTagObject(repoPath: string, sha: string): Promise<TagObject | null> {
  const obj = await readObject(repoPath, sha);
  return obj && obj.type === 'tag' ? parseTagObject(obj.oid, obj.content) : null;
}

/** Describes the tag refs/tags/<name> points at (`oid`), or null when its object is missing. */
export async function tagInfo(repoPath: string, name: string, oid: string): Promise<TagInfo | null> {
  const obj = await readObject(repoPath, oid);
  if (!obj) return null;
  if (obj.type === 'tag') {
    const t = parseTagObject(obj.oid, obj.content);
    const commit = (await readInfo(repoPath, `${obj.oid}^{commit}`))?.oid ?? null;
    return { name, id: obj.oid, commit, message: t.message, created: t.tagger?.date ?? null, annotated: true };
  }
  if (obj.type === 'commit') {
    const c = parseCommit(obj.oid, obj.content);
    return { name, id: obj.oid, commit: obj.oid, message: c.message, created: c.committer.date, annotated: false };
  }
  return { name, id: obj.oid, commit: null, message: '', created: null, annotated: false };
}

/** Tags, newest first (tagger date, or committer date for lightweight tags), then by name. */
export async function listTags(repoPath: string): Promise<{ name: string; oid: string }[]> {
  const { stdout } = await runGit(repoPath, [
    'for-each-ref',
    '--sort=-refname',
    '--sort=-creatordate',
    '--format=%(refname)%00%(objectname)',
    'refs/tags/',
  ]);
  return stdout
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [ref = '', oid = ''] = l.split('\0');
      return { name: ref.slice('refs/tags/'.length), oid };
    });
}
