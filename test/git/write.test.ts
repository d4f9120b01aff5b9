import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readInfo, readObject } from '../../git/cat-file.ts';
import {
  FileExistsError,
  FileNotFoundError,
  InvalidIdentityError,
  InvalidPathError,
  InvalidRefNameError,
  RefConflictError,
  RefExistsError,
  RefNotFoundError,
  RevNotFoundError,
  ShaMismatchError,
} from '../../git/errors.ts';
import { listRefs, resolveRef } from '../../git/repo.ts';
import { lsTree } from '../../git/trees.ts';
import { createAnnotatedTag, createBranchRef, createLightweightTag, deleteRef } from '../../git/refs.ts';
import { commitFiles, validatePath, type FileOp } from '../../git/write.ts';
import { alice, bob, commit, git, sandbox, text, type Sandbox } from './fixture.ts';

let sb: Sandbox;
test.before(async () => {
  sb = await sandbox();
});
test.after(async () => {
  await sb.cleanup();
});

async function files(repo: string, rev = 'main'): Promise<Record<string, string>> {
  const entries = (await lsTree(repo, rev, { recursive: true })) ?? [];
  const out: Record<string, string> = {};
  for (const e of entries) out[e.path] = (await readObject(repo, e.oid))?.content.toString('utf8') ?? '?';
  return out;
}

async function rejects(p: Promise<unknown>, type: new (...args: never[]) => Error): Promise<Error> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof type, `expected ${type.name}, got ${String(err)}`);
  return err instanceof Error ? err : new Error('unreachable');
}

test('first commit, then create, update, delete and move in nested directories', async () => {
  const repo = await sb.repo();
  const first = await commitFiles(repo, {
    branch: 'main',
    parent: null,
    ops: [
      { op: 'create', path: 'README.md', content: text('# hi\n') },
      { op: 'create', path: 'src/lib/a.ts', content: text('a\n') },
      { op: 'create', path: 'src/b.ts', content: text('b\n'), mode: '100755' },
    ],
    message: 'init',
    author: alice,
    committer: bob,
  });
  assert.is(await git(repo, 'rev-parse', 'main'), first.commitSha);
  assert.is(await git(repo, 'rev-parse', 'main^{tree}'), first.treeSha);
  assert.equal(await files(repo), { 'README.md': '# hi\n', 'src/b.ts': 'b\n', 'src/lib/a.ts': 'a\n' });
  assert.is(
    await git(repo, 'log', '-1', '--format=%an <%ae> %ad|%cn <%ce> %cd|%B', '--date=raw'),
    'Alice <alice@example.com> 1704157445 +0200|Bob <bob@example.com> 1709528767 -0430|init',
  );
  const modes = (await lsTree(repo, 'main', { recursive: true })) ?? [];
  assert.is(modes.find((e) => e.path === 'src/b.ts')?.mode, '100755');

  const second = await commit(repo, [
    { op: 'update', path: 'src/lib/a.ts', content: text('a2\n') },
    { op: 'delete', path: 'README.md' },
    { op: 'move', fromPath: 'src/b.ts', path: 'bin/b.ts' },
    { op: 'create', path: 'docs/deep/er/x.md', content: text('x\n') },
  ]);
  assert.is(await git(repo, 'rev-parse', 'main^'), first.commitSha);
  assert.is(await git(repo, 'rev-parse', 'main'), second);
  assert.equal(await files(repo), { 'bin/b.ts': 'b\n', 'docs/deep/er/x.md': 'x\n', 'src/lib/a.ts': 'a2\n' });
  // A move keeps the mode; an update keeps it unless told otherwise.
  const entries = (await lsTree(repo, 'main', { recursive: true })) ?? [];
  assert.is(entries.find((e) => e.path === 'bin/b.ts')?.mode, '100755');

  await commit(repo, [{ op: 'move', fromPath: 'bin/b.ts', path: 'bin/c.ts', content: text('c\n') }]);
  assert.equal((await files(repo))['bin/c.ts'], 'c\n');
  assert.is((await files(repo))['bin/b.ts'], undefined);
  await git(repo, 'fsck', '--strict');
});

test('operations see earlier operations of the same commit', async () => {
  const repo = await sb.repo();
  await commit(repo, [{ op: 'create', path: 'a', content: text('file\n') }]);
  // Replace file `a` by directory `a/`, then touch a new file twice.
  await commit(repo, [
    { op: 'delete', path: 'a' },
    { op: 'create', path: 'a/b', content: text('nested\n') },
    { op: 'create', path: 'n', content: text('1\n') },
    { op: 'update', path: 'n', content: text('2\n') },
  ]);
  assert.equal(await files(repo), { 'a/b': 'nested\n', n: '2\n' });
  await rejects(
    commit(repo, [
      { op: 'create', path: 'x/y', content: text('') },
      { op: 'create', path: 'x', content: text('') },
    ]),
    InvalidPathError,
  );
  await rejects(
    commit(repo, [
      { op: 'delete', path: 'n' },
      { op: 'update', path: 'n', content: text('') },
    ]),
    FileNotFoundError,
  );
  await git(repo, 'fsck', '--strict');
});

