// ALLOW_EDITS (Forgejo's SetAllowEdits): only the pull's poster may change allow_maintainer_edit (403);
// a body without the flag, or with the value the pull already has, passes for anyone.
import { test } from 'uvu';
import { ALLOW_EDITS } from '../../guards/allow-edits.ts';
import type { IPullRequest } from '../../model/pull.ts';
import { fakeIssue, fakeUser, loadedRepo, permAll, table, type Given } from './state.ts';
import { Mode } from '../../lib/auth/perm.ts';

const poster = fakeUser();
const writer = fakeUser();
const admin = fakeUser({ isAdmin: true });

function on(doer: Given['doer'], body: unknown, allowed = false): () => Given {
  return () => {
    const repo = loadedRepo(permAll(Mode.admin));
    const issue = fakeIssue(repo.repo, poster, { isPull: true });
    return { doer, repo, body, pull: { pull: { allowMaintainerEdit: allowed } as IPullRequest, issue } };
  };
}

const denied = { status: 403, message: 'SetAllowEdits: user not allowed to do this action' };
table(ALLOW_EDITS, [
  { name: 'the poster turns it on', given: on(poster, { allow_maintainer_edit: true }), want: null },
  { name: 'the poster turns it off', given: on(poster, { allow_maintainer_edit: false }, true), want: null },
  { name: 'a repository admin turns it on', given: on(writer, { allow_maintainer_edit: true }), want: denied },
  { name: 'a site admin turns it off', given: on(admin, { allow_maintainer_edit: false }, true), want: denied },
  { name: 'another user sends the value it has', given: on(writer, { allow_maintainer_edit: true }, true), want: null },
  { name: 'another user leaves it out', given: on(writer, { title: 'x' }), want: null },
]);
test.run();
