// Federation ([federation] ENABLED): NodeInfo, the ActivityStreams actors (instance, users,
// repositories) with their public keys, and the inboxes behind SIG — a Like of a repository stars it
// for the remote person, a Follow of a user follows them — as Forgejo's routers/api/v1/activitypub and
// services/federation do. The "remote" is a local HTTP server serving actors whose keys the test holds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, createPublicKey, createVerify } from 'node:crypto';
import { call, type Res } from '../helpers/client.ts';
import { startServer } from '../helpers/server.ts';
import { makeToken } from '../helpers/fixtures.ts';
import { newKeys, signedHeaders, startRemote, type RemoteKeys, type RemoteServer } from '../helpers/ap-remote.ts';
import { ActorKey, FederatedUser } from '../../model/federation.ts';
import { User } from '../../model/user.ts';
import { Star } from '../../model/star.ts';
import { Follow } from '../../model/social.ts';
import { Action, OpType } from '../../model/action.ts';
import { newRepo, setup, valid, type Env } from './repo-setup.ts';

let env: Env;
let remote: RemoteServer;
let keys: RemoteKeys;
let person: { id: string; keyId: string };
test.before(async () => {
  env = await setup({ FEDERATION__ENABLED: 'true', MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  remote = await startRemote();
  keys = newKeys();
  person = remote.actor('rita', keys);
});
test.after(async () => {
  await remote.close();
  await env.close();
});

const em = () => env.db.db.orm.em.fork();
const ap = (path: string) => `${env.srv.config.appUrl}api/v1/activitypub${path}`;

async function parse(r: Response): Promise<Res> {
  const text = await r.text();
  const json = (r.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : undefined;
  return { status: r.status, headers: r.headers, text, json };
}

/** A request signed by `who` (default: the remote person rita), as a remote server would send it. */
async function signed(method: string, path: string, o: { body?: unknown; by?: { keyId: string; keys: RemoteKeys } } = {}): Promise<Res> {
  const url = `${env.srv.api}${path}`;
  const body = o.body === undefined ? undefined : JSON.stringify(o.body);
  const by = o.by ?? { keyId: person.keyId, keys };
  const { host: _host, ...headers } = signedHeaders({ keyId: by.keyId, privateKeyPem: by.keys.privateKeyPem, method, url, body });
  return parse(
    await fetch(url, {
      method,
      body,
      headers: { ...headers, ...(body ? { 'content-type': 'application/activity+json' } : {}), accept: 'application/activity+json' },
    }),
  );
}

function isActivity(r: Res, type: string, id: string) {
  assert.is(r.status, 200, r.text);
  assert.match(r.headers.get('content-type') ?? '', /^application\/activity\+json/);
  valid('ActivityPub', r.json);
  assert.is(r.json['@context'], 'https://www.w3.org/ns/activitystreams', r.text);
  assert.is(r.json.type, type);
  assert.is(r.json.id, id);
}

function hasKey(r: Res, id: string) {
  assert.is(r.json.publicKey.id, `${id}#main-key`);
  assert.is(r.json.publicKey.owner, id);
  assert.is(createPublicKey(r.json.publicKey.publicKeyPem).asymmetricKeyType, 'rsa');
}

test("GET /nodeinfo: NodeInfo 2.1 with the instance's numbers", async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true });
  const issue = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues`, { title: 'one' });
  assert.is(issue.status, 201, issue.text);
  assert.is((await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues`, { title: 'two' })).status, 201);
  assert.is((await env.as(env.bob, 'POST', `/repos/${repo.full_name}/issues/1/comments`, { body: 'hi' })).status, 201);
  const e = em();
  const now = Date.now();
  await e.nativeUpdate(User, { id: env.alice.id }, { lastLoginAt: new Date(now - 24 * 3600e3) });
  await e.nativeUpdate(User, { id: env.bob.id }, { lastLoginAt: new Date(now - 90 * 24 * 3600e3) });
  await e.nativeUpdate(User, { id: env.carol.id }, { lastLoginAt: new Date(now - 300 * 24 * 3600e3) });
  const users = await e.count(User, { type: 0 });
  const posts = await e.getConnection().execute('select count(*)::int as n from issue');
  const comments = await e.getConnection().execute('select count(*)::int as n from comment');

  const r = await call(env.srv.api, 'GET', '/nodeinfo');
  assert.is(r.status, 200, r.text);
  valid('NodeInfo', r.json);
  assert.is(r.json.version, '2.1');
  assert.equal(r.json.protocols, ['activitypub']);
  assert.is(r.json.software.name, 'forgejo');
  assert.type(r.json.software.version, 'string');
  assert.ok(r.json.software.repository && r.json.software.homepage);
  assert.equal(r.json.services, { inbound: [], outbound: ['rss2.0'] });
  assert.is(r.json.openRegistrations, false);
  assert.equal(r.json.metadata, {});
  assert.equal(r.json.usage, {
    users: { total: users, activeHalfyear: 2, activeMonth: 1 },
    localPosts: posts[0].n,
    localComments: comments[0].n,
  });
  assert.ok(posts[0].n >= 2 && comments[0].n >= 1);
});

