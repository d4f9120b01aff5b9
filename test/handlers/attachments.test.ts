// Issue and comment attachments (Forgejo's routers/api/v1/repo/issue_attachment.go,
// issue_comment_attachment.go) and their downloads.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checked, newRepo, setup, valid, validList, type Env } from './repo-setup.ts';
import { makeToken, makeUser, type TestUser } from '../helpers/fixtures.ts';
import type { Res } from '../helpers/client.ts';
import { startServer } from '../helpers/server.ts';
import { PENDING } from '../../handlers/pending.ts';
import { addComment, createIssue } from '../../lib/issues/issues.ts';
import { Repository } from '../../model/repo.ts';
import { Attachment } from '../../model/attachment.ts';
import { CommentType, Issue } from '../../model/issue.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

type Repo = Awaited<ReturnType<typeof newRepo>>;
const em = () => env.db.db.orm.em.fork();
const pending = (key: string) => (PENDING as readonly string[]).includes(key);
const fileOf = (uuid: string) => path.join(env.srv.config.dataPath, 'attachments', uuid[0], uuid[1], uuid);

/** A new issue of `repo` by `poster`: through the API once issue creation exists, else the library. */
async function newIssue(repo: Repo, poster: TestUser): Promise<{ index: number; id: number }> {
  if (!pending('issues.create')) {
    const r = await env.as(poster, 'POST', `/repos/${repo.full_name}/issues`, { title: 'bug' });
    assert.is(r.status, 201, r.text);
    return { index: r.json.number, id: r.json.id };
  }
  const m = em();
  const issue = await createIssue(m, { repo: await m.findOneOrFail(Repository, { id: repo.id }), posterId: poster.id, title: 'bug' });
  return { index: issue.index, id: issue.id };
}

async function newComment(repo: Repo, issue: { index: number; id: number }, poster: TestUser): Promise<number> {
  if (!pending('issueComments.create')) {
    const r = await env.as(poster, 'POST', `/repos/${repo.full_name}/issues/${issue.index}/comments`, { body: 'see attached' });
    assert.is(r.status, 201, r.text);
    return r.json.id;
  }
  const m = em();
  const c = await addComment(m, await m.findOneOrFail(Issue, { id: issue.id }), poster.id, CommentType.comment, {
    content: 'see attached',
  });
  return c.id;
}

async function collaborator(repo: Repo, owner: TestUser, u: TestUser, permission: 'read' | 'write' | 'admin') {
  const r = await env.as(owner, 'PUT', `/repos/${repo.full_name}/collaborators/${u.name}`, { permission });
  assert.is(r.status, 204, r.text);
}

