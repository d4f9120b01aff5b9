// NA (spec, guard table and Errors): repository not archived; else 423 with
// `<Repository ID:owner/name> is archived` (forgejo-facts 1.2), whoever the caller is.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NA } from '../../guards/na.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { fakeUser, loadedRepo, permAll, table } from './state.ts';

const alice = fakeUser({ name: 'alice' });
const admin = fakeUser({ isAdmin: true });
const archived = () => loadedRepo(permAll(Mode.owner), { owner: alice, repo: { id: 5, name: 'demo', isArchived: true } });

table(NA, [
  { name: 'active repository', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner), { owner: alice }) }), want: null },
  {
    name: 'archived, owner',
    given: () => ({ doer: alice, repo: archived() }),
    want: { status: 423, message: '<Repository 5:alice/demo> is archived' },
  },
  {
    name: 'archived, site admin',
    given: () => ({ doer: admin, repo: archived() }),
    want: { status: 423, message: '<Repository 5:alice/demo> is archived' },
  },
  { name: 'archived, anonymous reader', given: () => ({ repo: archived() }), want: 423 },
  {
    name: 'archived, canonical casing of owner and name',
    given: () => ({
      repo: loadedRepo(permAll(Mode.read), { owner: fakeUser({ name: 'Bob' }), repo: { id: 12, name: 'My.Repo', isArchived: true } }),
    }),
    want: { status: 423, message: '<Repository 12:Bob/My.Repo> is archived' },
  },
]);

test('NA: needs the repository', () => assert.equal([...NA.needs], ['repo']));

test.run();
