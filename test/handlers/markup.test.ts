// Markdown rendering: HTML out, raw HTML escaped, relative links resolved against the context.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { makeRepo, makeUser, type TestUser } from '../helpers/fixtures.ts';

let db: TestDb;
let srv: TestServer;
let alice: TestUser;
test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  alice = await makeUser(db, srv.api);
  await makeRepo(srv.api, alice, { name: 'docs' });
});
test.after(async () => {
  await srv.close();
  await db.close();
});

test('POST /markdown renders HTML and escapes raw HTML', async () => {
  const r = await call(srv.api, 'POST', '/markdown', {
    token: alice.token,
    body: { Text: '# Hi\n\n<script>x</script> *em*', Mode: 'gfm' },
  });
  assert.is(r.status, 200);
  assert.ok((r.headers.get('content-type') ?? '').startsWith('text/html'));
  assert.ok(r.text.includes('<h1>Hi</h1>'));
  assert.ok(r.text.includes('&lt;script&gt;'));
  assert.ok(r.text.includes('<em>em</em>'));
});

test('relative links resolve against the repository; raw and markup variants work; sign-in is required', async () => {
  const r = await call(srv.api, 'POST', `/repos/${alice.name}/docs/markdown`, {
    token: alice.token,
    body: { Text: '[guide](docs/guide.md)', Mode: 'gfm' },
  });
  assert.ok(r.text.includes(`href="${srv.config.appUrl}${alice.name}/docs/docs/guide.md"`), r.text);
  const raw = await call(srv.api, 'POST', '/markdown/raw', { token: alice.token, body: '**bold**' });
  assert.ok(raw.text.includes('<strong>bold</strong>'));
  const markup = await call(srv.api, 'POST', '/markup', { token: alice.token, body: { Text: 'line1\nline2', Mode: 'comment' } });
  assert.ok(markup.text.includes('<br>'));
  assert.is((await call(srv.api, 'POST', '/markdown', { body: { Text: 'x' } })).status, 401);
  assert.is((await call(srv.api, 'POST', '/markdown', { token: alice.token, body: { Text: 'x', Mode: 'nope' } })).status, 422);
});

test.run();
