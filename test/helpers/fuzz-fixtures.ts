// The world the robustness tests aim at: a site admin who owns a repository with content, a branch
// and a pull request, an issue with a comment, a label, a milestone, a release, hooks, an
// organization with a team, a wiki page, secrets, variables, quota rules and a package, so that the
// loaders of (nearly) every row pass and the body is actually validated. Everything is made
// through the API, like a client would.
import * as assert from 'uvu/assert';
import { openTestDb, startServer, type TestDb, type TestServer } from './server.ts';
import { call, type Call, type Res } from './client.ts';
import { makeUser, type TestUser } from './fixtures.ts';

export interface FuzzWorld {
  db: TestDb;
  srv: TestServer;
  admin: TestUser;
  other: TestUser;
  /** A valid value for each path parameter, by the row's path and the parameter's name. */
  param(path: string, name: string): string;
  close(): Promise<void>;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

export async function fuzzWorld(): Promise<FuzzWorld> {
  const db = await openTestDb();
  // Every flagged row mounted, so the robustness tests reach all of them.
  const srv = await startServer(db, {
    QUOTA__ENABLED: 'true',
    FEDERATION__ENABLED: 'true',
    REPOSITORY__ENABLE_FLAGS: 'true',
    WEBHOOK__ALLOWED_HOST_LIST: '*',
  });
  const admin = await makeUser(db, srv.api, { admin: true });
  const other = await makeUser(db, srv.api);
  const as = async (method: string, path: string, body?: unknown, o: Call = {}): Promise<Res> =>
    call(srv.api, method, path, { token: admin.token, body, ...o });
  const made = async (status: number, method: string, path: string, body?: unknown, o: Call = {}) => {
    const r = await as(method, path, body, o);
    assert.is(r.status, status, `fixture ${method} ${path}: ${r.status} ${r.text}`);
    return r.json;
  };
  const A = admin.name;
  const repo = await made(201, 'POST', '/user/repos', { name: 'fuzzrepo', auto_init: true, readme: 'Default' });
  const R = `/repos/${A}/fuzzrepo`;
  await made(201, 'POST', `${R}/contents/feature.txt`, { content: b64('feature\n'), new_branch: 'feature', message: 'feature' });
  const issue = await made(201, 'POST', `${R}/issues`, { title: 'fuzz issue' });
  const pull = await made(201, 'POST', `${R}/pulls`, { head: 'feature', base: 'main', title: 'fuzz pull' });
  const comment = await made(201, 'POST', `${R}/issues/${issue.number}/comments`, { body: 'fuzz comment' });
  const label = await made(201, 'POST', `${R}/labels`, { name: 'fuzz', color: '#ff0000' });
  const milestone = await made(201, 'POST', `${R}/milestones`, { title: 'fuzz milestone' });
  const release = await made(201, 'POST', `${R}/releases`, { tag_name: 'v1', name: 'v1' });
  const hookBody = { type: 'forgejo', config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' } };
  const repoHook = await made(201, 'POST', `${R}/hooks`, hookBody);
  const time = await made(200, 'POST', `${R}/issues/${issue.number}/times`, { time: 60 });
  const tagProtection = await made(201, 'POST', `${R}/tag_protections`, { name_pattern: 'v*', whitelist_usernames: [A] });
  await made(201, 'POST', `${R}/branch_protections`, { rule_name: 'main' });
  await made(201, 'POST', `${R}/wiki/new`, { title: 'Home', content_base64: b64('home') });
  await made(201, 'PUT', `${R}/actions/secrets/FUZZ_SECRET`, { data: 'x' });
  await made(204, 'POST', `${R}/actions/variables/FUZZ_VAR`, { value: 'x' });
  await made(204, 'PUT', `${R}/collaborators/${other.name}`, { permission: 'write' });
  const review = await made(200, 'POST', `${R}/pulls/${pull.number}/reviews`, {
    body: 'fuzz review',
    event: 'COMMENT',
    comments: [{ path: 'feature.txt', body: 'line', new_position: 1 }],
  });
  const reviewComments = await made(200, 'GET', `${R}/pulls/${pull.number}/reviews/${review.id}/comments`);
  const sha = (await made(200, 'GET', `${R}/branches/main`)).commit.id as string;
  const org = await made(201, 'POST', '/orgs', { username: `fuzzorg${process.pid % 1000}` });
  const team = await made(201, 'POST', `/orgs/${org.name}/teams`, { name: 'fuzzteam', permission: 'write', units: ['repo.code'] });
  const orgHook = await made(201, 'POST', `/orgs/${org.name}/hooks`, hookBody);
  const orgLabel = await made(201, 'POST', `/orgs/${org.name}/labels`, { name: 'fuzz', color: '#00ff00' });
  const userHook = await made(201, 'POST', '/user/hooks', hookBody);
  const adminHook = await made(201, 'POST', '/admin/hooks', hookBody);
  const app = await made(201, 'POST', '/user/applications/oauth2', { name: 'fuzzapp', redirect_uris: ['https://example.com/cb'] });
  const token = await made(
    201,
    'POST',
    `/users/${A}/tokens`,
    { name: 'fuzztoken', scopes: ['all'] },
    { basic: [A, admin.password], token: undefined },
  );
  await made(201, 'POST', '/admin/quota/rules', { name: 'fuzzrule', limit: 1000000, subjects: ['size:all'] });
  await made(201, 'POST', '/admin/quota/groups', { name: 'fuzzgroup' });
  const pkg = await call(srv.url, 'PUT', `/api/packages/${A}/generic/fuzzpkg/1.0/file.txt`, { token: admin.token, body: 'x' });
  assert.is(pkg.status, 201, `fixture package: ${pkg.text}`);
  const attachment = await uploadAsset(srv.api, admin.token, `${R}/issues/${issue.number}/assets`);
  const releaseAsset = await uploadAsset(srv.api, admin.token, `${R}/releases/${release.id}/assets`);

  const ids: [RegExp, string][] = [
    [/\/issues\/comments\/\{id\}|\/issues\/\{index\}\/comments\/\{id\}/, comment.id],
    [/^\/repos\/[^/]+\/[^/]+\/hooks\/\{id\}/, repoHook.id],
    [/^\/orgs\/[^/]+\/hooks\/\{id\}/, orgHook.id],
    [/^\/user\/hooks\/\{id\}/, userHook.id],
    [/^\/admin\/hooks\/\{id\}/, adminHook.id],
    [/\/hooks\/git\/\{id\}/, 'pre-receive'],
    [/^\/orgs\/[^/]+\/labels\/\{id\}/, orgLabel.id],
    [/\/labels\/\{id\}/, label.id],
    [/\/milestones\/\{id\}/, milestone.id],
    [/\/releases\/\{id\}/, release.id],
    [/\/reviews\/\{id\}/, review.id],
    [/\/times\/\{id\}/, time.id],
    [/\/tag_protections\/\{id\}/, tagProtection.id],
    [/\/tokens\/\{id\}/, token.id],
    [/\/oauth2\/\{id\}/, app.id],
    [/^\/repositories\/\{id\}/, repo.id],
  ].map(([re, v]) => [re as RegExp, String(v)]);
  const releaseRow = /\/releases\/\{id\}\/assets/;
  const byName: Record<string, string> = {
    username: A,
    reponame: 'fuzzrepo',
    org: org.name,
    index: String(issue.number),
    teamid: String(team.id),
    sha,
    ref: 'main',
    tag: 'v1',
    branch: 'main',
    base: 'main',
    filename: '.editorconfig',
    diffType: 'diff',
    ball_type: 'archive',
    task: 'update_mirrors',
    flag: 'fuzzflag',
    topic: 'fuzztopic',
    collaborator: other.name,
    user: other.name,
    target: other.name,
    timetrackingusername: A,
    identifier: String(label.id),
    position: '1',
    'user-id': String(admin.id),
    'repository-id': String(repo.id),
    'activity-id': '1',
    job_id: '1',
    run_id: '1',
    artifact_id: '1',
    runner_id: '1',
    workflowfilename: 'ci.yml',
    pageName: 'Home',
    quotagroup: 'fuzzgroup',
    quotarule: 'fuzzrule',
    type: 'generic',
    version: '1.0',
    repo_name: 'fuzzrepo',
    variablename: 'FUZZ_VAR',
    secretname: 'FUZZ_SECRET',
    team: team.name,
    comment: String(reviewComments[0]?.id ?? 1),
    attachment_id: String(attachment.id),
    id: '1',
  };
  const param = (path: string, name: string): string => {
    // An edit the fuzzer gets through (a valid one-letter password, say) must not lock the admin out.
    if (name === 'username' && path.startsWith('/admin/users/')) return other.name;
    if (name === 'index' && path.includes('/pulls/')) return String(pull.number);
    if (name === 'attachment_id' && releaseRow.test(path)) return String(releaseAsset.id);
    if (name === 'name') {
      if (path.startsWith('/packages/')) return 'fuzzpkg';
      if (path.startsWith('/gitignore/')) return 'Go';
      if (path.startsWith('/licenses/')) return 'MIT';
      if (path.startsWith('/label/')) return 'Default';
      if (path.includes('/branch_protections/')) return 'main';
      return 'fuzzname';
    }
    if (name === 'id') for (const [re, v] of ids) if (re.test(path)) return v;
    if (name === '*')
      return path.includes('/contents/') || path.includes('/raw/') || path.includes('/media/')
        ? 'README.md'
        : path.includes('/compare/')
          ? 'main...feature'
          : path.includes('/archive/')
            ? 'main.zip'
            : path.includes('/tags/')
              ? 'v1'
              : 'main';
    return byName[name] ?? 'x';
  };
  return {
    db,
    srv,
    admin,
    other,
    param,
    close: async () => {
      await srv.close();
      await db.close();
    },
  };
}

async function uploadAsset(api: string, token: string, path: string): Promise<{ id: number }> {
  const form = new FormData();
  form.append('attachment', new Blob(['fuzz attachment']), 'fuzz.txt');
  const r = await fetch(`${api}${path}`, { method: 'POST', headers: { Authorization: `token ${token}` }, body: form });
  const text = await r.text();
  assert.is(r.status, 201, `fixture POST ${path}: ${text}`);
  return JSON.parse(text);
}
