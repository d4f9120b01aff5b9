// DEPENDENCY (Forgejo's CreateIssueDependency / RemoveIssueDependency): the issue an IssueMeta body names
// by owner, repository and index. An unknown repository, or one the caller cannot reach at all, 404
// naming it; an unknown issue, or one whose unit the caller cannot read, 404 naming the index.
// DEPENDENCY_MANAGER(path|body): the dependent issue's repository has dependencies on and is not
// archived (else 404), and the caller writes to the dependent issue's unit (else 403).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEPENDENCY } from '../../guards/dependency.ts';
import { DEPENDENCY_MANAGER } from '../../guards/dependency-manager.ts';
import { Mode, Unit } from '../../lib/auth/perm.ts';
import { createIssue } from '../../lib/issues/issues.ts';
import { MSG, NOT_FOUND } from '../../lib/http/errors.ts';
import type { IIssue } from '../../model/issue.ts';
import type { IRepoUnit, IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { fakeIssue, fakeUser, loadedRepo, loose, perm, permAll, table, type Given } from './state.ts';
import { mkRepo, mkUser, openGuardDb, type GuardDb } from './db.ts';

let db: GuardDb;
let owner: IUser;
let stranger: IUser;
let here: IRepository;
let there: IRepository;
let hidden: IRepository;
let local: IIssue;
let remote: IIssue;
let secret: IIssue;
test.before(async () => {
  db = await openGuardDb();
  [owner, stranger] = [await mkUser(db), await mkUser(db)];
  here = await mkRepo(db, owner, owner);
  there = await mkRepo(db, owner, owner);
  hidden = await mkRepo(db, owner, owner, { private: true });
  local = await createIssue(db.em(), { repo: here, posterId: owner.id, title: 'local' });
  remote = await createIssue(db.em(), { repo: there, posterId: owner.id, title: 'remote' });
  secret = await createIssue(db.em(), { repo: hidden, posterId: owner.id, title: 'secret' });
});
test.after(async () => {
  await db.close();
});

const naming =
  (who: () => IUser, repo: () => IRepository, index: () => number, p = () => permAll(Mode.read)) =>
  (): Given => ({
    em: db.em(),
    doer: who(),
    repo: { repo: here, owner, perm: p() },
    body: { owner: owner.name, repo: repo().name, index: index() },
  });
const noIssue = (repoId: () => number, index: number) => ({
  status: 404,
  message: NOT_FOUND,
  errors: [`issue does not exist [repo_id: ${repoId()}, index: ${index}]`],
});
table(DEPENDENCY, [
  {
    name: 'an issue of this repository',
    given: naming(
      () => stranger,
      () => here,
      () => local.index,
    ),
    want: null,
    then: (s) => assert.is(s.dependency?.issue.id, local.id),
  },
  {
    name: 'an issue of another public repository',
    given: naming(
      () => stranger,
      () => there,
      () => remote.index,
    ),
    want: null,
    then: (s) => {
      assert.is(s.dependency?.issue.id, remote.id);
      assert.is(s.dependency?.at.repo.id, there.id);
    },
  },
  {
    name: 'a private repository the caller cannot reach',
    given: naming(
      () => stranger,
      () => hidden,
      () => secret.index,
    ),
    want: 404,
  },
  {
    name: 'a private repository of the caller',
    given: naming(
      () => owner,
      () => hidden,
      () => secret.index,
    ),
    want: null,
  },
  {
    name: 'an unknown index',
    given: naming(
      () => stranger,
      () => there,
      () => 999,
    ),
    want: 404,
  },
  {
    name: 'an issue of this repository, issues unit unreadable',
    given: naming(
      () => stranger,
      () => here,
      () => local.index,
      () => perm(Mode.none, { pulls: Mode.read }),
    ),
    want: 404,
  },
]);

test('DEPENDENCY: the 404s name what is missing', async () => {
  const { state } = await import('./state.ts');
  const missingRepo = await DEPENDENCY.run(
    state({
      em: db.em(),
      doer: stranger,
      repo: { repo: here, owner, perm: permAll(Mode.read) },
      body: { owner: owner.name, repo: hidden.name, index: 1 },
    }),
  );
  assert.equal(missingRepo, {
    status: 404,
    message: NOT_FOUND,
    errors: [`repository does not exist [id: 0, uid: 0, owner_name: ${owner.name}, name: ${hidden.name}]`],
  });
  const missingIssue = await DEPENDENCY.run(
    state(
      naming(
        () => stranger,
        () => there,
        () => 999,
      )(),
    ),
  );
  assert.equal(
    missingIssue,
    noIssue(() => there.id, 999),
  );
});

const depsOff: IRepoUnit[] = [{ id: 1, repoId: 0, type: Unit.issues, config: { enable_issue_dependencies: false } }];
const reader = fakeUser();
function managing(side: 'path' | 'body', mode: 'write' | 'read', opts: { archived?: boolean; off?: boolean } = {}): () => Given {
  return () => {
    const at = loadedRepo(mode === 'write' ? perm(Mode.read, { issues: Mode.write }) : permAll(Mode.read), {
      repo: { isArchived: opts.archived ?? false },
    });
    at.units = opts.off ? depsOff : [];
    const issue = fakeIssue(at.repo, reader);
    const other = loadedRepo(permAll(Mode.read));
    const otherIssue = fakeIssue(other.repo, reader);
    return side === 'path'
      ? { doer: reader, repo: at, issue, dependency: { issue: otherIssue, at: other } }
      : { doer: reader, repo: other, issue: otherIssue, dependency: { issue, at } };
  };
}
const denied = { status: 403, message: MSG.repoWrite };
for (const side of ['path', 'body'] as const) {
  table(DEPENDENCY_MANAGER(side), [
    { name: 'a writer of the dependent issue', given: managing(side, 'write'), want: null },
    { name: 'a reader of the dependent issue', given: managing(side, 'read'), want: denied },
    { name: 'dependencies off there', given: managing(side, 'write', { off: true }), want: { status: 404, message: NOT_FOUND } },
    { name: 'the repository archived', given: managing(side, 'write', { archived: true }), want: { status: 404, message: NOT_FOUND } },
  ]);
}

test('DEPENDENCY_MANAGER: refuses unknown sides at construction', () => {
  assert.throws(() => loose(DEPENDENCY_MANAGER)('both'), /DEPENDENCY_MANAGER: unknown side "both"/);
});

test.run();
