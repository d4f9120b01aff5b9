// The command an SSH client asks to run, read as Forgejo's `serv` reads it (cmd/serv.go): words split
// as a POSIX shell would (git quotes the path: `git-upload-pack '/owner/repo.git'`), a leading slash
// and a `.git` suffix dropped, `<repo>.wiki` naming the wiki. Only the git services and
// git-lfs-authenticate are known; anything else is refused before any repository is looked at.
export const GIT_VERBS = ['git-upload-pack', 'git-receive-pack', 'git-upload-archive'] as const;
export type GitVerb = (typeof GIT_VERBS)[number];
export const LFS_AUTHENTICATE = 'git-lfs-authenticate';

export type SshCommand =
  | { kind: 'git'; verb: GitVerb; owner: string; repo: string }
  | { kind: 'lfs'; owner: string; repo: string; operation: 'upload' | 'download' };

export class SshCommandError extends Error {}

/** Splits like a POSIX shell without expansions: single quotes, double quotes and backslashes. */
export function splitWords(cmd: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < cmd.length; i++) {
    const ch = cmd[i];
    if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (word !== null) words.push(word);
      word = null;
    } else if (ch === "'") {
      const end = cmd.indexOf("'", i + 1);
      if (end < 0) throw new SshCommandError('Unterminated quote in command');
      word = (word ?? '') + cmd.slice(i + 1, end);
      i = end;
    } else if (ch === '"') {
      let j = i + 1;
      let part = '';
      for (; j < cmd.length && cmd[j] !== '"'; j++) {
        if (cmd[j] === '\\' && j + 1 < cmd.length && '"\\$`'.includes(cmd[j + 1])) j++;
        part += cmd[j];
      }
      if (j >= cmd.length) throw new SshCommandError('Unterminated quote in command');
      word = (word ?? '') + part;
      i = j;
    } else if (ch === '\\' && i + 1 < cmd.length) {
      word = (word ?? '') + cmd[++i];
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

// Forgejo's alphaDashDotPattern: a name with any other character is refused.
const NAME = /^[\w.-]+$/;

export function parseSshCommand(cmd: string): SshCommand {
  const words = splitWords(cmd);
  if (words.length < 2) throw new SshCommandError('Too few arguments');
  const [verb, rawPath, extra] = words;
  const isLfs = verb === LFS_AUTHENTICATE;
  if (!isLfs && !(GIT_VERBS as readonly string[]).includes(verb)) throw new SshCommandError('Unknown git command');
  const parts = rawPath.replace(/^\/+/, '').split('/');
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw new SshCommandError('Invalid repository path');
  const owner = parts[0];
  const repo = parts[1].replace(/\.git$/i, '');
  if (!NAME.test(owner) || !NAME.test(repo)) throw new SshCommandError('Invalid repo name');
  if (isLfs) {
    if (extra !== 'upload' && extra !== 'download') throw new SshCommandError('Unknown LFS verb');
    return { kind: 'lfs', owner, repo, operation: extra };
  }
  if (words.length > 2) throw new SshCommandError('Too many arguments');
  return { kind: 'git', verb: verb as GitVerb, owner, repo };
}
