// Quota: admin rules and groups, the /user and /orgs usage routes, and the Q guards' 413 on real
// writes (spec, Limits 1; Forgejo's routers/api/v1/admin/quota*.go, shared/quota.go, models/quota).
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checked, exists, gitDir, newOrg, newRepo, setup, uniq, valid, validList, type Env } from './repo-setup.ts';
import { makeUser } from '../helpers/fixtures.ts';
import type { Res } from '../helpers/client.ts';
import { startServer } from '../helpers/server.ts';
import { Repository } from '../../model/repo.ts';
import { Attachment } from '../../model/attachment.ts';
import { QuotaGroup, QuotaGroupMapping, QuotaGroupRule, QuotaRule } from '../../model/quota.ts';
import { Package, PackageBlob, PackageFile, PackageVersion } from '../../model/package.ts';
import { ActionArtifact, ActionRun, ArtifactStatus } from '../../model/actions.ts';

let env: Env;
test.before(async () => {
  env = await setup({ QUOTA__ENABLED: 'true' });
});
test.after(async () => {
  await env.close();
});

const em = () => env.db.db.orm.em.fork();
const admin = (method: string, path: string, body?: unknown) => env.as(env.admin, method, path, body);

async function rule(name: string, limit: number, subjects: string[]) {
  const r = await admin('POST', '/admin/quota/rules', { name, limit, subjects });
  assert.is(r.status, 201, r.text);
  valid('QuotaRuleInfo', r.json);
  return r.json;
}

/** A group of the given rules (created with it) with `members` in it. */
async function group(rules: { name: string; limit: number; subjects: string[] }[], members: string[] = []): Promise<string> {
  const name = uniq('grp');
  const r = await admin('POST', '/admin/quota/groups', { name, rules });
  assert.is(r.status, 201, r.text);
  valid('QuotaGroup', r.json);
  for (const m of members) assert.is((await admin('PUT', `/admin/quota/groups/${name}/users/${m}`)).status, 204);
  return name;
}