test('GET /activitypub/actor: the instance actor, unsigned, with a stable key sealed at rest', async () => {
  const r = await call(env.srv.api, 'GET', '/activitypub/actor');
  isActivity(r, 'Application', ap('/actor'));
  hasKey(r, ap('/actor'));
  assert.is(r.json.inbox, ap('/actor/inbox'));
  assert.is(r.json.outbox, ap('/actor/outbox'));
  assert.is(r.json.preferredUsername, 'ghost');
  const again = await call(env.srv.api, 'GET', '/activitypub/actor');
  assert.is(again.json.publicKey.publicKeyPem, r.json.publicKey.publicKeyPem, 'the key pair is made once');
  const row = await em().findOneOrFail(ActorKey, { userId: 0 }, { populate: ['privateKeySealed'] });
  assert.not.match(row.privateKeySealed, /PRIVATE KEY/);
  assert.match(row.privateKeySealed, /^v1\./);
});

test('GET /activitypub/user-id/{id}: SIG, then a Person with its own key', async () => {
  assert.is((await call(env.srv.api, 'GET', `/activitypub/user-id/${env.alice.id}`)).status, 401);
  const r = await signed('GET', `/activitypub/user-id/${env.alice.id}`);
  const id = ap(`/user-id/${env.alice.id}`);
  isActivity(r, 'Person', id);
  hasKey(r, id);
  assert.is(r.json.preferredUsername, env.alice.name);
  assert.is(r.json.inbox, `${id}/inbox`);
  assert.is(r.json.url, `${env.srv.config.appUrl}${env.alice.name}`);
  const bob = await signed('GET', `/activitypub/user-id/${env.bob.id}`);
  assert.is.not(bob.json.publicKey.publicKeyPem, r.json.publicKey.publicKeyPem, 'each user has a key pair');
  assert.is((await signed('GET', '/activitypub/user-id/99999999')).status, 404);
  // The remote person's local stand-in is no local actor.
  const standIn = await em().findOneOrFail(FederatedUser, { externalId: person.id });
  assert.is((await signed('GET', `/activitypub/user-id/${standIn.userId}`)).status, 404);
});

test('the key a user actor publishes verifies what cairn signs with it', async () => {
  // cairn signed its fetch of rita with the instance key; that signature checks against /activitypub/actor.
  const fetched = remote.seen.find((x) => x.path === '/users/rita');
  assert.ok(fetched, 'cairn fetched the remote actor');
  const sig = /keyId="([^"]+)",algorithm="rsa-sha256",headers="([^"]+)",signature="([^"]+)"/.exec(String(fetched.headers.signature));
  assert.ok(sig, String(fetched.headers.signature));
  assert.is(sig[1], ap('/actor#main-key'));
  const text = sig[2]
    .split(' ')
    .map((h) => (h === '(request-target)' ? `(request-target): get ${fetched.path}` : `${h}: ${fetched.headers[h]}`))
    .join('\n');
  const pem = (await call(env.srv.api, 'GET', '/activitypub/actor')).json.publicKey.publicKeyPem;
  assert.ok(createVerify('sha256').update(text).verify(pem, sig[3], 'base64'));
});