/** A multipart POST as clients send it (FormData with the file in `attachment`). */
async function upload(
  p: string,
  token: string | undefined,
  file?: { name: string; data: Buffer | string },
  query = '',
  base = env.srv.api,
): Promise<Res> {
  const fd = new FormData();
  if (file) fd.append('attachment', new Blob([typeof file.data === 'string' ? file.data : new Uint8Array(file.data)]), file.name);
  else fd.append('name', 'no file here');
  const r = await fetch(`${base}${p}${query ? `?${query}` : ''}`, {
    method: 'POST',
    headers: token ? { Authorization: `token ${token}` } : {},
    body: fd,
  });
  const text = await r.text();
  const json = (r.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : undefined;
  return checked({ status: r.status, headers: r.headers, text, json });
}

async function download(url: string, token?: string) {
  const r = await fetch(url, { headers: token ? { Authorization: `token ${token}` } : {}, redirect: 'manual' });
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
}

const countRows = (where: { issueId?: number; commentId?: number }) => em().count(Attachment, where);

test('issue attachments: the poster uploads (201), lists, gets, renames (201), downloads and deletes', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const issue = await newIssue(repo, bob);
  const base = `/repos/${repo.full_name}/issues/${issue.index}/assets`;
  assert.equal((await env.as(bob, 'GET', base)).json, []);
  const before = await em().findOneOrFail(Issue, { id: issue.id });
  await em().nativeUpdate(Issue, { id: issue.id }, { updatedAt: new Date(Date.UTC(2020, 0, 1)) });

  const a = await upload(base, bob.token, { name: 'trace.log', data: 'stack trace\n' });
  assert.is(a.status, 201, a.text);
  valid('Attachment', a.json);
  assert.equal(
    { ...a.json, id: 0, uuid: '', created_at: '' },
    {
      id: 0,
      name: 'trace.log',
      size: 12,
      download_count: 0,
      created_at: '',
      uuid: '',
      browser_download_url: `${env.srv.url}/attachments/${a.json.uuid}`,
      type: 'attachment',
    },
  );
  assert.ok(fs.existsSync(fileOf(a.json.uuid)));
  const after = await em().findOneOrFail(Issue, { id: issue.id });
  assert.ok(after.updatedAt.getTime() > Date.UTC(2020, 0, 2), 'the issue counts as updated');
  assert.ok(before.createdAt.getTime() <= after.updatedAt.getTime());

  const b = await upload(base, bob.token, { name: 'x.txt', data: 'x' }, 'name=screenshot.png');
  assert.is(b.json.name, 'screenshot.png');
  const list = await env.as(alice, 'GET', base);
  validList('Attachment', list);
  assert.equal(
    list.json.map((x: any) => x.name),
    ['trace.log', 'screenshot.png'],
  );
  if (!pending('issues.get')) {
    const shown = await env.as(alice, 'GET', `/repos/${repo.full_name}/issues/${issue.index}`);
    assert.equal(
      shown.json.assets.map((x: any) => x.id),
      [a.json.id, b.json.id],
    );
  }

  const got = await env.as(alice, 'GET', `${base}/${a.json.id}`);
  assert.equal(got.json, a.json);
  const ed = await env.as(bob, 'PATCH', `${base}/${a.json.id}`, { name: 'trace-1.log' });
  assert.is(ed.status, 201, ed.text);
  valid('Attachment', ed.json);
  assert.is(ed.json.name, 'trace-1.log');
  const same = await env.as(bob, 'PATCH', `${base}/${a.json.id}`, {});
  assert.is(same.json.name, 'trace-1.log', 'an empty edit changes nothing');

  const dl = await download(a.json.browser_download_url);
  assert.is(dl.status, 200);
  assert.is(dl.body.toString(), 'stack trace\n');
  assert.match(dl.headers.get('content-disposition') ?? '', 'filename="trace-1.log"');
  assert.is((await env.as(bob, 'GET', `${base}/${a.json.id}`)).json.download_count, 1);

  assert.is((await env.as(bob, 'DELETE', `${base}/${a.json.id}`)).status, 204);
  assert.not.ok(fs.existsSync(fileOf(a.json.uuid)), 'the bytes go with the row');
  assert.is((await env.as(bob, 'GET', `${base}/${a.json.id}`)).status, 404);
  assert.is((await download(a.json.browser_download_url)).status, 404);
});

test("issue attachments: others need write access (403, nothing written); writers and site admins may change anyone's", async () => {
  const { alice, bob, carol } = env;
  const outsider = await makeUser(env.db, env.srv.api);
  const repo = await newRepo(env, alice, { auto_init: true });
  await collaborator(repo, alice, carol, 'write');
  const issue = await newIssue(repo, bob);
  const base = `/repos/${repo.full_name}/issues/${issue.index}/assets`;
  const a = await upload(base, bob.token, { name: 'a.txt', data: 'a' });
  assert.is(a.status, 201, a.text);

  const other = await newIssue(repo, alice);
  // Neither the poster nor a writer: a signed-in stranger, and a site admin whose public-only token
  // does not carry admin rights (spec, token kinds).
  const stranger = await makeToken(env.srv.api, env.admin, ['public-only', 'write:issue']);
  for (const [token, what] of [
    [stranger, 'site admin, public-only token'],
    [outsider.token, 'stranger'],
  ] as const) {
    assert.is((await upload(base, token, { name: 'n.txt', data: 'n' })).status, 403, what);
    assert.is((await env.as(token, 'PATCH', `${base}/${a.json.id}`, { name: 'hacked' })).status, 403, what);
    assert.is((await env.as(token, 'DELETE', `${base}/${a.json.id}`)).status, 403, what);
  }
  assert.is(await countRows({ issueId: issue.id }), 1);
  assert.is((await env.as(alice, 'GET', `${base}/${a.json.id}`)).json.name, 'a.txt');

  assert.is(
    (await env.as(env.admin, 'PATCH', `${base}/${a.json.id}`, { name: 'by-admin.txt' })).status,
    201,
    'a site admin with a full token',
  );
  assert.is((await env.as(carol, 'PATCH', `${base}/${a.json.id}`, { name: 'by-writer.txt' })).status, 201);
  assert.is((await upload(base, carol.token, { name: 'w.txt', data: 'w' })).status, 201);

  // Attachments of another issue, or of a comment, are not this issue's.
  const foreign = await upload(`/repos/${repo.full_name}/issues/${other.index}/assets`, alice.token, { name: 'f.txt', data: 'f' });
  assert.is((await env.as(alice, 'GET', `${base}/${foreign.json.id}`)).status, 404);
  assert.is((await env.as(alice, 'DELETE', `${base}/${foreign.json.id}`)).status, 404);
  const comment = await newComment(repo, issue, alice);
  const onComment = await upload(`/repos/${repo.full_name}/issues/comments/${comment}/assets`, alice.token, { name: 'c.txt', data: 'c' });
  assert.is(onComment.status, 201, onComment.text);
  assert.is((await env.as(alice, 'GET', `${base}/${onComment.json.id}`)).status, 404);
  assert.equal(
    (await env.as(alice, 'GET', base)).json.map((x: any) => x.name),
    ['by-writer.txt', 'w.txt'],
  );
  assert.is((await env.as(alice, 'DELETE', `${base}/${onComment.json.id}`)).status, 404);
  assert.is(await countRows({ commentId: comment }), 1);
});