async function upload(p: string, token: string, name: string, data: string): Promise<Res> {
  const fd = new FormData();
  fd.append('attachment', new Blob([data]), name);
  const r = await fetch(`${env.srv.api}${p}`, { method: 'POST', headers: { Authorization: `token ${token}` }, body: fd });
  const text = await r.text();
  const json = (r.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : undefined;
  return checked({ status: r.status, headers: r.headers, text, json });
}

const repoBytes = async (ownerId: number, isPrivate: boolean) =>
  (await em().find(Repository, { ownerId, isPrivate })).reduce((n, r) => n + r.size, 0);

test('rules: create (201), get, list, edit, delete; subjects keep Forgejo spellings', async () => {
  const name = uniq('rule');
  const created = await rule(name, 1024, ['size:repos:all', 'size:wiki']);
  // `size:wiki` (Forgejo's docs) is stored as the parser's `size:assets:wiki`.
  assert.equal(created, { name, limit: 1024, subjects: ['size:repos:all', 'size:assets:wiki'] });
  const got = await admin('GET', `/admin/quota/rules/${name}`);
  assert.is(got.status, 200);
  assert.equal(got.json, created);
  const list = await admin('GET', '/admin/quota/rules');
  validList('QuotaRuleInfo', list);
  assert.ok(list.json.some((r: { name: string }) => r.name === name));

  const edited = await admin('PATCH', `/admin/quota/rules/${name}`, { limit: -1 });
  assert.is(edited.status, 200, edited.text);
  valid('QuotaRuleInfo', edited.json);
  assert.equal(edited.json, { name, limit: -1, subjects: ['size:repos:all', 'size:assets:wiki'] });
  const resubjected = await admin('PATCH', `/admin/quota/rules/${name}`, { subjects: ['size:all'] });
  assert.equal(resubjected.json, { name, limit: -1, subjects: ['size:all'] });
  // No subjects: Go's omitempty drops the key.
  const emptied = await admin('PATCH', `/admin/quota/rules/${name}`, { subjects: [] });
  assert.equal(emptied.json, { name, limit: -1 });

  assert.is((await admin('DELETE', `/admin/quota/rules/${name}`)).status, 204);
  assert.is((await admin('GET', `/admin/quota/rules/${name}`)).status, 404);
  assert.is((await admin('PATCH', `/admin/quota/rules/${name}`, { limit: 1 })).status, 404);
  assert.is((await admin('DELETE', `/admin/quota/rules/${name}`)).status, 404);
});

test("rules: Forgejo's 422s and 409, and nothing is written on failure", async () => {
  const name = uniq('rule');
  const bad = await admin('POST', '/admin/quota/rules', { name, limit: 1, subjects: ['size:repos:all', 'size:nope'] });
  assert.is(bad.status, 422);
  assert.is(bad.json.message, 'unrecognized quota limit subject: [subject: size:nope]');
  assert.is((await admin('GET', `/admin/quota/rules/${name}`)).status, 404);
  const noLimit = await admin('POST', '/admin/quota/rules', { name, subjects: [] });
  assert.is(noLimit.status, 422);
  assert.is(noLimit.json.message, '[Limit]: Required');
  const noName = await admin('POST', '/admin/quota/rules', { limit: 1 });
  assert.is(noName.status, 422);
  assert.is(noName.json.message, '[Name]: Required');
  assert.is((await admin('POST', '/admin/quota/rules', { name, limit: 'x' })).status, 422);

  await rule(name, 5, ['size:git:all']);
  const dup = await admin('POST', '/admin/quota/rules', { name, limit: 9, subjects: [] });
  assert.is(dup.status, 409);
  assert.is(dup.json.message, `rule already exists: [name: ${name}]`);
  const badEdit = await admin('PATCH', `/admin/quota/rules/${name}`, { limit: 7, subjects: ['bogus'] });
  assert.is(badEdit.status, 422);
  assert.equal((await admin('GET', `/admin/quota/rules/${name}`)).json, { name, limit: 5, subjects: ['size:git:all'] });

  // Site admins only.
  assert.is((await env.as(env.alice, 'GET', '/admin/quota/rules')).status, 403);
  assert.is((await env.as(env.alice, 'POST', '/admin/quota/rules', { name: uniq('r'), limit: 1 })).status, 403);
});

test('groups: create with new and existing rules, rules and users in and out, delete', async () => {
  const existing = uniq('rule');
  await rule(existing, 77, ['size:repos:public']);
  const fresh = uniq('rule');
  const name = uniq('grp');
  const r = await admin('POST', '/admin/quota/groups', {
    name,
    rules: [
      { name: fresh, limit: 5, subjects: ['size:assets:all'] },
      { name: existing, limit: 1, subjects: ['size:all'] },
    ],
  });
  assert.is(r.status, 201, r.text);
  valid('QuotaGroup', r.json);
  // An existing rule joins as it is: its own limit and subjects, not the options'.
  assert.equal(r.json, {
    name,
    rules: [
      { name: fresh, limit: 5, subjects: ['size:assets:all'] },
      { name: existing, limit: 77, subjects: ['size:repos:public'] },
    ],
  });
  assert.equal((await admin('GET', `/admin/quota/groups/${name}`)).json, r.json);
  const list = await admin('GET', '/admin/quota/groups');
  validList('QuotaGroup', list);
  assert.ok(list.json.some((g: { name: string }) => g.name === name));

  const dup = await admin('POST', '/admin/quota/groups', { name });
  assert.is(dup.status, 409);
  assert.is(dup.json.message, `group already exists: [name: ${name}]`);

  // Rules in and out; the group is looked up before the rule.
  assert.is((await admin('DELETE', `/admin/quota/groups/${name}/rules/${fresh}`)).status, 204);
  assert.is((await admin('DELETE', `/admin/quota/groups/${name}/rules/${fresh}`)).status, 404);
  assert.is((await admin('PUT', `/admin/quota/groups/${name}/rules/${fresh}`)).status, 204);
  const again = await admin('PUT', `/admin/quota/groups/${name}/rules/${fresh}`);
  assert.is(again.status, 409);
  assert.is(again.json.message, `rule already in group: [group: ${name}, rule: ${fresh}]`);
  assert.is((await admin('PUT', `/admin/quota/groups/${name}/rules/no-such-rule`)).status, 404);
  assert.is((await admin('PUT', `/admin/quota/groups/no-such-group/rules/${fresh}`)).status, 404);

  // Users in and out.
  const { alice, bob } = env;
  assert.is((await admin('PUT', `/admin/quota/groups/${name}/users/${alice.name}`)).status, 204);
  const twice = await admin('PUT', `/admin/quota/groups/${name}/users/${alice.name}`);
  assert.is(twice.status, 409);
  assert.is(twice.json.message, `user already in group: [group: ${name}, userID: ${alice.id}]`);
  const ghost = await admin('PUT', `/admin/quota/groups/${name}/users/nobody-here`);
  assert.is(ghost.status, 404);
  assert.is(ghost.json.message, 'user redirect does not exist [name: nobody-here]');
  assert.is((await admin('PUT', `/admin/quota/groups/${name}/users/${bob.name}`)).status, 204);
  const users = await admin('GET', `/admin/quota/groups/${name}/users`);
  validList('User', users);
  assert.equal(
    users.json.map((u: { login: string }) => u.login),
    [alice.name, bob.name],
  );
  assert.is((await admin('DELETE', `/admin/quota/groups/${name}/users/${bob.name}`)).status, 204);
  assert.is((await admin('DELETE', `/admin/quota/groups/${name}/users/${bob.name}`)).status, 404);
  assert.is((await env.as(alice, 'GET', `/admin/quota/groups/${name}/users`)).status, 403);

  // Deleting a group takes its rule links and memberships, not its rules.
  assert.is((await admin('DELETE', `/admin/quota/groups/${name}`)).status, 204);
  assert.is((await admin('GET', `/admin/quota/groups/${name}`)).status, 404);
  assert.is(await em().count(QuotaGroupRule, { groupName: name }), 0);
  assert.is(await em().count(QuotaGroupMapping, { groupName: name }), 0);
  assert.is((await admin('GET', `/admin/quota/rules/${fresh}`)).status, 200);
});

test('groups: a bad rule in the options leaves no group and no rule behind', async () => {
  const name = uniq('grp');
  const ok = uniq('rule');
  const r = await admin('POST', '/admin/quota/groups', {
    name,
    rules: [
      { name: ok, limit: 1, subjects: ['size:all'] },
      { name: uniq('rule'), limit: 1, subjects: ['size:bad'] },
    ],
  });
  assert.is(r.status, 422);
  assert.is(r.json.message, 'unrecognized quota limit subject: [subject: size:bad]');
  assert.is(await em().count(QuotaGroup, { name }), 0);
  assert.is(await em().count(QuotaRule, { name: ok }), 0);
  const noName = await admin('POST', '/admin/quota/groups', { rules: [] });
  assert.is(noName.status, 422);
  assert.is(noName.json.message, '[Name]: Required');
});

test("admin: set a user's groups (unknown group is 422 and changes nothing) and read the user's quota", async () => {
  const u = env.carol;
  const g1 = await group([{ name: uniq('rule'), limit: -1, subjects: ['size:all'] }]);
  const g2 = await group([]);
  assert.is((await admin('POST', `/admin/users/${u.name}/quota/groups`, { groups: [g1, g2] })).status, 204);
  const bad = await admin('POST', `/admin/users/${u.name}/quota/groups`, { groups: [g1, 'nope-group'] });
  assert.is(bad.status, 422);
  assert.is(bad.json.message, 'group not found: [group: nope-group]');
  assert.equal(
    (await em().find(QuotaGroupMapping, { mappedId: u.id }, { orderBy: { groupName: 'asc' } })).map((m) => m.groupName),
    [g1, g2].sort(),
  );
  assert.is((await admin('POST', `/admin/users/${u.name}/quota/groups`, {})).status, 422);

  const info = await admin('GET', `/admin/users/${u.name}/quota`);
  assert.is(info.status, 200, info.text);
  valid('QuotaInfo', info.json);
  // Admins see group and rule names.
  assert.equal(
    info.json.groups.map((g: { name: string }) => g.name),
    [g1, g2].sort(),
  );
  assert.is((await admin('GET', '/admin/users/nobody-here/quota')).status, 404);

  assert.is((await admin('POST', `/admin/users/${u.name}/quota/groups`, { groups: [] })).status, 204);
  assert.is(await em().count(QuotaGroupMapping, { mappedId: u.id }), 0);
});

test('Q on repository creation: over the limit is 413 naming the owner and creates nothing; under it passes', async () => {
  const u = env.bob;
  await newRepo(env, u, { auto_init: true });
  const used = await repoBytes(u.id, false);
  assert.ok(used > 0, 'an initialised repository has a size');
  const limited = uniq('rule');
  await group([{ name: limited, limit: used - 1, subjects: ['size:repos:all'] }], [u.name]);

  const name = uniq('r');
  const r = await env.as(u, 'POST', '/user/repos', { name, auto_init: true });
  assert.is(r.status, 413, r.text);
  assert.equal(r.json, { message: 'quota exceeded', user_id: u.id, username: u.name });
  assert.is(await em().count(Repository, { ownerId: u.id, name }), 0);
  assert.not.ok(exists(gitDir(env, u.name, name)));

  // At the limit (sum <= limit) is still within quota.
  assert.is((await admin('PATCH', `/admin/quota/rules/${limited}`, { limit: used })).status, 200);
  const ok = await env.as(u, 'POST', '/user/repos', { name, auto_init: true });
  assert.is(ok.status, 201, ok.text);
  assert.ok(fs.existsSync(gitDir(env, u.name, name)));

  // The check route agrees with the guard.
  const check = await env.as(u, 'GET', '/user/quota/check?subject=size:repos:all');
  assert.is(check.status, 200);
  assert.is(check.json, false);
  assert.is((await admin('PATCH', `/admin/quota/rules/${limited}`, { limit: -1 })).status, 200);
  assert.is((await env.as(u, 'GET', '/user/quota/check?subject=size:repos:all')).json, true);
});

test('Q on issue attachments: uploads pass until the owner is over the limit, then 413 and no row', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const issue = await env.as(bob, 'POST', `/repos/${repo.full_name}/issues`, { title: 'files' });
  assert.is(issue.status, 201, issue.text);
  await group(
    [
      { name: uniq('rule'), limit: -1, subjects: ['size:repos:all'] },
      { name: uniq('rule'), limit: 10, subjects: ['size:assets:attachments:issues'] },
    ],
    [alice.name],
  );
  const base = `/repos/${repo.full_name}/issues/${issue.json.number}/assets`;
  // A soft quota: checked before the write, so the upload that crosses the limit still lands.
  for (const n of ['a.txt', 'b.txt']) assert.is((await upload(base, bob.token, n, '12345678')).status, 201);
  const before = await em().count(Attachment, { repoId: repo.id });
  // bob uploads, alice (the repository owner) is charged.
  const over = await upload(base, bob.token, 'c.txt', '12345678');
  assert.is(over.status, 413, over.text);
  assert.equal(over.json, { message: 'quota exceeded', user_id: alice.id, username: alice.name });
  assert.is(await em().count(Attachment, { repoId: repo.id }), before);

  // Usage follows the real sizes: 16 bytes of issue attachments, the repositories' git sizes.
  const info = await env.as(alice, 'GET', '/user/quota');
  assert.is(info.status, 200);
  valid('QuotaInfo', info.json);
  assert.equal(info.json.used, {
    size: {
      repos: { public: await repoBytes(alice.id, false), private: await repoBytes(alice.id, true) },
      git: { LFS: 0 },
      assets: { attachments: { issues: 16, releases: 0 }, artifacts: 0, packages: { all: 0 } },
    },
  });
  // Users do not see group or rule names.
  assert.equal(info.json.groups, [
    {
      rules: [
        { limit: -1, subjects: ['size:repos:all'] },
        { limit: 10, subjects: ['size:assets:attachments:issues'] },
      ],
    },
  ]);

  const list = await env.as(alice, 'GET', '/user/quota/attachments?limit=1');
  assert.is(list.status, 200);
  validList('QuotaUsedAttachment', list);
  assert.is(list.headers.get('x-total-count'), '2');
  assert.match(list.headers.get('link') ?? '', /rel="next"/);
  const issueApi = `${env.srv.config.appUrl}api/v1/repos/${repo.full_name}/issues/${issue.json.number}`;
  const [first] = list.json;
  assert.is(first.size, 8);
  assert.is(first.contained_in.api_url, issueApi);
  assert.is(first.contained_in.html_url, `${env.srv.config.appUrl}${repo.full_name}/issues/${issue.json.number}`);
  assert.match(first.api_url, new RegExp(`^${issueApi}/assets/\\d+$`));
  // bob uploaded, but nothing is counted for him.
  const bobs = await env.as(bob, 'GET', '/user/quota/attachments');
  assert.equal(bobs.json, []);
  assert.is(bobs.headers.get('x-total-count'), '0');
});

