import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { BatchReader, closeAll, closeBatch, getBatch, openReaders, readInfo, readObject } from '../../git/cat-file.ts';
import { GitArgError, GitError } from '../../git/errors.ts';
import { initBare } from '../../git/repo.ts';
import { commit, git, sandbox, text, type Sandbox } from './fixture.ts';

let sb: Sandbox;
let repo: string;
let head: string;
test.before(async () => {
  sb = await sandbox();
  repo = await sb.repo();
  head = await commit(repo, [
    { op: 'create', path: 'README.md', content: text('hello\n') },
    { op: 'create', path: 'path/to/file.txt', content: text('deep\n') },
    { op: 'create', path: 'with space/na me.txt', content: text('spaced\n') },
    { op: 'create', path: 'empty', content: Buffer.alloc(0) },
    { op: 'create', path: 'big.bin', content: Buffer.alloc(3_000_000, 0xab) },
  ]);
});
test.after(async () => {
  await sb.cleanup();
});

function isGitError(e: unknown): boolean {
  return e instanceof GitError;
}

test('reads objects by revision expressions', async () => {
  const blob = await readObject(repo, 'main:path/to/file.txt');
  assert.ok(blob);
  assert.is(blob?.type, 'blob');
  assert.is(blob?.size, 5);
  assert.is(blob?.content.toString(), 'deep\n');
  assert.is(blob?.oid, await git(repo, 'rev-parse', 'main:path/to/file.txt'));

  const tree = await readObject(repo, 'HEAD^{tree}');
  assert.is(tree?.type, 'tree');
  assert.is(tree?.oid, await git(repo, 'rev-parse', 'HEAD^{tree}'));

  const c = await readObject(repo, head);
  assert.is(c?.type, 'commit');
  assert.match(c?.content.toString() ?? '', /^tree [0-9a-f]{40}\n/);

  assert.is((await readObject(repo, 'main:with space/na me.txt'))?.content.toString(), 'spaced\n');
  assert.is((await readObject(repo, 'main:empty'))?.size, 0);
  const big = await readObject(repo, 'main:big.bin');
  assert.is(big?.content.length, 3_000_000);
  assert.ok(big?.content.every((b) => b === 0xab));
});

test('readInfo answers without content', async () => {
  const info = await readInfo(repo, 'main:big.bin');
  assert.equal(Object.keys(info ?? {}).sort(), ['oid', 'size', 'type']);
  assert.is(info?.size, 3_000_000);
  assert.is((await readInfo(repo, 'main'))?.oid, head);
  assert.is((await readInfo(repo, head.slice(0, 8)))?.oid, head);
});

test('missing objects are null', async () => {
  assert.is(await readObject(repo, 'main:nope'), null);
  assert.is(await readInfo(repo, 'nope'), null);
  assert.is(await readInfo(repo, '0'.repeat(40)), null);
  assert.is(await readObject(repo, 'main:README.md/x'), null);
});

test('revisions with line breaks or NUL are rejected and the reader keeps working', async () => {
  for (const rev of ['main\ncontents main', 'main\r', 'a\0b', '']) {
    const err = await readObject(repo, rev).catch((e: unknown) => e);
    assert.instance(err, GitArgError);
  }
  assert.is((await readObject(repo, 'main:README.md'))?.content.toString(), 'hello\n');
});

test('many concurrent requests are answered in order', async () => {
  // All but the first are sent together when the first is answered (pipelined), so answers share buffers.
  const revs = Array.from({ length: 300 }, (_, i) => ['main:README.md', 'main:path/to/file.txt', 'main:nope', 'main:big.bin'][i % 4]);
  const results = await Promise.all(revs.map((r, i) => (i % 3 === 0 ? readInfo(repo, r) : readObject(repo, r))));
  const contents: Record<string, Buffer> = {
    'main:README.md': text('hello\n'),
    'main:path/to/file.txt': text('deep\n'),
    'main:big.bin': Buffer.alloc(3_000_000, 0xab),
  };
  results.forEach((res, i) => {
    const rev = revs[i];
    if (rev === 'main:nope') assert.is(res, null);
    else if (rev === 'main:big.bin') assert.is(res?.size, 3_000_000);
    else if (rev === 'main:README.md') assert.is(res?.size, 6);
    else assert.is(res?.size, 5);
    if (res && 'content' in res && Buffer.isBuffer(res.content))
      assert.ok(res.content.equals(contents[rev]), `content of ${rev} (request ${i})`);
    else assert.ok(i % 3 === 0 || rev === 'main:nope', `request ${i} has its content`);
  });
  assert.is(getBatch(repo), getBatch(repo));
});

