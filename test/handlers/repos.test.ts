// Repository records over HTTP: creation (user, organization, admin) with auto_init templates and
// label sets, bad input that leaves nothing behind, read by path and by id, edit, delete, and the
// template routes.
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Repository } from '../../model/repo.ts';
import { Label } from '../../model/label.ts';
import { makeToken } from '../helpers/fixtures.ts';
import { exists, gitDir, newOrg, newRepo, setup, uniq, valid, validList, type Env } from './repo-setup.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

// sha256 repositories need git >= 2.29 on the server (lib/repos/repos.ts); with an older git they are a 422.
const gitVersion = /(\d+)\.(\d+)/.exec(execFileSync('git', ['version'], { encoding: 'utf8' }))!;
const sha256 = Number(gitVersion[1]) > 2 || (Number(gitVersion[1]) === 2 && Number(gitVersion[2]) >= 29);
const show = (dir: string, spec: string) => execFileSync('git', ['--git-dir', dir, 'show', spec], { encoding: 'utf8' });
const rowCount = async (name: string) => env.db.db.orm.em.fork().count(Repository, { lowerName: name.toLowerCase() });

test('POST /user/repos: 201 with Forgejo defaults; an empty bare repository on disk; the creator watches it', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { description: 'd' });
  assert.is(repo.owner.login, alice.name);
  assert.is(repo.empty, true);
  assert.is(repo.private, false);
  assert.is(repo.default_branch, 'main');
  assert.equal(repo.permissions, { admin: true, push: true, pull: true });
  assert.is(repo.watchers_count, 1);
  assert.is(repo.stars_count, 0);
  assert.equal(repo.topics, []);
  assert.is(repo.repo_transfer, null);
  assert.is(repo.object_format_name, 'sha1');
  assert.ok(exists(`${gitDir(env, alice.name, repo.name)}/HEAD`));
  const sub = await env.as(alice, 'GET', `/repos/${repo.full_name}/subscription`);
  assert.is(sub.status, 200);
  valid('WatchInfo', sub.json);
});

test('auto_init writes README, .gitignore blocks and a filled-in LICENSE in one "Initial commit"', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, {
    auto_init: true,
    description: 'About it',
    gitignores: 'Node,Go',
    license: 'MIT',
    default_branch: 'trunk',
  });
  assert.is(repo.empty, false);
  assert.is(repo.default_branch, 'trunk');
  const dir = gitDir(env, alice.name, repo.name);
  assert.is(show(dir, 'trunk:README.md'), `# ${repo.name}\n\nAbout it`);
  const ignore = show(dir, 'trunk:.gitignore');
  assert.ok(ignore.startsWith('# ---> Node\n'));
  assert.ok(ignore.includes('# ---> Go\n'));
  assert.ok(ignore.includes('node_modules/'));
  const license = show(dir, 'trunk:LICENSE');
  assert.ok(license.includes(`Copyright (c) ${new Date().getFullYear()} ${alice.name}`), license.slice(0, 200));
  assert.is(show(dir, '--format=%s').split('\n')[0], 'Initial commit');
});

test('issue_labels installs the label set (Default: 7 labels; Advanced: scoped, exclusive ones)', async () => {
  const { alice } = env;
  const a = await newRepo(env, alice, { issue_labels: 'Default' });
  const b = await newRepo(env, alice, { issue_labels: 'Advanced' });
  const em = env.db.db.orm.em.fork();
  const la = await em.find(Label, { repoId: a.id }, { orderBy: { name: 'asc' } });
  assert.equal(
    la.map((l) => l.name),
    ['bug', 'duplicate', 'enhancement', 'help wanted', 'invalid', 'question', 'wontfix'],
  );
  assert.is(la[0].color, '#ee0701');
  const lb = await em.find(Label, { repoId: b.id });
  assert.ok(lb.some((l) => l.name === 'Priority/High' && l.exclusive));
  assert.ok(lb.some((l) => l.name === 'Kind/Bug' && !l.exclusive));
});