/** Every subject a rule may name, as the check route takes them. */
const SUBJECTS = [
  'size:all',
  'size:repos:all',
  'size:repos:public',
  'size:repos:private',
  'size:git:all',
  'size:git:lfs',
  'size:assets:all',
  'size:assets:attachments:all',
  'size:assets:attachments:issues',
  'size:assets:attachments:releases',
  'size:assets:artifacts',
  'size:assets:packages:all',
  'size:assets:wiki',
] as const;
type Subject = (typeof SUBJECTS)[number];

/** What GET /user/quota/check answers for each subject. */
async function verdicts(u: { token: string }): Promise<Record<Subject, boolean>> {
  const out = {} as Record<Subject, boolean>;
  for (const subject of SUBJECTS) {
    const r = await env.as(u.token, 'GET', `/user/quota/check?subject=${subject}`);
    assert.is(r.status, 200, r.text);
    out[subject] = r.json;
  }
  return out;
}
const allSubjects = (value: boolean, except: Partial<Record<Subject, boolean>> = {}) =>
  ({ ...Object.fromEntries(SUBJECTS.map((s) => [s, value])), ...except }) as Record<Subject, boolean>;

test('a `size:all` rule covers every subject: 1 TiB, nothing used, a repository may be created', async () => {
  const u = await makeUser(env.db, env.srv.api);
  await group([{ name: uniq('rule'), limit: 2 ** 40, subjects: ['size:all'] }], [u.name]);
  assert.equal(await verdicts(u), allSubjects(true));
  const r = await env.as(u, 'POST', '/user/repos', { name: uniq('r') });
  assert.is(r.status, 201, r.text);
});