test('existence errors', async () => {
  const repo = await sb.repo();
  await commit(repo, [{ op: 'create', path: 'dir/file.txt', content: text('x') }]);
  await rejects(commit(repo, [{ op: 'create', path: 'dir/file.txt', content: text('y') }]), FileExistsError);
  await rejects(commit(repo, [{ op: 'update', path: 'dir/missing.txt', content: text('y') }]), FileNotFoundError);
  await rejects(commit(repo, [{ op: 'delete', path: 'missing' }]), FileNotFoundError);
  await rejects(commit(repo, [{ op: 'move', fromPath: 'missing', path: 'x' }]), FileNotFoundError);
  await commit(repo, [{ op: 'create', path: 'other', content: text('o') }]);
  await rejects(commit(repo, [{ op: 'move', fromPath: 'other', path: 'dir/file.txt' }]), FileExistsError);
  await rejects(commit(repo, [{ op: 'move', fromPath: 'other', path: 'dir' }]), InvalidPathError);
  // A path that descends into a file.
  await rejects(commit(repo, [{ op: 'create', path: 'dir/file.txt/sub', content: text('y') }]), InvalidPathError);
  // A directory is neither a file to create nor to update.
  await rejects(commit(repo, [{ op: 'create', path: 'dir', content: text('y') }]), InvalidPathError);
  await rejects(commit(repo, [{ op: 'update', path: 'dir', content: text('y') }]), FileNotFoundError);
  await rejects(commit(repo, [{ op: 'delete', path: 'dir' }]), FileNotFoundError);
  const blob = await readInfo(repo, 'main:dir/file.txt');
  await rejects(commit(repo, [{ op: 'update', path: 'dir/file.txt', content: text('y'), sha: '0'.repeat(40) }]), ShaMismatchError);
  await commit(repo, [{ op: 'update', path: 'dir/file.txt', content: text('y'), sha: blob?.oid }]);
  assert.is(await git(repo, 'rev-list', '--count', 'main'), '3');
});

test('path validation', async () => {
  const bad = [
    '',
    '..',
    '../x',
    'a/../b',
    'a/./b',
    '/abs',
    'a//b',
    'a/',
    '.git',
    '.git/config',
    'x/.GIT/hooks',
    '.Git',
    'a\\b',
    'a\0b',
    'a\nb',
  ];
  for (const p of bad)
    assert.throws(
      () => validatePath(p),
      (e: unknown) => e instanceof InvalidPathError,
      JSON.stringify(p),
    );
  for (const p of ['a', 'a/b.txt', '.gitignore', '.github/x.yml', 'a..b', 'x.git', 'with space/é.md', '-dash']) validatePath(p);

  const repo = await sb.repo();
  const head = await commit(repo, [{ op: 'create', path: 'ok', content: text('x') }]);
  for (const p of ['../escape', '/etc/passwd', 'a/../b', '.git/config', 'a\0b']) {
    await rejects(commit(repo, [{ op: 'create', path: p, content: text('x') }]), InvalidPathError);
    await rejects(commit(repo, [{ op: 'move', fromPath: p, path: 'x' }]), InvalidPathError);
  }
  // git's own verify_path catches aliases of .git that our checks do not spell out.
  await rejects(commit(repo, [{ op: 'create', path: 'x/.git.', content: text('x') }]), InvalidPathError);
  await rejects(commit(repo, [{ op: 'create', path: 'git~1/config', content: text('x') }]), InvalidPathError);
  assert.is(await git(repo, 'rev-parse', 'main'), head);
});

test('identity and ref name validation', async () => {
  const repo = await sb.repo();
  const op: FileOp[] = [{ op: 'create', path: 'a', content: text('') }];
  await rejects(
    commitFiles(repo, { branch: 'main', parent: null, ops: op, message: 'm', author: { name: 'Eve <x>', email: 'e@x' } }),
    InvalidIdentityError,
  );
  await rejects(
    commitFiles(repo, { branch: 'main', parent: null, ops: op, message: 'm', author: { name: ' ', email: 'e@x' } }),
    InvalidIdentityError,
  );
  await rejects(commitFiles(repo, { branch: 'a..b', parent: null, ops: op, message: 'm', author: alice }), InvalidRefNameError);
  await rejects(commitFiles(repo, { branch: '-x', parent: null, ops: op, message: 'm', author: alice }), InvalidRefNameError);
  await rejects(commitFiles(repo, { branch: 'main', parent: 'main', ops: op, message: 'm', author: alice }), RevNotFoundError);
  await rejects(commitFiles(repo, { branch: 'main', parent: 'f'.repeat(40), ops: op, message: 'm', author: alice }), RevNotFoundError);
});