test('GET /activitypub/repository-id/{id}: a Repository; private ones are absent', async () => {
  const repo = await newRepo(env, env.alice);
  const r = await signed('GET', `/activitypub/repository-id/${repo.id}`);
  isActivity(r, 'Repository', ap(`/repository-id/${repo.id}`));
  assert.is(r.json.name, repo.name);
  const priv = await newRepo(env, env.alice, { private: true });
  assert.is((await signed('GET', `/activitypub/repository-id/${priv.id}`)).status, 404);
  assert.is((await call(env.srv.api, 'GET', `/activitypub/repository-id/${repo.id}`)).status, 401);
});

test('outboxes are empty ordered collections (SIG)', async () => {
  const repo = await newRepo(env, env.alice);
  for (const [path, actor] of [
    ['/activitypub/actor/outbox', ap('/actor')],
    [`/activitypub/user-id/${env.alice.id}/outbox`, ap(`/user-id/${env.alice.id}`)],
    [`/activitypub/repository-id/${repo.id}/outbox`, ap(`/repository-id/${repo.id}`)],
  ]) {
    assert.is((await call(env.srv.api, 'GET', path)).status, 401, path);
    const r = await signed('GET', path);
    isActivity(r, 'OrderedCollection', `${actor}/outbox`);
    assert.is(r.json.totalItems, 0);
    assert.equal(r.json.orderedItems, []);
  }
});

/** alice's own row of her newest activity of `op` in repository `repoId`. */
async function ownActivity(userId: number, repoId: number, op: keyof typeof OpType) {
  const [a] = await em().find(Action, { userId, actUserId: userId, repoId, opType: OpType[op] }, { orderBy: { id: 'desc' }, limit: 1 });
  assert.ok(a, `no ${op} activity`);
  return a;
}