test('each subject against a group of several rules: every rule that covers it (lists it or what holds it) must pass', async () => {
  const u = await makeUser(env.db, env.srv.api);
  const repo = await newRepo(env, u, { auto_init: true });
  const issue = await env.as(u, 'POST', `/repos/${repo.full_name}/issues`, { title: 'files' });
  assert.is(issue.status, 201, issue.text);
  assert.is((await upload(`/repos/${repo.full_name}/issues/${issue.json.number}/assets`, u.token, 'a.txt', '0123456789')).status, 201);
  const repos = await repoBytes(u.id, false);
  assert.ok(repos > 0);
  const attachments = 10;
  const total = repos + attachments;
  const info = await env.as(u, 'GET', '/user/quota');
  assert.equal(info.json.used.size.repos, { public: repos, private: 0 });
  assert.equal(info.json.used.size.assets.attachments, { issues: attachments, releases: 0 });

  const all = uniq('rule');
  const issues = uniq('rule');
  const git = uniq('rule');
  const g = await group(
    [
      { name: all, limit: 2 ** 40, subjects: ['size:all'] },
      { name: issues, limit: attachments - 1, subjects: ['size:assets:attachments:issues'] },
      { name: uniq('rule'), limit: 0, subjects: ['size:repos:private'] },
    ],
    [u.name],
  );
  // The issue-attachment rule is over its limit: it covers that subject only, not what holds it.
  assert.equal(await verdicts(u), allSubjects(true, { 'size:assets:attachments:issues': false }));

  // `size:all` counts the total once: each byte in one place.
  assert.is((await admin('PATCH', `/admin/quota/rules/${all}`, { limit: total })).status, 200);
  assert.equal(await verdicts(u), allSubjects(true, { 'size:assets:attachments:issues': false }));
  assert.is((await admin('PATCH', `/admin/quota/rules/${all}`, { limit: total - 1 })).status, 200);
  assert.equal(await verdicts(u), allSubjects(false));
  assert.is((await admin('PATCH', `/admin/quota/rules/${all}`, { limit: -1 })).status, 200);
  assert.is((await admin('PATCH', `/admin/quota/rules/${issues}`, { limit: attachments })).status, 200);
  assert.equal(await verdicts(u), allSubjects(true));

  // A `size:git:all` rule covers the repositories and LFS, not assets, and not `size:all`, which holds it.
  await rule(git, repos - 1, ['size:git:all']);
  assert.is((await admin('PUT', `/admin/quota/groups/${g}/rules/${git}`)).status, 204);
  const gitOver = {
    'size:git:all': false,
    'size:git:lfs': false,
    'size:repos:all': false,
    'size:repos:public': false,
    'size:repos:private': false,
  };
  assert.equal(await verdicts(u), allSubjects(true, gitOver));
  const refused = await env.as(u, 'POST', '/user/repos', { name: uniq('r') });
  assert.is(refused.status, 413, refused.text);

  // Without the `size:all` rule nothing covers the wiki or the assets but issue attachments; a subject no
  // rule covers is tried through the subjects below it (`size:all`: repositories, LFS, assets), so
  // `size:assets:all` speaks through the issue rule, the rest through the git rule, which fails.
  assert.is((await admin('DELETE', `/admin/quota/groups/${g}/rules/${all}`)).status, 204);
  assert.equal(
    await verdicts(u),
    allSubjects(false, {
      'size:assets:all': true,
      'size:assets:attachments:all': true,
      'size:assets:attachments:issues': true,
      'size:assets:attachments:releases': false,
      'size:assets:artifacts': false,
      'size:assets:packages:all': false,
    }),
  );
  // Every part of `size:all` is now spoken for by a rule that passes.
  assert.is((await admin('PATCH', `/admin/quota/rules/${git}`, { limit: repos })).status, 200);
  assert.equal(
    await verdicts(u),
    allSubjects(true, {
      'size:assets:attachments:releases': false,
      'size:assets:artifacts': false,
      'size:assets:packages:all': false,
      'size:assets:wiki': false,
    }),
  );
  assert.is((await admin('POST', `/admin/users/${u.name}/quota/groups`, { groups: [] })).status, 204);
  assert.equal(await verdicts(u), allSubjects(true), 'in no group, nothing is limited');
});

