// Git over SSH with the real OpenSSH client and git: clone and push with a user's key, protected
// branches, deploy keys (read-only and read-write), unknown keys, callers without access, commands
// other than git's, malformed input, and the key's last use (Forgejo cmd/serv.go,
// routers/private/serv.go, modules/ssh/ssh.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { makeRepo, makeUser, type TestUser } from '../helpers/fixtures.ts';
import { commitFiles, mustGit, workDir } from '../helpers/git-cli.ts';
import { gitOverSsh, makeKeyPair, run, scpUrl, sshOptions, startSsh, type KeyPair } from '../helpers/ssh.ts';
import { hostKeyFile } from '../../lib/transport/ssh-host-key.ts';
import type { RunningSsh } from '../../transports/git-ssh.ts';
import { requireTools } from '../helpers/tools.ts';

requireTools('ssh', 'ssh-keygen');

let db: TestDb;
let srv: TestServer;
let ssh: RunningSsh;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let tmp: string;
const keys: Record<string, KeyPair> = {};

const api = (method: string, p: string, o: { token?: string; body?: unknown } = {}) => call(srv.api, method, p, o);
const dir = (name: string) => path.join(tmp, name);
const head = (owner: string, repo: string, ref: string) =>
  mustGit(
    null,
    `--git-dir=${path.join(srv.config.repoRoot, owner.toLowerCase(), `${repo}.git`)}`,
    'rev-parse',
    '--verify',
    '--quiet',
    ref,
  ).catch(() => null);
const g = (key: KeyPair, args: string[], cwd?: string) => gitOverSsh(key, ssh.port, args, cwd);
const sshRun = (key: KeyPair, command: string, input?: string) =>
  run('ssh', [...sshOptions(key, ssh.port), 'git@127.0.0.1', command], { input });