test('issue attachments: no readers of a private repository (404), no anonymous writes (401), disallowed types (422)', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice, { auto_init: true, private: true });
  await collaborator(repo, alice, bob, 'read');
  const issue = await newIssue(repo, alice);
  const base = `/repos/${repo.full_name}/issues/${issue.index}/assets`;
  const a = await upload(base, alice.token, { name: 'secret.txt', data: 'secret' });
  assert.is(a.status, 201, a.text);
  assert.is((await env.as(carol, 'GET', base)).status, 404);
  assert.is((await env.as(carol, 'GET', `${base}/${a.json.id}`)).status, 404);
  assert.is((await upload(base, carol.token, { name: 'x.txt', data: 'x' })).status, 404);
  assert.is((await upload(base, undefined, { name: 'x.txt', data: 'x' })).status, 404, 'anonymous callers cannot see the repository');
  assert.is((await download(a.json.browser_download_url, carol.token)).status, 404);
  assert.is((await download(a.json.browser_download_url)).status, 404);
  const read = await download(a.json.browser_download_url, bob.token);
  assert.is(read.status, 200, 'a reader downloads');
  const repoOnly = await makeToken(env.srv.api, bob, ['read:repository']);
  assert.is((await download(a.json.browser_download_url, repoOnly)).status, 403, 'an issue attachment needs read:issue');
  assert.is((await upload(base, bob.token, { name: 'y.txt', data: 'y' })).status, 403, 'a reader who did not post the issue');

  const pub = await newRepo(env, alice, { auto_init: true });
  const pi = await newIssue(pub, alice);
  const pbase = `/repos/${pub.full_name}/issues/${pi.index}/assets`;
  assert.is((await upload(pbase, undefined, { name: 'x.txt', data: 'x' })).status, 401);
  const rows = await countRows({ issueId: pi.id });
  const exe = await upload(pbase, alice.token, { name: 'setup.exe', data: 'MZ\0\0binary' });
  assert.is(exe.status, 422, exe.text);
  assert.match(exe.json.message, 'This file extension or type is not allowed to be uploaded. Type: application/octet-stream');
  const none = await upload(pbase, alice.token);
  assert.is(none.status, 422, none.text);
  assert.is((await env.as(alice, 'POST', pbase, { name: 'json.txt' })).status, 422);
  assert.is(await countRows({ issueId: pi.id }), rows);
  assert.is((await env.as(alice, 'GET', `/repos/${pub.full_name}/issues/999/assets`)).status, 404);
});

test('issue attachments: `updated_at` backdates the upload for repository admins only', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  await collaborator(repo, alice, bob, 'write');
  const issue = await newIssue(repo, bob);
  const base = `/repos/${repo.full_name}/issues/${issue.index}/assets`;
  const created = (await em().findOneOrFail(Issue, { id: issue.id })).createdAt;
  const when = new Date(Math.ceil(created.getTime() / 1000) * 1000 + 1000);
  if (when.getTime() > Date.now()) await new Promise((r) => setTimeout(r, when.getTime() - Date.now() + 10));
  const q = `updated_at=${encodeURIComponent(when.toISOString().replace('.000Z', 'Z'))}`;
  assert.is((await upload(base, bob.token, { name: 'a.txt', data: 'a' }, q)).status, 403, 'not a repository admin');
  assert.is((await upload(base, alice.token, { name: 'a.txt', data: 'a' }, 'updated_at=yesterday')).status, 422);
  assert.is(
    (await upload(base, alice.token, { name: 'a.txt', data: 'a' }, 'updated_at=2001-01-01T00:00:00Z')).status,
    403,
    'before the issue',
  );
  assert.is(await countRows({ issueId: issue.id }), 0);
  const ok = await upload(base, alice.token, { name: 'a.txt', data: 'a' }, q);
  assert.is(ok.status, 201, ok.text);
  assert.is(ok.json.created_at, when.toISOString().replace('.000Z', 'Z'));
  assert.is((await em().findOneOrFail(Issue, { id: issue.id })).updatedAt.getTime(), when.getTime());
});

