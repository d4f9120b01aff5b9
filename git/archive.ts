import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { readInfo } from './cat-file.ts';
import { RevNotFoundError } from './errors.ts';
import { gitStream, runGit } from './exec.ts';
import { validatePath } from './paths.ts';

export type ArchiveFormat = 'tar.gz' | 'zip' | 'bundle';

/**
 * An archive of the commit `ref` resolves to. tar.gz and zip put every entry under `<prefix>/`.
 * Throws RevNotFoundError when `ref` names no commit.
 */
export async function archiveStream(repoPath: string, ref: string, format: ArchiveFormat, prefix: string): Promise<Readable> {
  const commit = await readInfo(repoPath, `${ref}^{commit}`);
  if (!commit) throw new RevNotFoundError(ref);
  if (format === 'bundle') return bundleStream(repoPath, commit.oid);
  const args = ['archive', `--format=${format}`];
  if (prefix !== '') {
    validatePath(prefix);
    args.push(`--prefix=${prefix}/`);
  }
  return gitStream(repoPath, [...args, commit.oid]);
}

/**
 * `git bundle create` wants ref names, not a commit id, and must not touch the repository's refs.
 * Like Forgejo, bundle from a throwaway repository that borrows the objects (alternates) and has a
 * single branch `bundle` at the commit; it is removed when the stream closes.
 */
async function bundleStream(repoPath: string, oid: string): Promise<Readable> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'cairn-bundle-'));
  const cleanup = () => rm(tmp, { recursive: true, force: true });
  try {
    const scratch = path.join(tmp, 'repo.git');
    await runGit(null, ['init', '--bare', '--quiet', '--template=', '--initial-branch=bundle', scratch]);
    await writeFile(path.join(scratch, 'objects', 'info', 'alternates'), `${path.resolve(repoPath, 'objects')}\n`);
    await runGit(scratch, ['update-ref', 'refs/heads/bundle', oid], {
      env: { GIT_COMMITTER_NAME: 'cairn', GIT_COMMITTER_EMAIL: 'cairn@localhost' },
    });
    const out = gitStream(scratch, ['bundle', 'create', '--quiet', '-', 'HEAD', 'refs/heads/bundle']);
    out.on('close', () => void cleanup());
    return out;
  } catch (err) {
    await cleanup();
    throw err;
  }
}
