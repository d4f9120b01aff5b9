// ADM_OR_SELF_COLLABORATOR (forgejo-facts 8.3): `GET .../collaborators/{c}/permission` is allowed for a
// site admin, a repository admin or the user `{c}` themself; otherwise 403.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ADM_OR_SELF_COLLABORATOR } from '../../guards/collaborator-permission.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { fakeUser, loadedRepo, permAll, table, token } from './state.ts';

const bob = fakeUser({ name: 'Bob' });
const admin = fakeUser({ isAdmin: true });
const denied = {
  status: 403,
  message: 'Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own',
};
const asking =
  (doer: ReturnType<typeof fakeUser> | null, mode: (typeof Mode)[keyof typeof Mode], about: string, tok?: ReturnType<typeof token>) =>
  () => ({ doer, token: tok, repo: loadedRepo(permAll(mode)), params: { collaborator: about } });

table(ADM_OR_SELF_COLLABORATOR, [
  { name: 'the user themself, any case', given: asking(bob, Mode.read, 'bob'), want: null },
  { name: 'a reader asking about someone else', given: asking(bob, Mode.read, 'carol'), want: denied },
  { name: 'a writer asking about someone else', given: asking(bob, Mode.write, 'carol'), want: denied },
  { name: 'a repository admin', given: asking(bob, Mode.admin, 'carol'), want: null },
  { name: 'the owner', given: asking(bob, Mode.owner, 'carol'), want: null },
  { name: 'a site admin who only reads', given: asking(admin, Mode.read, 'carol'), want: null },
  { name: 'a site admin with a public-only token', given: asking(admin, Mode.read, 'carol', token('public-only,all')), want: denied },
  { name: 'anonymous', given: asking(null, Mode.read, 'carol'), want: denied },
]);

test('ADM_OR_SELF_COLLABORATOR: a guard that needs the repository', () => {
  assert.is(ADM_OR_SELF_COLLABORATOR.kind, 'guard');
  assert.equal([...ADM_OR_SELF_COLLABORATOR.needs], ['repo']);
});

test.run();