test('a user passes when one of their groups speaks for the subject and passes; an unlimited rule covers only its subjects', async () => {
  const u = await makeUser(env.db, env.srv.api);
  const unlimited = uniq('rule');
  await rule(unlimited, -1, []);
  const lfsOnly = { 'size:git:lfs': true, 'size:all': true };
  await group(
    [
      { name: uniq('rule'), limit: -1, subjects: ['size:git:lfs'] },
      { name: unlimited, limit: -1, subjects: [] },
    ],
    [u.name],
  );
  // The LFS rule covers LFS, and `size:all` through it (the subjects below it); nothing else.
  assert.equal(await verdicts(u), allSubjects(false, lfsOnly));
  await group([{ name: uniq('rule'), limit: 0, subjects: ['size:all'] }], [u.name]);
  // Nothing used yet: limit 0 passes, so every subject is spoken for by the second group.
  assert.equal(await verdicts(u), allSubjects(true));
  await newRepo(env, u, { auto_init: true });
  assert.equal(await verdicts(u), allSubjects(false, lfsOnly));

  const bad = await env.as(u, 'GET', '/user/quota/check?subject=size:everything');
  assert.is(bad.status, 422);
  assert.is(bad.json.message, 'unrecognized quota limit subject: [subject: size:everything]');
  assert.is((await env.as(u, 'GET', '/user/quota/check')).status, 422);
});

