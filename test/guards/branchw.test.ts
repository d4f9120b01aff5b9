// BRANCHW (spec, guard table): for file-change routes the caller may write to the branch named in the
// body — `new_branch`, else `branch`, else the default branch — or is site admin; else 403. Writing is
// code write access (`user should have a permission to write to this branch`, forgejo-facts 1.2) and,
// on a protected branch, what its rule allows for the changed paths (Forgejo's VerifyBranchProtection:
// `user cannot commit to repo [user: x]`, `path is protected and can not be changed [path: p]`).
// Protection rules live in the database; permissions are built directly.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BRANCHW } from '../../guards/branchw.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { ProtectedBranch } from '../../model/branch-protection.ts';
import type { IUser } from '../../model/user.ts';
import type { IRepository } from '../../model/repo.ts';
import type { RepoPermission } from '../../lib/auth/perm.ts';
import type { LoadedRepo } from '../../guards/types.ts';
import { perm, permAll, table, token, type Given } from './state.ts';
import { mkOrg, mkRepo, mkTeam, mkUser, openGuardDb, type GuardDb } from './db.ts';

const noWrite = { status: 403, message: 'user should have a permission to write to this branch' };
const cannotCommit = { status: 403, message: 'user cannot commit to repo [user: writer]' };

let db: GuardDb;
let owner: IUser;
let writer: IUser; // code write through the permission, named in no allowlist
let listed: IUser; // on the push allowlist by name
let teamed: IUser; // on the push allowlist through a team
let admin: IUser;
let open: IRepository; // no rules
let locked: IRepository; // `main` and `release/*` protected, push disabled
let allow: IRepository; // `main` pushable by an allowlist only; docs/** unprotected
let files: IRepository; // `main` pushable by code writers, *.lock files protected

test.before(async () => {
  db = await openGuardDb();
  owner = await mkUser(db);
  writer = await mkUser(db, { name: 'Writer' });
  listed = await mkUser(db);
  teamed = await mkUser(db);
  admin = await mkUser(db, { admin: true });
  const org = await mkOrg(db, owner);
  const team = await mkTeam(db, org, { mode: Mode.write, members: [teamed] });
  [open, locked, allow, files] = [
    await mkRepo(db, owner, owner),
    await mkRepo(db, owner, owner),
    await mkRepo(db, owner, owner),
    await mkRepo(db, owner, owner),
  ];
  const em = db.em();
  em.create(ProtectedBranch, { repoId: locked.id, ruleName: 'main', canPush: false });
  em.create(ProtectedBranch, { repoId: locked.id, ruleName: 'release/*', canPush: false });
  em.create(ProtectedBranch, {
    repoId: allow.id,
    ruleName: 'main',
    canPush: true,
    enableWhitelist: true,
    whitelistUserIds: [listed.id],
    whitelistTeamIds: [team.id],
    unprotectedFilePatterns: 'docs/**',
  });
  em.create(ProtectedBranch, { repoId: files.id, ruleName: 'main', canPush: true, protectedFilePatterns: '*.lock' });
  await em.flush();
});
test.after(async () => {
  await db.close();
});

const at = (repo: () => IRepository, p: RepoPermission): LoadedRepo => ({ repo: repo(), owner, perm: p });
const codeWriter = () => perm(Mode.write, { code: Mode.write, issues: Mode.read });
/** A row: who, on which repository with which permission, with which body. */
const row =
  (doer: () => IUser | null, repo: () => IRepository, p: () => RepoPermission, body: unknown, extra: Given = {}) =>
  (): Given => ({ em: db.em(), doer: doer(), repo: at(repo, p()), body, ...extra });