async function addUserKey(u: TestUser, key: KeyPair): Promise<number> {
  const r = await api('POST', '/user/keys', { token: u.token, body: { title: path.basename(key.file), key: key.publicKey } });
  assert.is(r.status, 201, r.text);
  return r.json.id;
}

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  ssh = await startSsh(db, srv);
  alice = await makeUser(db, srv.api);
  bob = await makeUser(db, srv.api);
  carol = await makeUser(db, srv.api);
  tmp = workDir();
  fs.mkdirSync(path.join(tmp, 'keys'));
  for (const k of ['alice', 'bob', 'carol', 'stranger', 'deployRo', 'deployRw']) keys[k] = await makeKeyPair(path.join(tmp, 'keys'), k);
  await addUserKey(alice, keys.alice);
  await addUserKey(bob, keys.bob);
  await addUserKey(carol, keys.carol);
  await makeRepo(srv.api, alice, { name: 'priv', auto_init: true, private: true });
  await makeRepo(srv.api, alice, { name: 'pub', auto_init: true });
});
test.after(async () => {
  await ssh.close();
  await srv.close();
  await db.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('the host key is generated once into the data directory, readable by the owner only', async () => {
  const file = hostKeyFile(srv.config.dataPath);
  assert.is(fs.statSync(file).mode & 0o777, 0o600);
  assert.match(fs.readFileSync(file, 'utf8'), '-----BEGIN OPENSSH PRIVATE KEY-----');
  // A second server on the same data directory presents the same key.
  const before = fs.readFileSync(file, 'utf8');
  const again = await startSsh(db, srv);
  await again.close();
  assert.is(fs.readFileSync(file, 'utf8'), before);
});

test('the owner clones a private repository with protocol v2 and v0, scp-like and ssh:// URLs', async () => {
  const v2 = await g(keys.alice, ['-c', 'protocol.version=2', 'clone', '-q', scpUrl(alice.name, 'priv'), dir('priv-v2')]);
  assert.is(v2.code, 0, v2.stderr);
  const v0 = await g(keys.alice, [
    '-c',
    'protocol.version=0',
    'clone',
    '-q',
    `ssh://git@127.0.0.1:${ssh.port}/${alice.name}/priv`,
    dir('priv-v0'),
  ]);
  assert.is(v0.code, 0, v0.stderr);
  assert.is(fs.readFileSync(path.join(dir('priv-v2'), 'README.md'), 'utf8'), '# priv\n\n');
  assert.is(await mustGit(dir('priv-v0'), 'rev-parse', 'HEAD'), await head(alice.name, 'priv', 'refs/heads/main'));
});

test('a push over SSH lands, the API sees it at once, and the key records its use', async () => {
  const before = (await api('GET', '/user/keys', { token: alice.token })).json[0].updated_at;
  await new Promise((r) => setTimeout(r, 1100));
  await g(keys.alice, ['clone', '-q', scpUrl(alice.name, 'priv'), dir('priv-push')]);
  const sha = await commitFiles(dir('priv-push'), { 'ssh.txt': 'over ssh\n' }, 'over ssh');
  const pushed = await g(keys.alice, ['push', '-q', 'origin', 'HEAD:main', 'HEAD:refs/heads/feature'], dir('priv-push'));
  assert.is(pushed.code, 0, pushed.stderr);
  assert.is(await head(alice.name, 'priv', 'refs/heads/main'), sha);
  const branch = await api('GET', `/repos/${alice.name}/priv/branches/feature`, { token: alice.token });
  assert.is(branch.status, 200);
  assert.is(branch.json.commit.id, sha);
  const after = (await api('GET', '/user/keys', { token: alice.token })).json[0].updated_at;
  assert.ok(Date.parse(after) > Date.parse(before), `${before} -> ${after}`);
});

test('a push to a protected branch is refused by the same pre-receive check as over HTTP', async () => {
  await makeRepo(srv.api, alice, { name: 'guarded', auto_init: true });
  await api('PUT', `/repos/${alice.name}/guarded/collaborators/${bob.name}`, { token: alice.token, body: { permission: 'write' } });
  const rule = await api('POST', `/repos/${alice.name}/guarded/branch_protections`, {
    token: alice.token,
    body: { rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [alice.name] },
  });
  assert.is(rule.status, 201);
  await g(keys.bob, ['clone', '-q', scpUrl(alice.name, 'guarded'), dir('g-bob')]);
  await commitFiles(dir('g-bob'), { 'b.txt': 'bob\n' }, 'bob');
  const start = await head(alice.name, 'guarded', 'refs/heads/main');
  const denied = await g(keys.bob, ['push', 'origin', 'HEAD:main'], dir('g-bob'));
  assert.is.not(denied.code, 0);
  assert.match(denied.stderr, 'Not allowed to push to protected branch main');
  assert.is(await head(alice.name, 'guarded', 'refs/heads/main'), start);
  // Another branch is fine for a writer.
  assert.is((await g(keys.bob, ['push', '-q', 'origin', 'HEAD:refs/heads/bob-work'], dir('g-bob'))).code, 0);
});

test('a read-only deploy key clones but cannot push; a read-write one pushes; neither reaches another private repository', async () => {
  await makeRepo(srv.api, alice, { name: 'deployed', auto_init: true, private: true });
  const ro = await api('POST', `/repos/${alice.name}/deployed/keys`, {
    token: alice.token,
    body: { title: 'ro', key: keys.deployRo.publicKey, read_only: true },
  });
  assert.is(ro.status, 201, ro.text);
  const rw = await api('POST', `/repos/${alice.name}/deployed/keys`, {
    token: alice.token,
    body: { title: 'rw', key: keys.deployRw.publicKey, read_only: false },
  });
  assert.is(rw.status, 201, rw.text);
  assert.is((await g(keys.deployRo, ['clone', '-q', scpUrl(alice.name, 'deployed'), dir('d-ro')])).code, 0);
  await commitFiles(dir('d-ro'), { 'ro.txt': 'ro\n' }, 'ro');
  const start = await head(alice.name, 'deployed', 'refs/heads/main');
  const refused = await g(keys.deployRo, ['push', 'origin', 'HEAD:main'], dir('d-ro'));
  assert.is.not(refused.code, 0);
  assert.match(refused.stderr, `Deploy Key: ${ro.json.id}:ro is not authorized to write`);
  assert.is(await head(alice.name, 'deployed', 'refs/heads/main'), start);

  assert.is((await g(keys.deployRw, ['clone', '-q', scpUrl(alice.name, 'deployed'), dir('d-rw')])).code, 0);
  const sha = await commitFiles(dir('d-rw'), { 'rw.txt': 'rw\n' }, 'rw');
  const ok = await g(keys.deployRw, ['push', '-q', 'origin', 'HEAD:main'], dir('d-rw'));
  assert.is(ok.code, 0, ok.stderr);
  assert.is(await head(alice.name, 'deployed', 'refs/heads/main'), sha);

  const other = await g(keys.deployRw, ['clone', '-q', scpUrl(alice.name, 'priv'), dir('d-other')]);
  assert.is.not(other.code, 0);
  assert.match(other.stderr, 'cairn: Repository not found');
  // A public repository is readable with any key, as anonymously over HTTP; writing is not.
  assert.is((await g(keys.deployRw, ['clone', '-q', scpUrl(alice.name, 'pub'), dir('d-pub')])).code, 0);
  await commitFiles(dir('d-pub'), { 'x.txt': 'x\n' }, 'x');
  const pubPush = await g(keys.deployRw, ['push', 'origin', 'HEAD:main'], dir('d-pub'));
  assert.is.not(pubPush.code, 0);
});

test('a deploy key pushes to a protected branch only when the rule admits deploy keys', async () => {
  await makeRepo(srv.api, alice, { name: 'dk-guarded', auto_init: true, private: true });
  const key = await makeKeyPair(path.join(tmp, 'keys'), 'dk-guarded');
  assert.is(
    (
      await api('POST', `/repos/${alice.name}/dk-guarded/keys`, {
        token: alice.token,
        body: { title: 'ci', key: key.publicKey, read_only: false },
      })
    ).status,
    201,
  );
  const rule = await api('POST', `/repos/${alice.name}/dk-guarded/branch_protections`, {
    token: alice.token,
    body: {
      rule_name: 'main',
      enable_push: true,
      enable_push_whitelist: true,
      push_whitelist_usernames: [alice.name],
      push_whitelist_deploy_keys: false,
    },
  });
  assert.is(rule.status, 201, rule.text);
  await g(key, ['clone', '-q', scpUrl(alice.name, 'dk-guarded'), dir('dkg')]);
  const sha = await commitFiles(dir('dkg'), { 'ci.txt': 'ci\n' }, 'ci');
  const refused = await g(key, ['push', 'origin', 'HEAD:main'], dir('dkg'));
  assert.is.not(refused.code, 0);
  assert.match(refused.stderr, 'Not allowed to push to protected branch main');
  const edit = await api('PATCH', `/repos/${alice.name}/dk-guarded/branch_protections/main`, {
    token: alice.token,
    body: { enable_push: true, enable_push_whitelist: true, push_whitelist_deploy_keys: true },
  });
  assert.is(edit.status, 200, edit.text);
  const ok = await g(key, ['push', 'origin', 'HEAD:main'], dir('dkg'));
  assert.is(ok.code, 0, ok.stderr);
  assert.is(await head(alice.name, 'dk-guarded', 'refs/heads/main'), sha);
});

test('an unknown key is refused at sign-in', async () => {
  const r = await g(keys.stranger, ['clone', '-q', scpUrl(alice.name, 'pub'), dir('stranger')]);
  assert.is.not(r.code, 0);
  assert.match(r.stderr, 'Permission denied (publickey)', r.stderr);
  assert.not.ok(fs.existsSync(path.join(dir('stranger'), '.git', 'HEAD')));
});

test('a user without access sees "not found" for a private repository, and cannot push to a public one', async () => {
  const r = await g(keys.carol, ['clone', '-q', scpUrl(alice.name, 'priv'), dir('carol-priv')]);
  assert.is.not(r.code, 0);
  assert.match(r.stderr, 'cairn: Repository not found');
  const none = await g(keys.carol, ['clone', '-q', scpUrl(alice.name, 'no-such-repo'), dir('carol-none')]);
  assert.match(none.stderr, 'cairn: Repository not found');
  assert.is((await g(keys.carol, ['clone', '-q', scpUrl(alice.name, 'pub'), dir('carol-pub')])).code, 0);
  await commitFiles(dir('carol-pub'), { 'c.txt': 'c\n' }, 'c');
  const push = await g(keys.carol, ['push', 'origin', 'HEAD:main'], dir('carol-pub'));
  assert.is.not(push.code, 0);
  assert.match(push.stderr, 'cairn: User permission denied for writing.');
});

test('commands other than git services are refused; a shell only greets', async () => {
  const shell = await sshRun(keys.alice, 'ls -la');
  assert.is(shell.code, 1);
  assert.match(shell.stderr, 'cairn: Unknown git command');
  const bad = await sshRun(keys.alice, "git-upload-pack 'just-a-name'");
  assert.is(bad.code, 1);
  assert.match(bad.stderr, 'cairn: Invalid repository path');
  const escape = await sshRun(keys.alice, `git-upload-pack '${alice.name}/../../etc'`);
  assert.is(escape.code, 1);
  assert.match(escape.stderr, 'cairn: Invalid repository path');
  const greet = await run('ssh', [...sshOptions(keys.alice, ssh.port), '-T', 'git@127.0.0.1']);
  assert.is(greet.code, 0);
  assert.match(
    greet.stderr,
    `Hi there, ${alice.name}! You've successfully authenticated with the key named alice, but cairn does not provide shell access.`,
  );
  // Only the configured SSH user signs in.
  const other = await run('ssh', [...sshOptions(keys.alice, ssh.port), `${alice.name}@127.0.0.1`, 'git-upload-pack x/y']);
  assert.is.not(other.code, 0);
  assert.match(other.stderr, 'Permission denied');
});

test("malformed pkt-lines get git's protocol error and leave the repository as it was", async () => {
  const before = await head(alice.name, 'priv', 'refs/heads/main');
  const r = await sshRun(keys.alice, `git-receive-pack '${alice.name}/priv.git'`, 'zzzzthis is not a pkt-line\n');
  assert.is.not(r.code, 0);
  assert.match(r.stderr, /protocol error|bad line length/);
  assert.is(await head(alice.name, 'priv', 'refs/heads/main'), before);
});

test('git archive --remote runs git-upload-archive; a renamed repository is served under its new name', async () => {
  const a = await g(keys.alice, ['archive', `--remote=${scpUrl(alice.name, 'priv')}`, '--format=tar', '-o', dir('priv.tar'), 'main']);
  assert.is(a.code, 0, a.stderr);
  const list = await run('tar', ['-tf', dir('priv.tar')]);
  assert.match(list.stdout, 'README.md');
  await makeRepo(srv.api, alice, { name: 'old-name', auto_init: true });
  assert.is((await api('PATCH', `/repos/${alice.name}/old-name`, { token: alice.token, body: { name: 'new-name' } })).status, 200);
  const moved = await g(keys.alice, ['clone', '-q', scpUrl(alice.name, 'old-name'), dir('moved')]);
  assert.is(moved.code, 0, moved.stderr);
  assert.is(fs.readFileSync(path.join(dir('moved'), 'README.md'), 'utf8'), '# old-name\n\n');
});

test('the wiki is pushed and cloned over SSH as <repo>.wiki', async () => {
  fs.mkdirSync(dir('wiki'));
  await mustGit(dir('wiki'), 'init', '-q', '-b', 'main');
  await commitFiles(dir('wiki'), { 'Home.md': '# Home\n' }, 'home');
  const push = await g(keys.alice, ['push', '-q', scpUrl(alice.name, 'pub.wiki'), 'HEAD:main'], dir('wiki'));
  assert.is(push.code, 0, push.stderr);
  const page = await api('GET', `/repos/${alice.name}/pub/wiki/page/Home`, { token: alice.token });
  assert.is(page.status, 200, page.text);
  const clone = await g(keys.carol, ['clone', '-q', scpUrl(alice.name, 'pub.wiki'), dir('wiki-carol')]);
  assert.is(clone.code, 0, clone.stderr);
});

test.run();