test('a new branch from a parent, an orphan branch, and a stale expectation', async () => {
  const repo = await sb.repo();
  const base = await commit(repo, [{ op: 'create', path: 'a', content: text('a') }]);
  const feature = await commitFiles(repo, {
    branch: 'feature',
    parent: base,
    expectedOld: null,
    ops: [{ op: 'create', path: 'b', content: text('b') }],
    message: 'f',
    author: alice,
  });
  assert.is(await git(repo, 'rev-parse', 'feature^'), base);
  // Creating the branch again must fail: it exists now.
  await rejects(
    commitFiles(repo, {
      branch: 'feature',
      parent: base,
      expectedOld: null,
      ops: [{ op: 'create', path: 'c', content: text('c') }],
      message: 'f',
      author: alice,
    }),
    RefConflictError,
  );
  const orphan = await commitFiles(repo, {
    branch: 'pages',
    parent: null,
    ops: [{ op: 'create', path: 'index.html', content: text('<p>') }],
    message: 'o',
    author: alice,
  });
  assert.is(await git(repo, 'rev-list', '--count', 'pages'), '1');
  assert.is.not(orphan.commitSha, feature.commitSha);
  // The caller read `base` as main's value, but main moved meanwhile.
  await commit(repo, [{ op: 'create', path: 'z', content: text('z') }]);
  await rejects(
    commitFiles(repo, {
      branch: 'main',
      parent: base,
      ops: [{ op: 'create', path: 'y', content: text('y') }],
      message: 'm',
      author: alice,
    }),
    RefConflictError,
  );
});

test('concurrent writers from the same parent: exactly one wins', async () => {
  const repo = await sb.repo();
  const parent = await commit(repo, [{ op: 'create', path: 'counter', content: text('0') }]);
  const results = await Promise.allSettled(
    Array.from({ length: 10 }, (_, i) =>
      commitFiles(repo, {
        branch: 'main',
        parent,
        ops: [{ op: 'update', path: 'counter', content: text(String(i + 1)) }],
        message: `w${i}`,
        author: alice,
      }),
    ),
  );
  const won = results.filter((r) => r.status === 'fulfilled');
  const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  assert.is(won.length, 1);
  assert.is(lost.length, 9);
  for (const r of lost) assert.instance(r.reason, RefConflictError);
  assert.is(await git(repo, 'rev-list', '--count', 'main'), '2');
  const winner = won[0];
  if (winner?.status === 'fulfilled') assert.is(await git(repo, 'rev-parse', 'main'), winner.value.commitSha);
  await git(repo, 'fsck', '--strict');
});

test('branch refs: create, exists, delete with compare-and-swap', async () => {
  const repo = await sb.repo();
  const c1 = await commit(repo, [{ op: 'create', path: 'a', content: text('a') }]);
  assert.is(await createBranchRef(repo, 'dev', 'main'), c1);
  await rejects(createBranchRef(repo, 'dev', c1), RefExistsError);
  await rejects(createBranchRef(repo, 'dev/sub', c1), RefExistsError); // directory/file clash in the ref namespace
  await rejects(createBranchRef(repo, 'x', 'nope'), RevNotFoundError);
  await rejects(createBranchRef(repo, 'bad..name', c1), InvalidRefNameError);
  const c2 = await commit(repo, [{ op: 'create', path: 'b', content: text('b') }], 'm', 'dev');
  await rejects(deleteRef(repo, 'refs/heads/dev', c1), RefConflictError);
  await deleteRef(repo, 'refs/heads/dev', c2);
  assert.is(await resolveRef(repo, 'dev'), null);
  await rejects(deleteRef(repo, 'refs/heads/dev'), RefNotFoundError);
  await rejects(deleteRef(repo, 'main'), InvalidRefNameError);
});

test('tags: lightweight and annotated', async () => {
  const repo = await sb.repo();
  const c1 = await commit(repo, [{ op: 'create', path: 'a', content: text('a') }]);
  assert.is(await createLightweightTag(repo, 'v1', 'main'), c1);
  await rejects(createLightweightTag(repo, 'v1', 'main'), RefExistsError);
  const tagOid = await createAnnotatedTag(repo, 'v2', c1, 'Release 2\n\n# not a comment', bob);
  await rejects(createAnnotatedTag(repo, 'v2', c1, 'again', bob), RefExistsError);
  await rejects(createAnnotatedTag(repo, 'v3', 'nope', 'x', bob), RevNotFoundError);
  assert.is(await git(repo, 'cat-file', '-t', 'v2'), 'tag');
  assert.is(await git(repo, 'rev-parse', 'v2^{commit}'), c1);
  const raw = await git(repo, 'cat-file', 'tag', tagOid);
  assert.match(raw, 'tagger Bob <bob@example.com> 1709528767 -0430');
  assert.match(raw, '# not a comment');
  const tags = await listRefs(repo, 'refs/tags/');
  assert.equal(
    tags.map((t) => [t.name, t.type, t.peeled]),
    [
      ['refs/tags/v1', 'commit', null],
      ['refs/tags/v2', 'tag', c1],
    ],
  );
  const resolved = await resolveRef(repo, 'v2');
  assert.equal(resolved, { kind: 'tag', ref: 'refs/tags/v2', oid: tagOid, commit: c1 });
  await createAnnotatedTag(repo, 'empty-message', c1, '', alice);
  await git(repo, 'fsck', '--strict');
});

test.run();
