// TASK_TOKEN (Forgejo's GET /actions/run): only an automatic actions task token passes; anyone else 403.
import { test } from 'uvu';
import { TASK_TOKEN } from '../../guards/task-token.ts';
import { fakeUser, state, table, token, assertOutcome } from './state.ts';

const denied = { status: 403, message: 'must use an automatic actions token' };

table(TASK_TOKEN, [
  { name: 'anonymous', given: () => ({}), want: denied },
  { name: 'a signed-in user', given: () => ({ doer: fakeUser() }), want: denied },
  { name: 'a personal token', given: () => ({ doer: fakeUser(), token: token('all') }), want: denied },
]);

test('TASK_TOKEN: an actions task token passes', async () => {
  const s = state({ doer: fakeUser(), method: 'actions' });
  const withTask = { ...s, auth: { ...s.auth, task: { id: 7, repoId: 1, isForkPullRequest: false } } };
  assertOutcome(await TASK_TOKEN.run(withTask), null);
});

test.run();