test("GET .../activities/{id} and .../activity: the Note and the Create of a user's own public activity", async () => {
  const repo = await newRepo(env, env.alice);
  const a = await ownActivity(env.alice.id, repo.id, 'create_repo');
  const actor = ap(`/user-id/${env.alice.id}`);
  const noteId = `${actor}/activities/${a.id}`;
  const repoUrl = `${env.srv.config.appUrl}${repo.full_name}`;

  const note = await signed('GET', `/activitypub/user-id/${env.alice.id}/activities/${a.id}`);
  isActivity(note, 'Note', noteId);
  assert.is(note.json.attributedTo, actor);
  assert.is(note.json.url, noteId);
  assert.equal(note.json.to, ['https://www.w3.org/ns/activitystreams#Public']);
  assert.equal(note.json.cc, [`${actor}/followers`]);
  assert.is(
    note.json.content,
    `<a href="${env.srv.config.appUrl}${env.alice.name}" rel="nofollow">${env.alice.name}</a> created a new repository: <a href="${repoUrl}" rel="nofollow">${repo.full_name}</a>`,
  );
  assert.is(note.json.published, a.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'));

  const create = await signed('GET', `/activitypub/user-id/${env.alice.id}/activities/${a.id}/activity`);
  isActivity(create, 'Create', `${noteId}/activity`);
  assert.is(create.json.actor, actor);
  assert.is(create.json.published, note.json.published);
  assert.equal(create.json.to, note.json.to);
  assert.equal(create.json.cc, note.json.cc);
  const { '@context': _c, ...object } = note.json;
  assert.equal(create.json.object, object, 'the activity carries the note');

  // Signed as every user route: no signature is 401.
  for (const path of [
    `/activitypub/user-id/${env.alice.id}/activities/${a.id}`,
    `/activitypub/user-id/${env.alice.id}/activities/${a.id}/activity`,
  ]) {
    const r = await call(env.srv.api, 'GET', path);
    assert.is(r.status, 401, r.text);
  }
});

test('GET .../activities/{id}: issues, comments (rendered, escaped) and pushes say what happened', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true });
  const issue = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues`, { title: 'a <b>bold</b> claim' });
  assert.is(issue.status, 201, issue.text);
  const comment = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues/${issue.json.number}/comments`, {
    body: 'see **this** <script>x</script>',
  });
  assert.is(comment.status, 201, comment.text);
  const repoUrl = `${env.srv.config.appUrl}${repo.full_name}`;
  const issueLink = `<a href="${repoUrl}/issues/${issue.json.number}" rel="nofollow">${repo.full_name}#${issue.json.number}</a>`;
  const contentOf = async (op: keyof typeof OpType) => {
    const a = await ownActivity(env.alice.id, repo.id, op);
    const r = await signed('GET', `/activitypub/user-id/${env.alice.id}/activities/${a.id}`);
    isActivity(r, 'Note', ap(`/user-id/${env.alice.id}/activities/${a.id}`));
    return r.json.content as string;
  };
  assert.ok((await contentOf('create_issue')).endsWith(` opened issue ${issueLink}`));
  const said = await contentOf('comment_issue');
  assert.ok(
    said.includes(
      `<a href="${repoUrl}/issues/${issue.json.number}#issuecomment-${comment.json.id}" rel="nofollow">commented</a> on ${issueLink}: <blockquote>`,
    ),
    said,
  );
  assert.ok(said.includes('<strong>this</strong>'), said);
  assert.not.match(said, /<script>/);
  assert.ok(said.includes('&lt;script&gt;'), said);

  // A push names its branch and commits (the commit message escaped).
  const file = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/contents/notes.txt`, {
    content: Buffer.from('hi').toString('base64'),
    message: 'add <notes>',
  });
  assert.is(file.status, 201, file.text);
  const pushed = await contentOf('commit_repo');
  assert.ok(
    pushed.includes(
      `pushed to <a href="${repoUrl}/src/branch/${repo.default_branch}" rel="nofollow">${repo.default_branch}</a> at <a href="${repoUrl}" rel="nofollow">${repo.full_name}</a>: <ul>`,
    ),
    pushed,
  );
  assert.ok(
    pushed.includes(
      `<a href="${repoUrl}/commit/${file.json.commit.sha}" rel="nofollow">${file.json.commit.sha}</a> <pre>add &lt;notes&gt;`,
    ),
    pushed,
  );
});

test('GET .../activities/{id}: what a remote may not read is absent (404)', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  assert.is((await env.as(bob, 'PUT', `/repos/${repo.full_name}/subscription`)).status, 200);
  const issue = await env.as(alice, 'POST', `/repos/${repo.full_name}/issues`, { title: 'watched' });
  assert.is(issue.status, 201, issue.text);
  const own = await ownActivity(alice.id, repo.id, 'create_issue');
  const [bobsCopy] = await em().find(Action, { userId: bob.id, repoId: repo.id, opType: OpType.create_issue });
  assert.ok(bobsCopy, 'bob, watching, has a copy');
  const priv = await newRepo(env, alice, { private: true });
  const hidden = await ownActivity(alice.id, priv.id, 'create_repo');
  const get = (userId: number, id: number | string, tail = '') => signed('GET', `/activitypub/user-id/${userId}/activities/${id}${tail}`);

  assert.is((await get(alice.id, own.id)).status, 200);
  const absent: [string, number, number | string][] = [
    ["another user's activity", bob.id, own.id],
    ["a watcher's copy, under the watcher", bob.id, bobsCopy.id],
    ["a watcher's copy, under the actor", alice.id, bobsCopy.id],
    ["a private repository's activity", alice.id, hidden.id],
    ['no such activity', alice.id, 99999999],
    ['not a number', alice.id, 'abc'],
  ];
  for (const [name, userId, id] of absent) {
    for (const tail of ['', '/activity']) {
      const r = await get(userId, id, tail);
      assert.is(r.status, 404, `${name}${tail}: ${r.text}`);
      valid('APINotFound', r.json);
    }
  }
  // A repository made private later hides what happened in it before.
  assert.is((await env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { private: true })).status, 200);
  assert.is((await get(alice.id, own.id)).status, 404);
  assert.is((await env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { private: false })).status, 200);
  // So do a user who keeps their activity private and a user who is not public.
  const e = em();
  await e.nativeUpdate(User, { id: alice.id }, { hideActivity: true });
  assert.is((await get(alice.id, own.id)).status, 404);
  await e.nativeUpdate(User, { id: alice.id }, { hideActivity: false, visibility: 'limited' });
  assert.is((await get(alice.id, own.id, '/activity')).status, 404);
  await e.nativeUpdate(User, { id: alice.id }, { visibility: 'public' });
  assert.is((await get(alice.id, own.id, '/activity')).status, 200);
});

const like = (repoId: number, startTime: string, actor = person.id) => ({
  '@context': 'https://www.w3.org/ns/activitystreams',
  type: 'Like',
  actor,
  object: ap(`/repository-id/${repoId}`),
  startTime,
});

test('POST repository inbox: a signed Like stars the repository once; replays and impostors are refused', async () => {
  const repo = await newRepo(env, env.alice);
  const inbox = `/activitypub/repository-id/${repo.id}/inbox`;
  const t0 = new Date(Date.now() + 1000).toISOString();
  const r = await signed('POST', inbox, { body: like(repo.id, t0) });
  assert.is(r.status, 204, r.text);
  const standIn = await em().findOneOrFail(FederatedUser, { externalId: person.id });
  assert.is(await em().count(Star, { repoId: repo.id, uid: standIn.userId }), 1);
  assert.is((await env.as(env.alice, 'GET', `/repos/${repo.full_name}`)).json.stars_count, 1);

  const refusals: [string, unknown, number][] = [
    ['the same activity again', like(repo.id, t0), 406],
    ['an older activity', like(repo.id, new Date(Date.now() - 3600e3).toISOString()), 406],
    ['an actor who did not sign', like(repo.id, new Date(Date.now() + 5000).toISOString(), `${remote.base}/users/someone`), 406],
    [
      'another repository as object',
      { ...like(repo.id, new Date(Date.now() + 6000).toISOString()), object: ap('/repository-id/99999') },
      406,
    ],
    ['no startTime', { ...like(repo.id, ''), startTime: undefined }, 406],
    ['a type the repository inbox does not take', { ...like(repo.id, new Date(Date.now() + 7000).toISOString()), type: 'Follow' }, 406],
  ];
  for (const [name, body, status] of refusals) {
    const x = await signed('POST', inbox, { body });
    assert.is(x.status, status, `${name}: ${x.text}`);
    valid('APIError', x.json);
  }
  assert.is(await em().count(Star, { repoId: repo.id }), 1, 'nothing else starred');
  // A later Like of another repository by the same person is processed.
  const other = await newRepo(env, env.bob);
  assert.is(
    (
      await signed('POST', `/activitypub/repository-id/${other.id}/inbox`, {
        body: like(other.id, new Date(Date.now() + 10_000).toISOString()),
      })
    ).status,
    204,
  );
  assert.is(await em().count(Star, { repoId: other.id, uid: standIn.userId }), 1);
});

test('POST inboxes: unsigned is 401, forged is 403, and nothing is written', async () => {
  const repo = await newRepo(env, env.alice);
  const inbox = `/activitypub/repository-id/${repo.id}/inbox`;
  const body = like(repo.id, new Date(Date.now() + 60_000).toISOString());
  const unsigned = await call(env.srv.api, 'POST', inbox, { body });
  assert.is(unsigned.status, 401, unsigned.text);
  const forged = await signed('POST', inbox, { body, by: { keyId: person.keyId, keys: newKeys() } });
  assert.is(forged.status, 403, forged.text);
  // A valid signature over another body: the digest no longer matches.
  const url = `${env.srv.api}${inbox}`;
  const { host: _h, ...headers } = signedHeaders({
    keyId: person.keyId,
    privateKeyPem: keys.privateKeyPem,
    method: 'POST',
    url,
    body: JSON.stringify(body),
  });
  const tampered = await parse(
    await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ ...body, object: ap('/repository-id/1') }),
      headers: { ...headers, 'content-type': 'application/activity+json' },
    }),
  );
  assert.is(tampered.status, 403, tampered.text);
  assert.is(await em().count(Star, { repoId: repo.id }), 0);
  for (const path of ['/activitypub/actor/inbox', `/activitypub/user-id/${env.alice.id}/inbox`]) {
    assert.is((await call(env.srv.api, 'POST', path, { body: { type: 'Follow' } })).status, 401, path);
  }
});

test('POST user inbox: Follow (202, then 204), Undo; the follower count follows', async () => {
  const inbox = `/activitypub/user-id/${env.carol.id}/inbox`;
  const target = ap(`/user-id/${env.carol.id}`);
  const followActivity = {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${person.id}#follows/1`,
    type: 'Follow',
    actor: person.id,
    object: target,
  };
  const r = await signed('POST', inbox, { body: followActivity });
  assert.is(r.status, 202, r.text);
  assert.equal(r.json, { status: 'Accepted' });
  const standIn = await em().findOneOrFail(FederatedUser, { externalId: person.id });
  assert.is(await em().count(Follow, { userId: standIn.userId, followId: env.carol.id }), 1);
  assert.is((await env.as(env.carol, 'GET', '/user')).json.followers_count, 1);
  assert.is((await signed('POST', inbox, { body: followActivity })).status, 204, 'already following');
  assert.is(await em().count(Follow, { followId: env.carol.id }), 1);

  assert.is(
    (await signed('POST', inbox, { body: { ...followActivity, object: ap(`/user-id/${env.bob.id}`) } })).status,
    406,
    'a Follow of someone else',
  );
  assert.is((await signed('POST', inbox, { body: { ...followActivity, type: 'Create' } })).status, 406, 'unsupported type');
  assert.is(
    (await signed('POST', inbox, { body: { ...followActivity, actor: `${remote.base}/users/x` } })).status,
    406,
    'actor is not the signer',
  );

  const undo = await signed('POST', inbox, { body: { type: 'Undo', actor: person.id, object: followActivity } });
  assert.is(undo.status, 204, undo.text);
  assert.is(await em().count(Follow, { followId: env.carol.id }), 0);
  assert.is((await env.as(env.carol, 'GET', '/user')).json.followers_count, 0);
});