test('bad input: clear 4xx, and neither a record nor a directory is left behind', async () => {
  const { alice } = env;
  const cases: [Record<string, unknown>, number, RegExp][] = [
    [{ auto_init: true, gitignores: 'Node,Nope' }, 422, /gitignore template "Nope" does not exist/],
    [{ auto_init: true, license: 'NOT-A-LICENSE' }, 422, /license template/],
    [{ issue_labels: 'Fancy' }, 422, /label template/],
    [{ auto_init: true, readme: 'Other' }, 400, /readme template does not exist/],
    ...(sha256 ? [] : [[{ object_format_name: 'sha256' }, 422, /sha256/] as [Record<string, unknown>, number, RegExp]]),
    [{ default_branch: 'bad..name' }, 422, /DefaultBranch/],
    [{ private: 'yes' }, 422, /Private/],
  ];
  for (const [body, status, message] of cases) {
    const name = uniq('bad');
    const r = await env.as(alice, 'POST', '/user/repos', { name, ...body });
    assert.is(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
    assert.match(r.json.message, message);
    assert.is(await rowCount(name), 0, JSON.stringify(body));
    assert.not.ok(exists(gitDir(env, alice.name, name)), JSON.stringify(body));
  }
  for (const name of ['.', '..', 'x.git', 'y.wiki', 'has space']) {
    const r = await env.as(alice, 'POST', '/user/repos', { name });
    assert.is(r.status, 422, `${name}: ${r.text}`);
  }
  assert.is((await env.as(alice, 'POST', '/user/repos', {})).json.message, '[Name]: Required');
});

test('object_format_name sha256: a sha256 repository where git supports it (else the 422 above)', async () => {
  if (!sha256) return;
  const repo = await newRepo(env, env.alice, { object_format_name: 'sha256', auto_init: true });
  assert.is(repo.object_format_name, 'sha256');
  assert.is(
    execFileSync('git', ['--git-dir', gitDir(env, env.alice.name, repo.name), 'rev-parse', 'main'], { encoding: 'utf8' }).trim().length,
    64,
  );
});

test('a taken name is 409; the first repository is untouched', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const r = await env.as(alice, 'POST', '/user/repos', { name: repo.name.toUpperCase() });
  assert.is(r.status, 409);
  assert.is(r.json.message, 'The repository with the same name already exists.');
  assert.ok(show(gitDir(env, alice.name, repo.name), 'main:README.md').startsWith('# '));
});

test('POST /orgs/{org}/repos: owners and can_create_org_repo teams may; other members get 403 and nothing is written', async () => {
  const { alice, bob, carol } = env;
  const org = await newOrg(env, alice);
  const creators = await env.as(alice, 'POST', `/orgs/${org.name}/teams`, {
    name: 'creators',
    permission: 'write',
    units: ['repo.code'],
    can_create_org_repo: true,
  });
  assert.is(creators.status, 201, creators.text);
  const readers = await env.as(alice, 'POST', `/orgs/${org.name}/teams`, {
    name: 'readers',
    permission: 'read',
    units: ['repo.code'],
    includes_all_repositories: true,
  });
  assert.is(readers.status, 201, readers.text);
  assert.is((await env.as(alice, 'PUT', `/teams/${creators.json.id}/members/${bob.name}`)).status, 204);
  assert.is((await env.as(alice, 'PUT', `/teams/${readers.json.id}/members/${carol.name}`)).status, 204);

  const byOwner = await env.as(alice, 'POST', `/orgs/${org.name}/repos`, { name: uniq('o') });
  assert.is(byOwner.status, 201, byOwner.text);
  valid('Repository', byOwner.json);
  assert.is(byOwner.json.owner.login, org.name);
  const byCreator = await env.as(bob, 'POST', `/org/${org.name}/repos`, { name: uniq('o') });
  assert.is(byCreator.status, 201, byCreator.text);
  // The creator, not an admin through a team, becomes an admin collaborator.
  assert.equal(byCreator.json.permissions, { admin: true, push: true, pull: true });

  const name = uniq('o');
  const denied = await env.as(carol, 'POST', `/orgs/${org.name}/repos`, { name });
  assert.is(denied.status, 403);
  assert.is(denied.json.message, 'Given user is not allowed to create repository in organization.');
  assert.is(await rowCount(name), 0);
  assert.not.ok(exists(gitDir(env, org.name, name)));
  // A team with all repositories gets the new ones.
  const teams = await env.as(carol, 'GET', `/repos/${byOwner.json.full_name}/teams`);
  assert.is(teams.status, 200, teams.text);
  validList('Team', teams);
  assert.ok(teams.json.some((t: { name: string }) => t.name === 'readers'));
  assert.is((await env.as(carol, 'GET', `/repos/${byOwner.json.full_name}`)).status, 200);
});

