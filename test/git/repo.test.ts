import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readInfo } from '../../git/cat-file.ts';
import { InvalidRefNameError, RepoExistsError } from '../../git/errors.ts';
import {
  deleteRepo,
  getHeadBranch,
  initBare,
  isEmpty,
  listRefs,
  renameRepo,
  repoSize,
  resolveRef,
  revParse,
  setHead,
} from '../../git/repo.ts';
import { createLightweightTag } from '../../git/refs.ts';
import { commit, git, sandbox, text, type Sandbox } from './fixture.ts';

let sb: Sandbox;
test.before(async () => {
  sb = await sandbox();
});
test.after(async () => {
  await sb.cleanup();
});

test('initBare creates a bare repository with no hooks and the server config', async () => {
  const repo = path.join(sb.root, 'owner', 'nested', 'new.git');
  await initBare(repo, { defaultBranch: 'trunk' });
  assert.is(await git(repo, 'rev-parse', '--is-bare-repository'), 'true');
  assert.is(await git(repo, 'symbolic-ref', 'HEAD'), 'refs/heads/trunk');
  assert.not.ok(existsSync(path.join(repo, 'hooks')) && readdirSync(path.join(repo, 'hooks')).length > 0);
  for (const [key, value] of [
    ['core.logallrefupdates', 'true'],
    ['transfer.fsckobjects', 'true'],
    ['receive.advertisepushoptions', 'true'],
    ['uploadpack.allowfilter', 'true'],
    ['uploadpack.allowanysha1inwant', 'true'],
    ['http.receivepack', 'true'],
  ]) {
    assert.is(await git(repo, 'config', '--get', key), value, key);
  }
  assert.ok(await isEmpty(repo));
  assert.is(await getHeadBranch(repo), 'trunk');
});

test('initBare refuses an existing path and a bad branch name', async () => {
  const repo = await sb.repo();
  const err = await initBare(repo, { defaultBranch: 'main' }).catch((e: unknown) => e);
  assert.instance(err, RepoExistsError);
  const bad = await initBare(path.join(sb.root, 'bad.git'), { defaultBranch: 'a..b' }).catch((e: unknown) => e);
  assert.instance(bad, InvalidRefNameError);
  assert.not.ok(existsSync(path.join(sb.root, 'bad.git')));
});

test('refs: list, resolve, rev-parse, HEAD', async () => {
  const repo = await sb.repo();
  const c1 = await commit(repo, [{ op: 'create', path: 'a', content: text('a') }]);
  const c2 = await commit(repo, [{ op: 'create', path: 'b', content: text('b') }], 'dev commit', 'dev');
  await createLightweightTag(repo, 'v1', c1);
  // A branch and a tag with the same name: the branch wins, as in Forgejo.
  await createLightweightTag(repo, 'dev', c1);
  assert.not.ok(await isEmpty(repo));

  const refs = await listRefs(repo);
  assert.equal(
    refs.map((r) => [r.name, r.oid, r.type]),
    [
      ['refs/heads/dev', c2, 'commit'],
      ['refs/heads/main', c1, 'commit'],
      ['refs/tags/dev', c1, 'commit'],
      ['refs/tags/v1', c1, 'commit'],
    ],
  );
  assert.equal(
    (await listRefs(repo, 'refs/heads/')).map((r) => r.name),
    ['refs/heads/dev', 'refs/heads/main'],
  );
  assert.is((await listRefs(repo, 'refs/')).length, 4);

  assert.equal(await resolveRef(repo, 'main'), { kind: 'branch', ref: 'refs/heads/main', oid: c1, commit: c1 });
  assert.equal(await resolveRef(repo, 'dev'), { kind: 'branch', ref: 'refs/heads/dev', oid: c2, commit: c2 });
  assert.equal(await resolveRef(repo, 'v1'), { kind: 'tag', ref: 'refs/tags/v1', oid: c1, commit: c1 });
  assert.equal(await resolveRef(repo, c2.slice(0, 10)), { kind: 'commit', ref: null, oid: c2, commit: c2 });
  assert.is(await resolveRef(repo, 'ma'), null); // prefix of a branch name is not a match
  assert.is(await resolveRef(repo, 'nope'), null);
  assert.is(await resolveRef(repo, 'deadbeef'), null);
  assert.is(await resolveRef(repo, '-x'), null);

  assert.is(await revParse(repo, 'main'), c1);
  assert.is(await revParse(repo, 'refs/heads/dev'), c2);
  assert.is(await revParse(repo, 'main^{tree}'), await git(repo, 'rev-parse', 'main^{tree}'));
  // git's own DWIM prefers the tag, unlike resolveRef.
  assert.is(await revParse(repo, 'dev'), c1);
  assert.is(await revParse(repo, 'nope'), null);

  await setHead(repo, 'dev');
  assert.is(await getHeadBranch(repo), 'dev');
  assert.is(await revParse(repo, 'HEAD'), c2);
});

test('repoSize counts loose and packed objects', async () => {
  const repo = await sb.repo();
  assert.is(await repoSize(repo), 0);
  await commit(repo, [{ op: 'create', path: 'big', content: Buffer.alloc(200_000, 7) }]);
  const loose = await repoSize(repo);
  assert.ok(loose > 0);
  await git(repo, 'gc', '--quiet');
  assert.ok((await repoSize(repo)) > 0);
});

test('renameRepo and deleteRepo move the directory and drop the reader', async () => {
  const repo = await sb.repo();
  const c1 = await commit(repo, [{ op: 'create', path: 'a', content: text('a') }]);
  assert.is((await readInfo(repo, 'main'))?.oid, c1);
  const moved = path.join(sb.root, 'someone-else', 'renamed.git');
  await renameRepo(repo, moved);
  assert.not.ok(existsSync(repo));
  assert.is((await readInfo(moved, 'main'))?.oid, c1);
  const other = await sb.repo();
  const err = await renameRepo(moved, other).catch((e: unknown) => e);
  assert.instance(err, RepoExistsError);
  await deleteRepo(moved);
  assert.not.ok(existsSync(moved));
  // Re-created at the same path: a fresh reader sees the new repository, not the old objects.
  await initBare(moved, { defaultBranch: 'main' });
  assert.is(await readInfo(moved, c1), null);
});

test.run();