test('POST /activitypub/actor/inbox: a signed activity is taken (204), as Forgejo does', async () => {
  const r = await signed('POST', '/activitypub/actor/inbox', { body: { type: 'Follow', actor: person.id, object: ap('/actor') } });
  assert.is(r.status, 204, r.text);
});

test("an instance actor's signature is accepted, but it cannot speak for a person", async () => {
  const instKeys = newKeys();
  const inst = remote.actor('instance', instKeys, 'Application');
  const repo = await newRepo(env, env.alice);
  assert.is((await signed('GET', `/activitypub/repository-id/${repo.id}`, { by: { keyId: inst.keyId, keys: instKeys } })).status, 200);
  const r = await signed('POST', `/activitypub/repository-id/${repo.id}/inbox`, {
    body: like(repo.id, new Date(Date.now() + 120_000).toISOString()),
    by: { keyId: inst.keyId, keys: instKeys },
  });
  assert.is(r.status, 406, r.text);
  assert.is(await em().count(Star, { repoId: repo.id }), 0);
});

test("a public-only token cannot reach a private user's actor (403)", async () => {
  const e = em();
  await e.nativeUpdate(User, { id: env.bob.id }, { visibility: 'private' });
  const token = await makeToken(env.srv.api, env.alice, ['public-only', 'read:activitypub']);
  const url = `${env.srv.api}/activitypub/user-id/${env.bob.id}`;
  const { host: _h, ...headers } = signedHeaders({ keyId: person.keyId, privateKeyPem: keys.privateKeyPem, method: 'GET', url });
  const r = await parse(await fetch(url, { headers: { ...headers, authorization: `token ${token}` } }));
  assert.is(r.status, 403, r.text);
  await e.nativeUpdate(User, { id: env.bob.id }, { visibility: 'public' });
});