table(BRANCHW, [
  {
    name: 'no rule: code writer, default branch',
    given: row(
      () => writer,
      () => open,
      codeWriter,
      {},
    ),
    want: null,
  },
  {
    name: 'no rule: code writer, named branch',
    given: row(
      () => writer,
      () => open,
      codeWriter,
      { branch: 'dev' },
    ),
    want: null,
  },
  {
    name: 'no rule: owner',
    given: row(
      () => owner,
      () => open,
      () => permAll(Mode.owner),
      { branch: 'main' },
    ),
    want: null,
  },
  {
    name: 'no rule: code reader',
    given: row(
      () => writer,
      () => open,
      () => permAll(Mode.read),
      { branch: 'main' },
    ),
    want: noWrite,
  },
  {
    name: 'no rule: writer of issues only',
    given: row(
      () => writer,
      () => open,
      () => perm(Mode.write, { code: Mode.read, issues: Mode.write }),
      {},
    ),
    want: noWrite,
  },
  {
    name: 'no rule: anonymous',
    given: row(
      () => null,
      () => open,
      () => permAll(Mode.read),
      {},
    ),
    want: noWrite,
  },
  {
    name: 'no rule: site admin who only reads',
    given: row(
      () => admin,
      () => open,
      () => permAll(Mode.read),
      { new_branch: 'x' },
    ),
    want: null,
  },
  {
    name: 'no rule: site admin with a public-only token',
    given: row(
      () => admin,
      () => open,
      () => permAll(Mode.read),
      {},
      { token: token('public-only,all') },
    ),
    want: noWrite,
  },
  {
    name: 'no rule: site admin with a repo-specific token',
    given: row(
      () => admin,
      () => open,
      () => permAll(Mode.read),
      {},
      { token: token('write:repository', [1]) },
    ),
    want: noWrite,
  },

  {
    name: 'push disabled: writer, default branch',
    given: row(
      () => writer,
      () => locked,
      codeWriter,
      {},
    ),
    want: cannotCommit,
  },
  {
    name: 'push disabled: writer, branch named in other case',
    given: row(
      () => writer,
      () => locked,
      codeWriter,
      { branch: 'MAIN' },
    ),
    want: 403,
  },
  {
    name: 'push disabled: owner too',
    given: row(
      () => owner,
      () => locked,
      () => permAll(Mode.owner),
      { branch: 'main' },
    ),
    want: 403,
  },
  {
    name: 'push disabled: unprotected branch',
    given: row(
      () => writer,
      () => locked,
      codeWriter,
      { branch: 'dev' },
    ),
    want: null,
  },
  {
    name: 'push disabled: from main into a new branch',
    given: row(
      () => writer,
      () => locked,
      codeWriter,
      { branch: 'main', new_branch: 'feature' },
    ),
    want: null,
  },
  {
    name: 'push disabled: into main as the new branch',
    given: row(
      () => writer,
      () => locked,
      codeWriter,
      { branch: 'dev', new_branch: 'main' },
    ),
    want: 403,
  },
  {
    name: 'push disabled: glob rule',
    given: row(
      () => writer,
      () => locked,
      codeWriter,
      { branch: 'release/1.0' },
    ),
    want: 403,
  },
  {
    name: 'push disabled: glob does not cross a slash',
    given: row(
      () => writer,
      () => locked,
      codeWriter,
      { branch: 'release/1/x' },
    ),
    want: null,
  },
  {
    name: 'push disabled: reader still gets the write message',
    given: row(
      () => writer,
      () => locked,
      () => permAll(Mode.read),
      {},
    ),
    want: noWrite,
  },

  {
    name: 'allowlist: user listed by name',
    given: row(
      () => listed,
      () => allow,
      codeWriter,
      { files: [{ path: 'src/a.ts' }] },
    ),
    want: null,
  },
  {
    name: 'allowlist: user listed through a team',
    given: row(
      () => teamed,
      () => allow,
      codeWriter,
      { files: [{ path: 'src/a.ts' }] },
    ),
    want: null,
  },
  {
    name: 'allowlist: writer not listed',
    given: row(
      () => writer,
      () => allow,
      codeWriter,
      { files: [{ path: 'src/a.ts' }] },
    ),
    want: cannotCommit,
  },
  {
    name: 'allowlist: writer not listed, unprotected path',
    given: row(
      () => writer,
      () => allow,
      codeWriter,
      { files: [{ path: 'docs/guide/a.md' }] },
    ),
    want: null,
  },
  {
    name: 'allowlist: writer not listed, one path outside the unprotected ones',
    given: row(
      () => writer,
      () => allow,
      codeWriter,
      { files: [{ path: 'docs/a.md' }, { path: 'README.md' }] },
    ),
    want: 403,
  },
  {
    name: 'allowlist: writer not listed, moving a file out of docs',
    given: row(
      () => writer,
      () => allow,
      codeWriter,
      { files: [{ path: 'docs/a.md', from_path: 'src/a.md' }] },
    ),
    want: 403,
  },
  {
    name: 'allowlist: writer not listed, single-file route path',
    given: row(
      () => writer,
      () => allow,
      codeWriter,
      {},
      { params: { path: 'docs/x.md' } },
    ),
    want: null,
  },

  {
    name: 'protected files: ordinary file',
    given: row(
      () => writer,
      () => files,
      codeWriter,
      { files: [{ path: 'src/a.ts' }] },
    ),
    want: null,
  },
  {
    name: 'protected files: lock file',
    given: row(
      () => writer,
      () => files,
      codeWriter,
      { files: [{ path: 'yarn.lock' }] },
    ),
    want: { status: 403, message: 'path is protected and can not be changed [path: yarn.lock]' },
  },
  {
    name: 'protected files: through the route path',
    given: row(
      () => owner,
      () => files,
      () => permAll(Mode.owner),
      {},
      { params: { path: 'Cargo.lock' } },
    ),
    want: 403,
  },
]);

test('BRANCHW: reads the body, so BODY must come first', () => {
  assert.equal([...BRANCHW.needs], ['repo', 'body']);
});

test.run();
