import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { text as streamText } from 'node:stream/consumers';
import { RevNotFoundError } from '../../git/errors.ts';
import {
  commitFilesAndStats,
  commitWeight,
  countCommits,
  diffFiles,
  diffFilesOfCommits,
  diffOrPatch,
  formatGitDate,
  getCommit,
  log,
  parseCommit,
} from '../../git/commits.ts';
import { runGit } from '../../git/exec.ts';
import { commitFiles } from '../../git/write.ts';
import { alice, commit, git, sandbox, text, type Sandbox } from './fixture.ts';
import { lastResortCollect } from '../../lib/runtime/idle-gc.ts';

let sb: Sandbox;
let repo: string;
const shas: string[] = [];
test.before(async () => {
  sb = await sandbox();
  repo = await sb.repo();
  const day = (d: number) => ({ ...alice, date: new Date(Date.UTC(2024, 0, d, 12)) });
  shas.push(
    await commit(
      repo,
      [
        { op: 'create', path: 'a.txt', content: text('1\n2\n3\n') },
        { op: 'create', path: 'docs/x.md', content: text('x\n') },
      ],
      'one',
      'main',
      day(1),
    ),
  );
  shas.push(await commit(repo, [{ op: 'update', path: 'a.txt', content: text('1\nTWO\n3\n4\n') }], 'two', 'main', day(2)));
  shas.push(
    await commit(
      repo,
      [
        { op: 'create', path: 'docs/y.md', content: text('y\n') },
        { op: 'delete', path: 'docs/x.md' },
      ],
      'three\n\nbody line',
      'main',
      day(3),
    ),
  );
  shas.push(await commit(repo, [{ op: 'create', path: 'bin.dat', content: Buffer.from([0, 1, 2, 0, 255]) }], 'four', 'main', day(4)));
});
test.after(async () => {
  await sb.cleanup();
});

test('formatGitDate keeps the offset, Z for UTC', () => {
  assert.is(formatGitDate(1704157445, '+0200'), '2024-01-02T03:04:05+02:00');
  assert.is(formatGitDate(1704157445, '-0430'), '2024-01-01T20:34:05-04:30');
  assert.is(formatGitDate(1704157445, '+0000'), '2024-01-02T01:04:05Z');
});

test('getCommit parses a commit', async () => {
  const c = await getCommit(repo, 'main~1');
  assert.ok(c);
  if (!c) return;
  assert.is(c.sha, shas[2]);
  assert.equal(c.parents, [shas[1]]);
  assert.is(c.tree, await git(repo, 'rev-parse', 'main~1^{tree}'));
  assert.is(c.message, 'three\n\nbody line\n');
  assert.equal(c.author, {
    name: 'Alice',
    email: 'alice@example.com',
    date: '2024-01-03T14:00:00+02:00',
    timestamp: 1704283200,
    tz: '+0200',
  });
  assert.equal(c.committer, c.author);
  assert.is(c.signature, undefined);
  assert.equal((await getCommit(repo, shas[0]))?.parents, []);
  assert.is(await getCommit(repo, 'nope'), null);
  assert.is(await getCommit(repo, 'main:a.txt'), null); // a blob is not a commit
});