test('POST /user/activitypub/follow: a signed Follow reaches the remote inbox; its Accept makes the follow', async () => {
  const before = remote.seen.length;
  const r = await env.as(env.alice, 'POST', '/user/activitypub/follow', { target: person.id });
  assert.is(r.status, 204, r.text);
  const sent = remote.seen.slice(before).find((x) => x.method === 'POST' && x.path === '/users/rita/inbox');
  assert.ok(sent, 'the Follow was delivered');
  const me = ap(`/user-id/${env.alice.id}`);
  const activity = JSON.parse(sent.body);
  assert.is(activity.type, 'Follow');
  assert.is(activity.actor, me);
  assert.is(activity.object, person.id);
  assert.match(String(sent.headers['content-type']), /application\/activity\+json/);
  // Signed by alice's key, as her actor publishes it, over the body's digest.
  const sig = /keyId="([^"]+)",algorithm="rsa-sha256",headers="([^"]+)",signature="([^"]+)"/.exec(String(sent.headers.signature));
  assert.ok(sig, String(sent.headers.signature));
  assert.is(sig[1], `${me}#main-key`);
  assert.ok(sig[2].split(' ').includes('digest'));
  assert.is(sent.headers.digest, `SHA-256=${createHash('sha256').update(sent.body).digest('base64')}`);
  const text = sig[2]
    .split(' ')
    .map((h) => (h === '(request-target)' ? `(request-target): post ${sent.path}` : `${h}: ${sent.headers[h]}`))
    .join('\n');
  const pem = (await signed('GET', `/activitypub/user-id/${env.alice.id}`)).json.publicKey.publicKeyPem;
  assert.ok(createVerify('sha256').update(text).verify(pem, sig[3], 'base64'), "the signature verifies with alice's published key");

  const standIn = await em().findOneOrFail(FederatedUser, { externalId: person.id });
  assert.is(await em().count(Follow, { userId: env.alice.id, followId: standIn.userId }), 0, 'not following before the Accept');
  const accept = await signed('POST', `/activitypub/user-id/${env.alice.id}/inbox`, {
    body: { type: 'Accept', actor: person.id, object: activity },
  });
  assert.is(accept.status, 204, accept.text);
  assert.is(await em().count(Follow, { userId: env.alice.id, followId: standIn.userId }), 1);
  assert.is((await env.as(env.alice, 'GET', '/user')).json.following_count, 1);
  // An Accept of a Follow someone else sent changes nothing.
  const forOther = await signed('POST', `/activitypub/user-id/${env.bob.id}/inbox`, {
    body: { type: 'Accept', actor: person.id, object: activity },
  });
  assert.is(forOther.status, 406, forOther.text);
  assert.is(await em().count(Follow, { userId: env.bob.id }), 0);
});