test('POST /admin/users/{username}/repos creates for that user; a non-admin gets 403', async () => {
  const { admin, alice, bob } = env;
  const name = uniq('adm');
  const r = await env.as(admin, 'POST', `/admin/users/${bob.name}/repos`, { name, private: true });
  assert.is(r.status, 201, r.text);
  assert.is(r.json.owner.login, bob.name);
  assert.is(r.json.private, true);
  assert.is((await env.as(alice, 'POST', `/admin/users/${bob.name}/repos`, { name: uniq('x') })).status, 403);
});

test('GET /repositories/{id}: by id for whoever can reach it; 404 otherwise, and for a public-only token', async () => {
  const { alice, bob } = env;
  const priv = await newRepo(env, alice, { private: true });
  const pub = await newRepo(env, alice);
  const r = await env.as(alice, 'GET', `/repositories/${priv.id}`);
  assert.is(r.status, 200);
  valid('Repository', r.json);
  assert.is(r.json.full_name, priv.full_name);
  assert.is((await env.as(bob, 'GET', `/repositories/${priv.id}`)).status, 404);
  assert.is((await env.as(bob, 'GET', `/repositories/${pub.id}`)).status, 200);
  assert.is((await env.as(alice, 'GET', '/repositories/99999999')).status, 404);
  const publicOnly = await makeToken(env.srv.api, alice, ['public-only', 'read:repository']);
  assert.is((await env.as(publicOnly, 'GET', `/repositories/${priv.id}`)).status, 404);
  assert.is((await env.as(publicOnly, 'GET', `/repositories/${pub.id}`)).status, 200);
  const other = await newRepo(env, alice, { private: true });
  const specific = await makeToken(env.srv.api, alice, ['read:repository'], { repositories: [{ owner: alice.name, name: priv.name }] });
  assert.is((await env.as(specific, 'GET', `/repositories/${priv.id}`)).status, 200);
  assert.is((await env.as(specific, 'GET', `/repositories/${other.id}`)).status, 404);
  assert.is((await env.api('GET', `/repositories/${pub.id}`)).status, 401);
});

