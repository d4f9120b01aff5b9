// Kept answers per scope (lib/http/answer-scopes.ts, model/db-clock.ts): a kept `GET {R}` survives
// writes to other repositories made by another process, and is made again after a write to R, a
// revoked token, a collaborator removed, or a git change, whichever process made them (PostgreSQL:
// the embedded database admits one process, and there every change counts as a change of everything).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { call } from '../helpers/client.ts';
import { countSql } from '../helpers/sql-count.ts';
import { startCairnProcess, type CairnProcess } from '../helpers/cairn-process.ts';
import { newRepo, setup, type Env } from './repo-setup.ts';

let env: Env;
let other: CairnProcess | null = null;
test.before(async () => {
  env = await setup();
  if (env.db.url) other = await startCairnProcess(env.db.dataPath, { DATABASE__URL: env.db.url });
});
test.after(async () => {
  await other?.close();
  await env.close();
});

const orm = () => env.db.db.orm;
const get = (path: string, token?: string) => call(env.srv.api, 'GET', path, { token });
/** A request of this process, and whether it was answered from a kept answer (no statement on the pool). */
async function read(path: string, token?: string) {
  const { result, statements } = await countSql(orm(), () => get(path, token));
  return { res: result, kept: statements.length === 0 };
}
/** Asks until the answer is kept (the first request makes it). */
async function keep(path: string, token?: string) {
  for (let i = 0; i < 20; i++) if ((await read(path, token)).kept) return;
  assert.unreachable(`${path}: never kept`);
}
const elsewhere = (method: string, path: string, token: string, body?: unknown) => call(other!.api, method, path, { token, body });

test('[PostgreSQL] writes to other repositories, by another process, leave a kept answer kept; a write to its repository does not', async () => {
  if (!other) return;
  const r = await newRepo(env, env.alice, { auto_init: true, readme: 'Default' });
  const s = await newRepo(env, env.bob);
  const path = `/repos/${r.full_name}`;
  await keep(path, env.alice.token);
  await keep('/user', env.alice.token);
  for (let i = 0; i < 3; i++) {
    const issue = await elsewhere('POST', `/repos/${s.full_name}/issues`, env.bob.token, { title: `elsewhere ${i}` });
    assert.is(issue.status, 201, issue.text);
    const comment = await elsewhere('POST', `/repos/${s.full_name}/issues/${issue.json.number}/comments`, env.alice.token, { body: 'hi' });
    assert.is(comment.status, 201, comment.text);
    const again = await read(path, env.alice.token);
    assert.is(again.res.status, 200);
    assert.ok(again.kept, 'kept after a write to another repository');
    assert.ok((await read('/user', env.alice.token)).kept, '/user kept after a write to another repository');
  }
  const before = (await read(path, env.alice.token)).res.json.open_issues_count as number;
  const issue = await elsewhere('POST', `${path}/issues`, env.bob.token, { title: 'here' });
  assert.is(issue.status, 201, issue.text);
  const after = await read(path, env.alice.token);
  assert.not.ok(after.kept);
  assert.is(after.res.json.open_issues_count, before + 1);
  // The issue list of R too, and a comment on it.
  const issues = `${path}/issues/${issue.json.number}`;
  await keep(issues, env.alice.token);
  assert.is((await elsewhere('POST', `${issues}/comments`, env.bob.token, { body: 'one' })).status, 201);
  assert.is((await read(issues, env.alice.token)).res.json.comments, 1);
});

test('[PostgreSQL] a token revoked, a collaborator removed, a file changed by another process: the next read is fresh', async () => {
  if (!other) return;
  const r = await newRepo(env, env.alice, { private: true, auto_init: true, readme: 'Default' });
  const path = `/repos/${r.full_name}`;
  assert.is((await env.as(env.alice, 'PUT', `${path}/collaborators/${env.carol.name}`, { permission: 'read' })).status, 204);
  // A token of carol's, kept on R, revoked through the other process.
  const made = await call(other.api, 'POST', `/users/${env.carol.name}/tokens`, {
    basic: [env.carol.name, env.carol.password],
    body: { name: 'scoped', scopes: ['all'] },
  });
  assert.is(made.status, 201, made.text);
  const token = made.json.sha1 as string;
  await keep(path, token);
  const gone = await call(other.api, 'DELETE', `/users/${env.carol.name}/tokens/${made.json.id}`, {
    basic: [env.carol.name, env.carol.password],
  });
  assert.is(gone.status, 204, gone.text);
  assert.is((await read(path, token)).res.status, 401);
  // Carol's own token, kept on R, then she is no collaborator any more.
  await keep(path, env.carol.token);
  assert.is((await elsewhere('DELETE', `${path}/collaborators/${env.carol.name}`, env.alice.token)).status, 204);
  assert.is((await read(path, env.carol.token)).res.status, 404);
  // A file changed through the other process (a git change).
  const file = `${path}/contents/README.md`;
  const sha = (await get(file, env.alice.token)).json.sha as string;
  await keep(file, env.alice.token);
  const put = await elsewhere('PUT', file, env.alice.token, {
    content: Buffer.from('changed').toString('base64'),
    sha,
    message: 'elsewhere',
  });
  assert.is(put.status, 200, put.text);
  assert.is(Buffer.from((await read(file, env.alice.token)).res.json.content, 'base64').toString(), 'changed');
});

test('a fork depends on its parent: a new issue in the parent is seen in the fork', async () => {
  const parent = await newRepo(env, env.alice, { auto_init: true, readme: 'Default' });
  const fork = await env.as(env.bob, 'POST', `/repos/${parent.full_name}/forks`, {});
  assert.is(fork.status, 202, fork.text);
  const path = `/repos/${fork.json.full_name}`;
  const before = (await get(path, env.bob.token)).json.parent.open_issues_count as number;
  await keep(path, env.bob.token);
  const write = other ? elsewhere : (m: string, p: string, t: string, b?: unknown) => call(env.srv.api, m, p, { token: t, body: b });
  assert.is((await write('POST', `/repos/${parent.full_name}/issues`, env.alice.token, { title: 'in the parent' })).status, 201);
  assert.is((await read(path, env.bob.token)).res.json.parent.open_issues_count, before + 1);
});

test.run();