test('packages and artifacts: counted in the usage and listed, biggest first', async () => {
  const u = env.carol;
  for (const what of ['packages', 'artifacts'] as const) {
    const r = await env.as(u, 'GET', `/user/quota/${what}`);
    assert.is(r.status, 200, r.text);
    assert.equal(r.json, []);
    assert.is(r.headers.get('x-total-count'), '0');
  }
  // Rows as the package registry and the artifact upload leave them.
  const m = em();
  const blob = (size: number, n: number) =>
    m.create(PackageBlob, {
      size,
      hashMd5: `${n}`.padStart(32, '0'),
      hashSha1: `${n}`.padStart(40, '0'),
      hashSha256: uniq('sha').padStart(64, '0'),
      hashSha512: `${n}`.padStart(128, '0'),
    });
  const [b1, b2] = [blob(300, 1), blob(45, 2)];
  const pkg = m.create(Package, { ownerId: u.id, type: 'generic', name: 'tool', lowerName: 'tool' });
  await m.flush();
  const version = m.create(PackageVersion, { packageId: pkg.id, version: '1.0.0', lowerVersion: '1.0.0' });
  await m.flush();
  m.create(PackageFile, { versionId: version.id, blobId: b1.id, name: 'a.bin', lowerName: 'a.bin' });
  m.create(PackageFile, { versionId: version.id, blobId: b2.id, name: 'b.bin', lowerName: 'b.bin' });
  const repo = await newRepo(env, u);
  const run = m.create(ActionRun, { title: 'ci', repoId: repo.id, ownerId: u.id, workflowId: 'ci.yml', index: 7, event: 'push' });
  await m.flush();
  m.create(ActionArtifact, {
    runId: run.id,
    repoId: repo.id,
    ownerId: u.id,
    artifactName: 'logs',
    fileCompressedSize: 1000,
    status: ArtifactStatus.uploadConfirmed,
  });
  m.create(ActionArtifact, {
    runId: run.id,
    repoId: repo.id,
    ownerId: u.id,
    artifactName: 'old',
    fileCompressedSize: 5000,
    status: ArtifactStatus.expired,
  });
  await m.flush();

  const info = await env.as(u, 'GET', '/user/quota');
  valid('QuotaInfo', info.json);
  assert.is(info.json.used.size.assets.packages.all, 345);
  assert.is(info.json.used.size.assets.artifacts, 1000, 'expired artifacts take no space');
  const pkgs = await env.as(u, 'GET', '/user/quota/packages');
  validList('QuotaUsedPackage', pkgs);
  assert.equal(pkgs.json, [
    {
      name: 'tool',
      type: 'generic',
      version: '1.0.0',
      size: 345,
      html_url: `${env.srv.config.appUrl}${u.name}/-/packages/generic/tool/1.0.0`,
    },
  ]);
  assert.is(pkgs.headers.get('x-total-count'), '1');
  const arts = await env.as(u, 'GET', '/user/quota/artifacts');
  validList('QuotaUsedArtifact', arts);
  assert.equal(arts.json, [{ name: 'logs', size: 1000, html_url: `${env.srv.config.appUrl}${repo.full_name}/actions/runs/7` }]);
  // A limit on packages now bites; artifacts are not limited by it (a different subject).
  await group(
    [
      { name: uniq('rule'), limit: 344, subjects: ['size:assets:packages:all'] },
      { name: uniq('rule'), limit: 1000, subjects: ['size:assets:artifacts'] },
    ],
    [u.name],
  );
  assert.is((await env.as(u, 'GET', '/user/quota/check?subject=size:assets:packages:all')).json, false);
  assert.is((await env.as(u, 'GET', '/user/quota/check?subject=size:assets:artifacts')).json, true);
  assert.is((await admin('POST', `/admin/users/${u.name}/quota/groups`, { groups: [] })).status, 204);
});