test('PATCH {R}: basic fields, visibility, template, units with their settings, archive', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const path = `/repos/${repo.full_name}`;
  const r = await env.as(alice, 'PATCH', path, {
    description: 'new',
    website: 'https://example.com',
    private: true,
    template: true,
    has_projects: false,
    has_packages: false,
    has_actions: false,
    has_releases: false,
    allow_squash_merge: false,
    default_merge_style: 'squash',
    default_delete_branch_after_merge: true,
    internal_tracker: { enable_time_tracker: false, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true },
    globally_editable_wiki: true,
  });
  assert.is(r.status, 200, r.text);
  valid('Repository', r.json);
  const j = r.json;
  assert.is(j.description, 'new');
  assert.is(j.website, 'https://example.com');
  assert.is(j.private, true);
  assert.is(j.template, true);
  assert.is(j.has_projects, false);
  assert.is(j.has_packages, false);
  assert.is(j.has_actions, false);
  assert.is(j.has_releases, false);
  assert.is(j.allow_squash_merge, false);
  assert.is(j.default_merge_style, 'squash');
  assert.is(j.default_delete_branch_after_merge, true);
  assert.equal(j.internal_tracker, {
    enable_time_tracker: false,
    allow_only_contributors_to_track_time: true,
    enable_issue_dependencies: true,
  });
  assert.is(j.globally_editable_wiki, true);
  assert.is(j.has_issues, true);

  const ext = await env.as(alice, 'PATCH', path, {
    external_tracker: {
      external_tracker_url: 'https://tracker.example.com',
      external_tracker_format: 'https://tracker.example.com/{user}/{repo}/{index}',
      external_tracker_style: 'numeric',
    },
    external_wiki: { external_wiki_url: 'https://wiki.example.com' },
  });
  assert.is(ext.status, 200, ext.text);
  valid('Repository', ext.json);
  assert.is(ext.json.has_issues, true);
  assert.is(ext.json.internal_tracker, undefined);
  assert.is(ext.json.external_tracker.external_tracker_url, 'https://tracker.example.com');
  assert.is(ext.json.external_wiki.external_wiki_url, 'https://wiki.example.com');
  const off = await env.as(alice, 'PATCH', path, { has_issues: false, has_wiki: false, has_pull_requests: false });
  assert.is(off.json.has_issues, false);
  assert.is(off.json.external_tracker, undefined);
  assert.is(off.json.has_wiki, false);
  assert.is(off.json.has_pull_requests, false);
  assert.is(off.json.default_merge_style, 'merge');

  const arch = await env.as(alice, 'PATCH', path, { archived: true });
  assert.is(arch.json.archived, true);
  assert.not.equal(arch.json.archived_at, '1970-01-01T00:00:00Z');
  const topics = await env.as(alice, 'PUT', `${path}/topics/x`);
  assert.is(topics.status, 204, 'topics are not an NA route');
  const un = await env.as(alice, 'PATCH', path, { archived: false });
  assert.is(un.json.archived, false);
  assert.is(un.json.archived_at, '1970-01-01T00:00:00Z');
});

test('PATCH {R}: every refused field is 422 and nothing changes', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const other = await newRepo(env, alice);
  const path = `/repos/${repo.full_name}`;
  const bad: Record<string, unknown>[] = [
    { description: 'x', default_branch: 'nope' },
    { description: 'x', default_merge_style: 'octopus' },
    { description: 'x', default_update_style: 'sideways' },
    { description: 'x', mirror_interval: '1h' },
    { description: 'x', external_tracker: { external_tracker_url: 'not a url' } },
    { description: 'x', external_wiki: { external_wiki_url: 'ftp://x' } },
    { description: 'x', name: other.name },
    { description: 'x', name: 'a.git' },
    { description: 'x', has_issues: 'no' },
    { description: 'x', wiki_branch: 'bad..branch' },
  ];
  for (const body of bad) {
    const r = await env.as(alice, 'PATCH', path, body);
    assert.is(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
  }
  const now = await env.as(alice, 'GET', path);
  assert.is(now.json.description, '');
  assert.is(now.json.name, repo.name);
});

test('PATCH {R}: default branch and rename move HEAD and the directory; the old name redirects (301)', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const dir = gitDir(env, alice.name, repo.name);
  execFileSync('git', ['--git-dir', dir, 'branch', 'dev', 'main']);
  const newName = uniq('renamed');
  const r = await env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { default_branch: 'dev', name: newName });
  assert.is(r.status, 200, r.text);
  assert.is(r.json.default_branch, 'dev');
  assert.is(r.json.name, newName);
  const newDir = gitDir(env, alice.name, newName);
  assert.not.ok(exists(dir));
  assert.is(execFileSync('git', ['--git-dir', newDir, 'symbolic-ref', 'HEAD'], { encoding: 'utf8' }).trim(), 'refs/heads/dev');
  const old = await env.api('GET', `/repos/${repo.full_name}`, { token: alice.token });
  assert.is(old.status, 301);
  assert.ok(old.headers.get('location')?.endsWith(`/repos/${alice.name}/${newName}`));
});