test('comment attachments: the poster may always (spec), writers too, others 403; list, get, edit (201), delete', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  await collaborator(repo, alice, carol, 'write');
  const issue = await newIssue(repo, alice);
  const comment = await newComment(repo, issue, bob);
  const base = `/repos/${repo.full_name}/issues/comments/${comment}/assets`;
  assert.equal((await env.as(alice, 'GET', base)).json, []);

  const a = await upload(base, bob.token, { name: 'repro.txt', data: 'steps' });
  assert.is(a.status, 201, `the poster needs no write permission: ${a.text}`);
  valid('Attachment', a.json);
  const stranger = await makeToken(env.srv.api, env.admin, ['public-only', 'write:issue']);
  assert.is((await upload(base, stranger, { name: 'x.txt', data: 'x' })).status, 403);
  assert.is((await env.as(stranger, 'PATCH', `${base}/${a.json.id}`, { name: 'x' })).status, 403);
  assert.is((await env.as(stranger, 'DELETE', `${base}/${a.json.id}`)).status, 403);
  assert.is(await countRows({ commentId: comment }), 1);

  const w = await upload(base, carol.token, { name: 'writer.txt', data: 'w' });
  assert.is(w.status, 201, w.text);
  const list = await env.as(bob, 'GET', base);
  validList('Attachment', list);
  assert.equal(
    list.json.map((x: any) => x.name),
    ['repro.txt', 'writer.txt'],
  );
  assert.equal((await env.as(bob, 'GET', `${base}/${a.json.id}`)).json, a.json);
  const ed = await env.as(carol, 'PATCH', `${base}/${a.json.id}`, { name: 'repro-steps.txt' });
  assert.is(ed.status, 201, ed.text);
  assert.is(ed.json.name, 'repro-steps.txt');
  if (!pending('issueComments.get')) {
    const shown = await env.as(alice, 'GET', `/repos/${repo.full_name}/issues/comments/${comment}`);
    assert.equal(
      shown.json.assets.map((x: any) => x.name),
      ['repro-steps.txt', 'writer.txt'],
    );
  }

  const other = await newComment(repo, issue, alice);
  assert.is((await env.as(alice, 'GET', `/repos/${repo.full_name}/issues/comments/${other}/assets/${a.json.id}`)).status, 404);
  assert.is((await env.as(alice, 'DELETE', `/repos/${repo.full_name}/issues/comments/${other}/assets/${a.json.id}`)).status, 404);
  const issueLevel = await upload(`/repos/${repo.full_name}/issues/${issue.index}/assets`, alice.token, { name: 'i.txt', data: 'i' });
  assert.is((await env.as(alice, 'GET', `${base}/${issueLevel.json.id}`)).status, 404, 'an issue attachment is no comment attachment');

  assert.is((await env.as(bob, 'DELETE', `${base}/${a.json.id}`)).status, 204);
  assert.not.ok(fs.existsSync(fileOf(a.json.uuid)));
  assert.is((await env.as(alice, 'GET', `${base}/${a.json.id}`)).status, 404);
  assert.is((await env.as(alice, 'GET', `/repos/${repo.full_name}/issues/comments/999999/assets`)).status, 404);
});

test('attachments off: issue and comment attachment routes answer 404', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const issue = await newIssue(repo, alice);
  const comment = await newComment(repo, issue, alice);
  const off = await startServer(env.db, { ATTACHMENT__ENABLED: 'false' });
  try {
    for (const p of [
      `/repos/${repo.full_name}/issues/${issue.index}/assets`,
      `/repos/${repo.full_name}/issues/comments/${comment}/assets`,
    ]) {
      const r = await upload(p, alice.token, { name: 'a.txt', data: 'a' }, '', off.api);
      assert.is(r.status, 404, r.text);
    }
  } finally {
    await off.close();
  }
  assert.is(await countRows({ issueId: issue.id }), 0);
});

test.run();