test('getCommit peels annotated tags and reads signatures', async () => {
  await runGit(repo, ['tag', '-a', '-m', 'tag', 'vtag', shas[0]], { env: { GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@x' } });
  assert.is((await getCommit(repo, 'vtag'))?.sha, shas[0]);

  const tree = await git(repo, 'rev-parse', 'main^{tree}');
  const sig = '-----BEGIN PGP SIGNATURE-----\n\niQEzBAABCAAdFiEE\n=abcd\n-----END PGP SIGNATURE-----';
  const payload = `tree ${tree}\nparent ${shas[3]}\nauthor Bob <bob@example.com> 1709528767 -0430\ncommitter Bob <bob@example.com> 1709528767 -0430\n`;
  const raw = `${payload}gpgsig ${sig.split('\n').join('\n ')}\n\nsigned\n`;
  const oid = (await runGit(repo, ['hash-object', '-t', 'commit', '-w', '--stdin'], { input: raw })).stdout.toString().trim();
  const c = await getCommit(repo, oid);
  assert.is(c?.signature, sig);
  assert.is(c?.signedPayload, `${payload}\nsigned\n`);
  assert.is(c?.message, 'signed\n');
  assert.is(c?.committer.date, '2024-03-04T00:36:07-04:30');
});

test('parseCommit tolerates odd headers', () => {
  const c = parseCommit(
    'x',
    Buffer.from('tree t\nauthor No Date <n@x>\ncommitter C <c@x> 1 +0000\nencoding latin1\nmergetag object y\n type commit\n\nmsg'),
  );
  assert.is(c.author.name, 'No Date <n@x>');
  assert.is(c.committer.date, '1970-01-01T00:00:01Z');
  assert.is(c.message, 'msg');
});

test('log pages newest first and filters by path and date', async () => {
  const all = await log(repo, { rev: 'main' });
  assert.equal(
    all.map((c) => c.sha),
    [...shas].reverse(),
  );
  assert.equal(
    (await log(repo, { rev: 'main', skip: 1, limit: 2 })).map((c) => c.sha),
    [shas[2], shas[1]],
  );
  assert.equal(
    (await log(repo, { rev: 'main', path: 'a.txt' })).map((c) => c.sha),
    [shas[1], shas[0]],
  );
  assert.equal(
    (await log(repo, { rev: 'main', path: 'docs' })).map((c) => c.sha),
    [shas[2], shas[0]],
  );
  assert.equal(
    (await log(repo, { rev: 'main', path: 'docs/*' })).map((c) => c.sha),
    [],
  ); // pathspecs are literal
  assert.equal(
    (await log(repo, { rev: shas[1] })).map((c) => c.sha),
    [shas[1], shas[0]],
  );
  const since = new Date(Date.UTC(2024, 0, 2, 12));
  const until = new Date(Date.UTC(2024, 0, 3, 12));
  assert.equal(
    (await log(repo, { rev: 'main', since, until })).map((c) => c.sha),
    [shas[2], shas[1]],
  );

  assert.is(await countCommits(repo, { rev: 'main' }), 4);
  assert.is(await countCommits(repo, { rev: 'main', path: 'docs/y.md' }), 1);
  assert.is(await countCommits(repo, { rev: 'main', since }), 3);
  for (const rev of ['nope', 'f'.repeat(40)]) {
    const err = await log(repo, { rev }).catch((e: unknown) => e);
    assert.instance(err, RevNotFoundError);
    const err2 = await countCommits(repo, { rev }).catch((e: unknown) => e);
    assert.instance(err2, RevNotFoundError);
  }
});

test('log with firstParent over a merge', async () => {
  const r = await sb.repo();
  const base = await commit(r, [{ op: 'create', path: 'f', content: text('f') }]);
  const side = (
    await commitFiles(r, {
      branch: 'side',
      parent: base,
      expectedOld: null,
      ops: [{ op: 'create', path: 's', content: text('s') }],
      message: 'side',
      author: alice,
    })
  ).commitSha;
  const main2 = await commit(r, [{ op: 'create', path: 'm', content: text('m') }]);
  const mergedTree = await git(r, 'merge-tree', '--write-tree', main2, side);
  const merge = (
    await runGit(r, ['commit-tree', mergedTree, '-p', main2, '-p', side, '-m', 'merge'], {
      env: { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@x', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@x' },
    })
  ).stdout
    .toString()
    .trim();
  assert.is(await countCommits(r, { rev: merge }), 4);
  assert.is(await countCommits(r, { rev: merge, firstParent: true }), 3);
  assert.equal(
    (await log(r, { rev: merge, firstParent: true })).map((c) => c.sha),
    [merge, main2, base],
  );
  // A merge's files are those against its first parent.
  assert.equal(
    (await commitFilesAndStats(r, merge))?.files.map((f) => [f.filename, f.status]),
    [['s', 'added']],
  );
});

test('commitFilesAndStats: root commit, modification, binary', async () => {
  const root = await commitFilesAndStats(repo, shas[0]);
  assert.equal(
    root?.files.map((f) => [f.filename, f.status, f.additions, f.deletions]),
    [
      ['a.txt', 'added', 3, 0],
      ['docs/x.md', 'added', 1, 0],
    ],
  );
  assert.equal(root?.stats, { total: 4, additions: 4, deletions: 0 });
  assert.equal((await commitFilesAndStats(repo, shas[1]))?.stats, { total: 3, additions: 2, deletions: 1 });
  const third = await commitFilesAndStats(repo, shas[2]);
  assert.equal(
    third?.files.map((f) => [f.filename, f.status]),
    [
      ['docs/x.md', 'removed'],
      ['docs/y.md', 'added'],
    ],
  );
  const bin = await commitFilesAndStats(repo, shas[3]);
  assert.equal(bin?.files, [{ filename: 'bin.dat', status: 'added', additions: 0, deletions: 0, binary: true }]);
  assert.is(await commitFilesAndStats(repo, 'nope'), null);
});

test('diffFilesOfCommits: one process answers what commitFilesAndStats answers for each commit', async () => {
  const r = await sb.repo();
  // A path that looks like a commit id, an empty commit, and a merge (against its first parent).
  const base = await commit(r, [{ op: 'create', path: 'f'.repeat(40), content: text('1\n') }]);
  const empty = (
    await runGit(r, ['commit-tree', `${base}^{tree}`, '-p', base, '-m', 'empty'], {
      env: { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@x', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@x' },
    })
  ).stdout
    .toString()
    .trim();
  const side = (
    await commitFiles(r, {
      branch: 'side',
      parent: base,
      expectedOld: null,
      ops: [{ op: 'create', path: 's', content: text('s') }],
      message: 'side',
      author: alice,
    })
  ).commitSha;
  const merged = await git(r, 'merge-tree', '--write-tree', empty, side);
  const merge = (
    await runGit(r, ['commit-tree', merged, '-p', empty, '-p', side, '-m', 'merge'], {
      env: { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@x', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@x' },
    })
  ).stdout
    .toString()
    .trim();
  for (const [where, ids] of [
    [repo, shas],
    [r, [base, empty, side, merge]],
  ] as const) {
    const commits = await Promise.all(ids.map(async (id) => (await getCommit(where, id))!));
    const all = await diffFilesOfCommits(where, commits);
    assert.equal([...all.keys()].sort(), [...ids].sort());
    for (const id of ids) assert.equal(all.get(id), (await commitFilesAndStats(where, id))?.files, id);
  }
  assert.equal((await diffFilesOfCommits(r, [(await getCommit(r, empty))!])).get(empty), []);
  assert.equal(
    (await diffFilesOfCommits(r, [(await getCommit(r, base))!])).get(base)?.map((f) => f.filename),
    ['f'.repeat(40)],
  );
  assert.equal(await diffFilesOfCommits(r, []), new Map());
});

test('diffFiles detects renames on request', async () => {
  const r = await sb.repo();
  const c1 = await commit(r, [{ op: 'create', path: 'old name.txt', content: text('line\n'.repeat(20)) }]);
  const c2 = await commit(r, [{ op: 'move', fromPath: 'old name.txt', path: 'nëw name.txt' }]);
  assert.equal(await diffFiles(r, c1, c2, { renames: true }), [
    { filename: 'nëw name.txt', previousFilename: 'old name.txt', status: 'renamed', additions: 0, deletions: 0, binary: false },
  ]);
  assert.equal(
    (await diffFiles(r, c1, c2)).map((f) => f.status),
    ['added', 'removed'],
  );
});

test('diffOrPatch streams a diff and a patch', async () => {
  const rootDiff = await diffOrPatch(repo, shas[0], 'diff');
  const d0 = rootDiff ? await streamText(rootDiff) : '';
  assert.match(d0, /^diff --git a\/a.txt b\/a.txt\nnew file mode 100644/);
  const diff = await diffOrPatch(repo, shas[1], 'diff');
  const d1 = diff ? await streamText(diff) : '';
  assert.match(d1, /^diff --git a\/a.txt b\/a.txt\n/);
  assert.match(d1, '-2\n+TWO\n');
  const patch = await diffOrPatch(repo, shas[1], 'patch');
  const p1 = patch ? await streamText(patch) : '';
  assert.match(p1, new RegExp(`^From ${shas[1]} Mon Sep 17 00:00:00 2001\nFrom: Alice <alice@example.com>\n`));
  assert.match(p1, 'Subject: [PATCH] two');
  assert.not.match(p1, 'Subject: [PATCH] one');
  const rootPatch = await diffOrPatch(repo, shas[0], 'patch');
  assert.match(rootPatch ? await streamText(rootPatch) : '', 'Subject: [PATCH] one');
  assert.is(await diffOrPatch(repo, 'nope', 'diff'), null);
});

test('the commit cache weighs a parsed commit at no less than the heap it holds, key included', () => {
  const collect = lastResortCollect();
  const n = 3_000;
  const hex = (i: number, salt: string) => `${salt}${i.toString(16)}`.padStart(40, '0');
  const raws = Array.from({ length: n }, (_, i) =>
    Buffer.from(
      `tree ${hex(i, 'a')}\nparent ${hex(i, 'b')}\nauthor Bench <bench@example.com> ${1_700_000_000 + i} +0000\ncommitter Bench <bench@example.com> ${1_700_000_000 + i} +0000\n\ncommit ${i}\n`,
    ),
  );
  const kept = new Map<string, ReturnType<typeof parseCommit>>();
  collect();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) kept.set(`/srv/forgejo-repositories/bench/big.git\0${hex(i, 'c')}`, parseCommit(hex(i, 'c'), raws[i]!));
  collect();
  const held = process.memoryUsage().heapUsed - before;
  let weighed = 0;
  for (const c of kept.values()) weighed += commitWeight(c);
  assert.ok(held > 0 && held <= weighed, `held ${held} bytes, weighed ${weighed}`);
  assert.ok(held > weighed / 3, `weighed ${weighed} bytes for ${held} held: far too much`);
});

test.run();