test('PATCH {R} and DELETE {R}: permissions as the table says (ADM, OWN, NO_REPO_TOKEN, owner-type scope)', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const path = `/repos/${repo.full_name}`;
  assert.is((await env.as(alice, 'PUT', `${path}/collaborators/${bob.name}`, { permission: 'write' })).status, 204);
  const r = await env.as(bob, 'PATCH', path, { description: 'by bob' });
  assert.is(r.status, 403);
  assert.is((await env.as(bob, 'DELETE', path)).status, 403);
  const specific = await makeToken(env.srv.api, alice, ['write:repository'], { repositories: [{ owner: alice.name, name: repo.name }] });
  assert.is((await env.as(specific, 'PATCH', path, { description: 'x' })).status, 403);
  assert.is((await env.as(specific, 'DELETE', path)).status, 403);
  const repoScope = await makeToken(env.srv.api, alice, ['write:repository']);
  assert.is((await env.as(repoScope, 'DELETE', path)).status, 403);
  assert.is((await env.as(alice, 'GET', path)).json.description, '');
  const del = await env.as(alice, 'DELETE', path);
  assert.is(del.status, 204);
  assert.is((await env.as(alice, 'GET', path)).status, 404);
  assert.not.ok(exists(gitDir(env, alice.name, repo.name)));
});

test('GET {R} as anonymous, outsider and collaborator: permissions reflect the caller', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  const anon = await env.api('GET', `/repos/${repo.full_name}`);
  assert.is(anon.status, 200);
  valid('Repository', anon.json);
  assert.equal(anon.json.permissions, { admin: false, push: false, pull: true });
  await env.as(alice, 'PUT', `/repos/${repo.full_name}/collaborators/${carol.name}`, { permission: 'write' });
  assert.equal((await env.as(carol, 'GET', `/repos/${repo.full_name}`)).json.permissions, { admin: false, push: true, pull: true });
  assert.equal((await env.as(bob, 'GET', `/repos/${repo.full_name}`)).json.permissions, { admin: false, push: false, pull: true });
});

test('template routes: gitignore, licenses and label sets', async () => {
  const g = await env.api('GET', '/gitignore/templates');
  assert.is(g.status, 200);
  for (const n of ['Node', 'Go', 'Python', 'Rust', 'Java', 'C', 'C++', 'macOS', 'Windows', 'Linux', 'VisualStudioCode', 'JetBrains'])
    assert.ok(g.json.includes(n), n);
  const node = await env.api('GET', '/gitignore/templates/Node');
  valid('GitignoreTemplateInfo', node.json);
  assert.is(node.json.name, 'Node');
  assert.ok(node.json.source.includes('node_modules/'));
  assert.is((await env.api('GET', '/gitignore/templates/Nope')).status, 404);

  const l = await env.api('GET', '/licenses');
  validList('LicensesTemplateListEntry', l);
  assert.equal(
    l.json.slice(0, 2).map((x: { key: string }) => x.key),
    ['Apache-2.0', 'MIT'],
  );
  assert.ok(l.json.length > 100);
  const mit = await env.api('GET', '/licenses/MIT');
  valid('LicenseTemplateInfo', mit.json);
  assert.ok(mit.json.body.startsWith('MIT License'));
  assert.is(mit.json.url, `${env.srv.config.appUrl}api/v1/licenses/MIT`);
  assert.is((await env.api('GET', '/licenses/Nope-1.0')).status, 404);

  assert.equal((await env.api('GET', '/label/templates')).json, ['Advanced', 'Default']);
  const d = await env.api('GET', '/label/templates/Default');
  validList('LabelTemplate', d);
  assert.equal(d.json[0], { name: 'bug', exclusive: false, color: 'ee0701', description: 'Something is not working' });
  assert.is((await env.api('GET', '/label/templates/Nope')).status, 404);
});

test.run();
