// SCHEDULED_MERGE (Forgejo's CancelScheduledAutoMerge): the loaded pull's scheduled merge, else 404.
// MERGE_SCHEDULER: its scheduler or a repository admin (site admins are, through repoPermission) may
// cancel it, anyone else 403. The schedule is a real row.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SCHEDULED_MERGE } from '../../guards/scheduled-merge.ts';
import { MERGE_SCHEDULER } from '../../guards/merge-scheduler.ts';
import { Mode, type AccessMode } from '../../lib/auth/perm.ts';
import { AutoMerge, type IAutoMerge, type IPullRequest } from '../../model/pull.ts';
import { NOT_FOUND } from '../../lib/http/errors.ts';
import { fakeIssue, fakeUser, loadedRepo, permAll, table, type Given } from './state.ts';
import { openGuardDb, type GuardDb } from './db.ts';

let db: GuardDb;
const scheduler = fakeUser();
const other = fakeUser();
const pullId = 424242;
test.before(async () => {
  db = await openGuardDb();
  const em = db.em();
  em.create(AutoMerge, {
    pullId,
    doerId: scheduler.id,
    mergeStyle: 'merge',
    message: '',
    deleteBranchAfterMerge: false,
    createdAt: new Date(),
  });
  await em.flush();
});
test.after(async () => {
  await db.close();
});

function loading(id: number): () => Given {
  return () => {
    const repo = loadedRepo(permAll(Mode.read));
    return {
      em: db.em(),
      doer: other,
      repo,
      pull: { pull: { id } as IPullRequest, issue: fakeIssue(repo.repo, scheduler, { isPull: true }) },
    };
  };
}
table(SCHEDULED_MERGE, [
  { name: 'a pull with a scheduled merge', given: loading(pullId), want: null, then: (s) => assert.is(s.autoMerge?.doerId, scheduler.id) },
  { name: 'a pull without one', given: loading(pullId + 1), want: { status: 404, message: NOT_FOUND, errors: [] } },
]);

function cancelling(doer: Given['doer'], mode: AccessMode): () => Given {
  return () => ({ doer, repo: loadedRepo(permAll(mode)), autoMerge: { pullId, doerId: scheduler.id } as IAutoMerge });
}
const denied = { status: 403, message: 'user has no permission to cancel the scheduled auto merge' };
table(MERGE_SCHEDULER, [
  { name: 'the scheduler, only reading now', given: cancelling(scheduler, Mode.read), want: null },
  { name: 'a repository admin', given: cancelling(other, Mode.admin), want: null },
  { name: 'a code writer', given: cancelling(other, Mode.write), want: denied },
  { name: 'anonymous', given: cancelling(null, Mode.read), want: denied },
]);

test.run();
