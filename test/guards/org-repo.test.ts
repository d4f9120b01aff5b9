// ORG_REPO (405 `repo is not owned by an organization` for the repository-teams routes of an
// individual's repository) and TEAM_ACCESS_CHANGE (adding or removing a team needs the repository's
// owner rights unless the organization lets repository admins change team access: 403).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ORG_REPO, TEAM_ACCESS_CHANGE } from '../../guards/org-repo.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { fakeOrg, fakeUser, loadedRepo, permAll, table } from './state.ts';

const alice = fakeUser();
const org = fakeOrg();
const lenient = fakeOrg({ repoAdminChangeTeamAccess: true });
const notOrg = { status: 405, message: 'repo is not owned by an organization' };
const denied = { status: 403, message: 'user is nor repo admin nor owner' };

table(ORG_REPO, [
  { name: 'an organization repository', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.read), { owner: org }) }), want: null },
  {
    name: "an individual's repository",
    given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner), { owner: alice }) }),
    want: notOrg,
  },
]);

table(TEAM_ACCESS_CHANGE, [
  {
    name: 'owner rights (organization owner or site admin)',
    given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner), { owner: org }) }),
    want: null,
  },
  {
    name: 'repository admin, organization keeps team access to owners',
    given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.admin), { owner: org }) }),
    want: denied,
  },
  {
    name: 'repository admin, organization lets admins change team access',
    given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.admin), { owner: lenient }) }),
    want: null,
  },
]);

test('ORG_REPO is a gate, TEAM_ACCESS_CHANGE a guard; both need the repository', () => {
  assert.is(ORG_REPO.kind, 'gate');
  assert.is(TEAM_ACCESS_CHANGE.kind, 'guard');
  assert.equal([...TEAM_ACCESS_CHANGE.needs], ['repo']);
});

test.run();
