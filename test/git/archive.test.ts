import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { archiveStream } from '../../git/archive.ts';
import { InvalidPathError, RevNotFoundError } from '../../git/errors.ts';
import { runGit } from '../../git/exec.ts';
import { createLightweightTag } from '../../git/refs.ts';
import { commit, git, sandbox, text, type Sandbox } from './fixture.ts';

let sb: Sandbox;
let repo: string;
let first: string;
test.before(async () => {
  sb = await sandbox();
  repo = await sb.repo('project.git');
  first = await commit(repo, [
    { op: 'create', path: 'README.md', content: text('v1\n') },
    { op: 'create', path: 'src/main.c', content: text('int main(){}\n') },
  ]);
  await createLightweightTag(repo, 'v1.0', first);
  await commit(repo, [{ op: 'update', path: 'README.md', content: text('v2\n') }]);
});
test.after(async () => {
  await sb.cleanup();
});

async function save(name: string, ref: string, format: 'tar.gz' | 'zip' | 'bundle', prefix = 'project'): Promise<string> {
  const file = path.join(sb.root, name);
  await pipeline(await archiveStream(repo, ref, format, prefix), createWriteStream(file));
  return file;
}

test('tar.gz puts entries under the prefix and archives the requested commit', async () => {
  const file = await save('a.tar.gz', 'v1.0', 'tar.gz');
  const { stdout } = await promisify(execFile)('tar', ['-tzf', file]);
  assert.equal(stdout.trim().split('\n').sort(), ['project/', 'project/README.md', 'project/src/', 'project/src/main.c']);
  const { stdout: readme } = await promisify(execFile)('tar', ['-xzOf', file, 'project/README.md']);
  assert.is(readme, 'v1\n');
});

test('zip archive', async () => {
  const file = await save('a.zip', 'main', 'zip');
  const buf = await readFile(file);
  assert.is(buf.subarray(0, 4).toString('latin1'), 'PK\x03\x04');
  assert.ok(buf.includes('project/src/main.c'));
});

test('bundle of a commit id clones, and leaves no temp repository behind', async () => {
  const before = (await readdir(os.tmpdir())).filter((n) => n.startsWith('cairn-bundle-')).length;
  const file = await save('a.bundle', first, 'bundle');
  assert.is((await readFile(file)).subarray(0, 16).toString('latin1'), '# v2 git bundle\n');
  const heads = (await runGit(null, ['bundle', 'list-heads', file])).stdout.toString();
  assert.match(heads, `${first} refs/heads/bundle`);
  const out = path.join(sb.root, 'from-bundle');
  await runGit(null, ['clone', '--quiet', file, out]);
  assert.is(await git(null, '-C', out, 'rev-parse', 'HEAD'), first);
  assert.is(await git(null, '-C', out, 'show', 'HEAD:README.md'), 'v1');
  await new Promise((r) => setTimeout(r, 50));
  const after = (await readdir(os.tmpdir())).filter((n) => n.startsWith('cairn-bundle-')).length;
  assert.ok(after <= before);
  // The served repository's refs are untouched.
  assert.is(await git(repo, 'for-each-ref', '--format=%(refname)'), 'refs/heads/main\nrefs/tags/v1.0');
  assert.not.ok(existsSync(path.join(repo, 'refs', 'heads', 'bundle')));
});

test('unknown refs and bad prefixes are refused', async () => {
  const err = await archiveStream(repo, 'nope', 'zip', 'project').catch((e: unknown) => e);
  assert.instance(err, RevNotFoundError);
  const bad = await archiveStream(repo, 'main', 'tar.gz', '../escape').catch((e: unknown) => e);
  assert.instance(bad, InvalidPathError);
});

test.run();
