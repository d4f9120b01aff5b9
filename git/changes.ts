// Who hears of a change to a repository on disk (a ref moved, a repository made or fetched into):
// every open database's clock (model/db-clock.ts), so that an answer kept from before the change is
// never served after it, by any process. A command that may change a repository announces
// itself when it has ended and before its caller goes on (git/exec.ts `runGit`, lib/transport/git-push.ts).
type Listener = () => Promise<void>;

const listeners = new Set<Listener>();

/** Adds a listener; the function returned removes it. */
export function onRepositoryChange(fn: Listener): () => void {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}

/** Tells every listener that a repository may have changed, and waits until each has heard it. */
export async function repositoryChanged(): Promise<void> {
  if (listeners.size) await Promise.all([...listeners].map((fn) => fn()));
}

// Subcommands that change no ref, no HEAD and no configuration: their objects, index files and
// trees made on the side change no answer until a ref names them (and the command that moves the ref
// is not one of these). Any other subcommand announces a change when it ends.
const READ_ONLY = new Set([
  'cat-file',
  'rev-parse',
  'rev-list',
  'log',
  'show',
  'diff',
  'diff-tree',
  'diff-index',
  'diff-files',
  'ls-tree',
  'ls-files',
  'for-each-ref',
  'show-ref',
  'merge-base',
  'blame',
  'archive',
  'upload-pack',
  'grep',
  'name-rev',
  'describe',
  'count-objects',
  'check-ref-format',
  'check-attr',
  'check-ignore',
  'merge-tree',
  'hash-object',
  'mktree',
  'mktag',
  'commit-tree',
  'read-tree',
  'write-tree',
  'update-index',
  'apply',
  'format-patch',
  'patch-id',
  'verify-commit',
  'verify-tag',
  'var',
  'version',
  'shortlog',
  'cherry',
  'range-diff',
  'unpack-file',
  'get-tar-commit-id',
  'fsck',
  'ls-remote',
  'interpret-trailers',
  'stripspace',
  'mailinfo',
  'bundle',
  'fast-export',
  'pack-objects',
  'index-pack',
  'unpack-objects',
  'column',
  'credential',
]);

/** The subcommand of a git argument list (after `-c key=value` and other global options). */
export function subcommandOf(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' || a === '-C') {
      i++;
      continue;
    }
    if (!a.startsWith('-')) return a;
  }
  return '';
}

/** Whether running these arguments may change a repository's refs, HEAD or configuration. */
export function mayChange(args: readonly string[]): boolean {
  const sub = subcommandOf(args);
  if (sub === 'config')
    return (
      !args.includes('--get') &&
      !args.includes('--get-all') &&
      !args.includes('--list') &&
      !args.includes('-l') &&
      !args.includes('--get-regexp')
    );
  if (sub === 'symbolic-ref') return args.filter((a) => !a.startsWith('-')).length > 2;
  return !READ_ONLY.has(sub);
}