test("/orgs/{org}/quota: the organization's usage and groups for its owners", async () => {
  const { alice, bob } = env;
  const org = await newOrg(env, alice);
  const repo = await env.as(alice, 'POST', `/orgs/${org.name}/repos`, { name: uniq('r'), auto_init: true, private: true });
  assert.is(repo.status, 201, repo.text);
  const info = await env.as(alice, 'GET', `/orgs/${org.name}/quota`);
  assert.is(info.status, 200, info.text);
  valid('QuotaInfo', info.json);
  assert.is(info.json.used.size.repos.private, await repoBytes(org.id, true));
  assert.ok(info.json.used.size.repos.private > 0);
  assert.equal(info.json.groups, []);
  for (const sub of ['check?subject=size:all', 'attachments', 'packages', 'artifacts']) {
    assert.is((await env.as(alice, 'GET', `/orgs/${org.name}/quota/${sub}`)).status, 200, sub);
  }
  assert.is((await env.as(bob, 'GET', `/orgs/${org.name}/quota`)).status, 403);

  // The organization over its limit: its repository creation is refused whoever asks.
  await group([{ name: uniq('rule'), limit: 0, subjects: ['size:repos:all'] }], [org.name]);
  const name = uniq('r');
  const r = await env.as(alice, 'POST', `/orgs/${org.name}/repos`, { name });
  assert.is(r.status, 413, r.text);
  assert.equal(r.json, { message: 'quota exceeded', user_id: org.id, username: org.name });
  assert.is(await em().count(Repository, { ownerId: org.id, name }), 0);
});

test('quota routes are not mounted when [quota] ENABLED is off, and nothing is limited', async () => {
  const off = await startServer(env.db, {});
  try {
    const r = await fetch(`${off.api}/user/quota`, { headers: { Authorization: `token ${env.bob.token}` } });
    assert.is(r.status, 404);
    // bob in a group that allows no growth: the guard is off, so nothing is limited.
    const limited = uniq('rule');
    await group([{ name: limited, limit: 0, subjects: ['size:repos:all'] }], [env.bob.name]);
    const made = await fetch(`${off.api}/user/repos`, {
      method: 'POST',
      headers: { Authorization: `token ${env.bob.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: uniq('r') }),
    });
    assert.is(made.status, 201);
  } finally {
    await off.close();
  }
});

test.run();