test('an info asked again while the same one waits unsent shares its answer; one already sent does not', async () => {
  const reader = getBatch(repo);
  // The first is sent at once; the next three wait for it, and the two alike go as one line.
  const sent = reader.readInfo('main');
  const a = reader.readInfo('refs/heads/main');
  const b = reader.readInfo('refs/heads/main');
  const other = reader.readInfo('main:README.md');
  assert.is(a, b);
  assert.is.not(reader.readInfo('main'), sent);
  const [s, x, y, o] = await Promise.all([sent, a, b, other]);
  assert.is(s?.oid, head);
  assert.is(x?.oid, head);
  assert.is(y, x);
  assert.is(o?.size, 6);
  // Once sent, a new request for the same revision asks git again.
  const again = reader.readInfo('refs/heads/main');
  assert.is.not(again, a);
  assert.is((await again)?.oid, head);
});

test('a killed process rejects pending requests and is replaced', async () => {
  const reader = getBatch(repo);
  await reader.readInfo('main');
  const pending = Array.from({ length: 20 }, () => reader.readObject('main:big.bin'));
  const pid = reader.pid;
  assert.ok(pid);
  if (pid) process.kill(pid, 'SIGKILL');
  const settled = await Promise.allSettled(pending);
  const rejected = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
  assert.ok(rejected.length > 0);
  for (const r of rejected) assert.ok(isGitError(r.reason));
  assert.ok(reader.closed);
  const next = getBatch(repo);
  assert.is.not(next, reader);
  assert.is.not(next.pid, pid);
  assert.is((await readObject(repo, 'main:README.md'))?.content.toString(), 'hello\n');
});

test('survives its repository being deleted underneath it', async () => {
  const doomed = await sb.repo();
  const c1 = await commit(doomed, [{ op: 'create', path: 'a', content: text('a') }]);
  assert.is((await readInfo(doomed, 'main'))?.oid, c1);
  await rm(doomed, { recursive: true, force: true });
  // The old process may still answer (null) or die (GitError); it must not hang.
  const after = await readInfo(doomed, 'main').then(
    (v) => v,
    (e: unknown) => (isGitError(e) ? 'error' : e),
  );
  assert.ok(after === null || after === 'error', String(after));
  // A reader for a path that is not a repository fails with GitError and leaves the registry.
  await closeBatch(doomed);
  const err = await readInfo(doomed, 'main').catch((e: unknown) => e);
  assert.instance(err, GitError);
  // Re-created at the same path, the next call gets a working reader.
  await initBare(doomed, { defaultBranch: 'main' });
  const c2 = await commit(doomed, [{ op: 'create', path: 'b', content: text('b') }]);
  assert.is((await readInfo(doomed, 'main'))?.oid, c2);
});

test('an idle reader closes itself', async () => {
  let closedBy: BatchReader | null = null;
  const reader = new BatchReader(
    path.resolve(repo),
    (r) => {
      closedBy = r;
    },
    100,
  );
  assert.is((await reader.readInfo('main'))?.oid, head);
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(reader.closed);
  assert.is(closedBy, reader);
  const err = await reader.readInfo('main').catch((e: unknown) => e);
  assert.instance(err, GitError);
});

test('closeAll ends every reader', async () => {
  const other = await sb.repo();
  await readInfo(other, 'HEAD');
  await readInfo(repo, 'HEAD');
  assert.ok(openReaders() >= 2);
  await closeAll();
  assert.is(openReaders(), 0);
  assert.is((await readInfo(repo, 'main'))?.oid, head);
});

test.run();