test('POST /user/activitypub/follow: bad targets and unreachable remotes are refused', async () => {
  assert.is((await env.as(undefined, 'POST', '/user/activitypub/follow', { target: person.id })).status, 401);
  assert.is((await env.as(env.bob, 'POST', '/user/activitypub/follow', {})).status, 422);
  for (const target of ['not a url', 'ftp://127.0.0.1/x', `${remote.base}/users/nobody`]) {
    const r = await env.as(env.bob, 'POST', '/user/activitypub/follow', { target });
    assert.is(r.status, 406, `${target}: ${r.text}`);
  }
  remote.inboxStatus = 500;
  try {
    const r = await env.as(env.bob, 'POST', '/user/activitypub/follow', { target: person.id });
    assert.is(r.status, 406, r.text);
  } finally {
    remote.inboxStatus = 202;
  }
  // Without [migrations] ALLOW_LOCALNETWORKS the loopback remote is out of reach: nothing is fetched.
  const strict = await startServer(env.db, { FEDERATION__ENABLED: 'true' });
  try {
    const before = remote.seen.length;
    const r = await call(strict.api, 'POST', '/user/activitypub/follow', { token: env.bob.token, body: { target: person.id } });
    assert.is(r.status, 406, r.text);
    assert.is(remote.seen.length, before);
  } finally {
    await strict.close();
  }
});

test('[federation] ENABLED off: the routes do not exist', async () => {
  const off = await startServer(env.db, { MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  try {
    for (const [method, path] of [
      ['GET', '/nodeinfo'],
      ['GET', '/activitypub/actor'],
      ['POST', '/activitypub/actor/inbox'],
      ['GET', `/activitypub/user-id/${env.alice.id}`],
      ['POST', `/activitypub/user-id/${env.alice.id}/inbox`],
      ['POST', '/user/activitypub/follow'],
    ]) {
      const r = await call(off.api, method, path, { token: env.alice.token, body: method === 'POST' ? {} : undefined });
      assert.is(r.status, 404, `${method} ${path}`);
    }
  } finally {
    await off.close();
  }
});

test.run();
