// Repository wikis against a real server, database and git: the page name mapping (Forgejo's own test
// vectors from services/wiki/wiki_path_test.go), create/read/list/revisions/rename/delete, the wiki
// repository on disk (object format, HEAD, `git fsck`), permissions and the wiki unit gate, concurrent
// writers, git over HTTP for `<repo>.wiki.git`, and the wiki following its repository on rename,
// transfer and delete (Forgejo routers/api/v1/repo/wiki.go, services/wiki).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { cloneUrl, commitFiles, git, mustGit, workDir } from '../helpers/git-cli.ts';
import { exists, gitDir, newOrg, newRepo, setup, uniq, valid, type Env } from './repo-setup.ts';
import type { Res } from '../helpers/client.ts';
import { makeUser } from '../helpers/fixtures.ts';
import { changeWiki, ensureWikiRepo, gitPathToWebPath, titleToWebPath, webPathToGitPath, webPathToTitle } from '../../lib/repos/wiki.ts';
import { commitFiles as writeCommit } from '../../git/write.ts';
import { gitSupportsSha256 } from '../../lib/repos/repos.ts';

let env: Env;
let tmp: string;
test.before(async () => {
  env = await setup();
  tmp = workDir();
});
test.after(async () => {
  await env.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

type Repo = Awaited<ReturnType<typeof newRepo>>;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
const W = (repo: Repo) => `/repos/${repo.full_name}/wiki`;
const wikiDir = (repo: Repo, owner = repo.owner.login, name = repo.name) => gitDir(env, owner, `${name}.wiki`);
const tip = async (dir: string) =>
  (await git(null, '--git-dir', dir, 'rev-parse', '--verify', '--quiet', 'refs/heads/main')).out.trim() || null;
const files = async (dir: string) =>
  (await mustGit(null, '--git-dir', dir, 'ls-tree', '-z', '--name-only', 'refs/heads/main'))
    .split('\0')
    .filter((f) => f !== '')
    .sort();
const fsck = (dir: string) => mustGit(null, '--git-dir', dir, 'fsck', '--strict', '--no-dangling');

async function create(repo: Repo, title: string, content: string, message?: string): Promise<Res> {
  const r = await env.as(env.alice, 'POST', `${W(repo)}/new`, { title, content_base64: b64(content), ...(message ? { message } : {}) });
  assert.is(r.status, 201, r.text);
  valid('WikiPage', r.json);
  return r;
}

test('page names map like Forgejo (wiki_path_test.go vectors)', () => {
  const titles: [string, string][] = [
    ['', 'unnamed'],
    ['.', 'unnamed'],
    ['..', 'unnamed'],
    ['wiki name', 'wiki-name'],
    ['title.md', 'title.md.-'],
    ['wiki-name', 'wiki-name.-'],
    ['the wiki-name', 'the+wiki-name.-'],
    ['a/b', 'a%2Fb'],
    ['a%b', 'a%25b'],
  ];
  for (const [title, web] of titles) assert.is(titleToWebPath(title), web, title);
  const displays: [string, string][] = [
    ['wiki-name', 'wiki name'],
    ['wiki-name.-', 'wiki-name'],
    ['name-with %2F slash', 'name with / slash'],
    ['name-with %25 percent', 'name with % percent'],
    ['2000-01-02+meeting.-.md', '2000-01-02 meeting'],
    ['a%20b.md', 'a b'],
  ];
  for (const [web, title] of displays) assert.is(webPathToTitle(web), title, web);
  const gitPaths: [string, string][] = [
    ['wiki%20name', 'wiki-name.md'],
    ['wiki+name', 'wiki-name.md'],
    ['wiki%20name.md', 'wiki name.md'],
    ['wiki%2520name.md', 'wiki%20name.md'],
    ['2000-01-02+meeting', '2000-01-02-meeting.md'],
    ['2000-01-02%20meeting.-', '2000-01-02 meeting.-.md'],
  ];
  for (const [web, file] of gitPaths) assert.is(webPathToGitPath(web), file, web);
  const webPaths: [string, string][] = [
    ['hello-world.md', 'hello-world'],
    ['hello world.md', 'hello-world'],
    ['hello-world.-.md', 'hello-world.-'],
    ['hello world.-.md', 'hello+world.-'],
    ['symbols %2F.md', 'symbols-%2F'],
  ];
  for (const [file, web] of webPaths) assert.is(gitPathToWebPath(file), web, file);
  for (const bad of ['nofileextension', 'wrongfileextension.txt', 'badescaping%%.md']) assert.is(gitPathToWebPath(bad), null, bad);
  // Any printable title survives title -> web -> git -> web -> title (Forgejo's consistency test).
  for (const title of [
    'Home Page',
    '2000-01-02 meeting',
    'Über Straße',
    '100% sure?',
    'a+b=c & d',
    'x.md',
    'tabs\tand "quotes"',
    '日本語 ページ',
  ]) {
    const web = titleToWebPath(title);
    const back = gitPathToWebPath(webPathToGitPath(web));
    assert.is(back, web, title);
    assert.is(webPathToTitle(back ?? ''), title, title);
  }
});

test('before the first page everything is 404 and no wiki repository appears; the first page creates it', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  for (const [method, p] of [
    ['GET', '/pages'],
    ['GET', '/page/Home'],
    ['GET', '/revisions/Home'],
    ['DELETE', '/page/Home'],
  ] as const) {
    assert.is((await env.as(alice, method, `${W(repo)}${p}`)).status, 404, `${method} ${p}`);
  }
  assert.is((await env.as(alice, 'PATCH', `${W(repo)}/page/Home`, { content_base64: b64('x') })).status, 404);
  assert.not.ok(exists(wikiDir(repo)), 'reads and failed writes create nothing');

  const r = await create(repo, 'Home', '# Welcome\n', 'first page');
  assert.is(r.json.title, 'Home');
  assert.is(r.json.sub_url, 'Home');
  assert.is(r.json.html_url, `${env.srv.config.appUrl}${repo.full_name}/wiki/Home`);
  assert.is(unb64(r.json.content_base64), '# Welcome\n');
  assert.is(r.json.commit_count, 1);
  assert.is(r.json.sidebar, '');
  assert.is(r.json.footer, '');
  assert.is(r.json.last_commit.message, 'first page\n');
  assert.is(r.json.last_commit.author.name, alice.name);
  assert.is(r.json.last_commit.commiter.email, `${alice.name}@example.com`);
  assert.match(r.json.last_commit.author.date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.is(r.json.last_commit.sha, await tip(wikiDir(repo)));

  const dir = wikiDir(repo);
  assert.is(await mustGit(null, '--git-dir', dir, 'rev-parse', '--is-bare-repository'), 'true');
  assert.is(await mustGit(null, '--git-dir', dir, 'symbolic-ref', 'HEAD'), 'refs/heads/main');
  assert.equal(await files(dir), ['Home.md']);
  const log = await mustGit(null, '--git-dir', dir, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%s', 'main');
  assert.is(log, `${alice.name} <${alice.name}@example.com>|${alice.name} <${alice.name}@example.com>|first page`);
  await fsck(dir);

  const got = await env.as(alice, 'GET', `${W(repo)}/page/Home`);
  assert.is(got.status, 200);
  valid('WikiPage', got.json);
  assert.equal(got.json, r.json);
  // The default commit message is Forgejo's `Add %q`.
  await create(repo, 'Second', 'two');
  assert.is(await mustGit(null, '--git-dir', dir, 'log', '-1', '--format=%s', 'main'), 'Add "Second"');
});

test('titles with spaces, dashes, unicode and symbols: Forgejo file names, sub_url, and lookups by sub_url', async () => {
  const repo = await newRepo(env, env.alice);
  const cases: [string, string, string][] = [
    ['Home Page', 'Home-Page', 'Home-Page.md'],
    ['2000-01-02 meeting', '2000-01-02+meeting.-', '2000-01-02 meeting.-.md'],
    ['Über Straße', '%C3%9Cber-Stra%C3%9Fe', '%C3%9Cber-Stra%C3%9Fe.md'],
    ['100% sure?', '100%25-sure%3F', '100%25-sure%3F.md'],
  ];
  for (const [title, sub, file] of cases) {
    const r = await create(repo, title, `about ${title}`);
    assert.is(r.json.title, title);
    assert.is(r.json.sub_url, sub);
    assert.ok((await files(wikiDir(repo))).includes(file), file);
    const got = await env.as(env.alice, 'GET', `${W(repo)}/page/${sub}`);
    assert.is(got.status, 200, `${sub}: ${got.text}`);
    assert.is(got.json.title, title);
    assert.is(unb64(got.json.content_base64), `about ${title}`);
    // A client that escapes the sub_url once more still finds the page (Forgejo's unescaped fallback),
    // except that a `+` escaped twice is a plus, no longer a space: 404, as in Forgejo.
    const twice = await env.as(env.alice, 'GET', `${W(repo)}/page/${encodeURIComponent(sub)}`);
    assert.is(twice.status, sub.includes('+') ? 404 : 200, `${sub} escaped twice`);
  }
  // The web path is read as sent: `Home%20Page` names the same file, and comes back as sent.
  const spaced = await env.as(env.alice, 'GET', `${W(repo)}/page/Home%20Page`);
  assert.is(spaced.status, 200);
  assert.is(spaced.json.sub_url, 'Home%20Page');
  assert.is(spaced.json.title, 'Home Page');
  assert.is((await env.as(env.alice, 'GET', `${W(repo)}/page/Home-Pages`)).status, 404);
  await fsck(wikiDir(repo));
});

test('list: WikiPageMetaData in file order, paging with X-Total-Count only; files that are not pages are left out', async () => {
  const repo = await newRepo(env, env.alice);
  for (const t of ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon']) await create(repo, t, `${t}\n`);
  // A file pushed with git that is not a page: not listed and not counted.
  const work = path.join(tmp, uniq('list'));
  await mustGit(null, 'clone', '-q', cloneUrl(env.srv.url, env.alice.name, `${repo.name}.wiki`, [env.alice.name, env.alice.token]), work);
  await commitFiles(work, { 'logo.png': 'not a page', 'docs/Nested.md': 'nested' }, 'assets');
  await mustGit(work, 'push', '-q', 'origin', 'HEAD:main');

  const all = await env.as(env.alice, 'GET', `${W(repo)}/pages`);
  assert.is(all.status, 200);
  for (const m of all.json) valid('WikiPageMetaData', m);
  assert.equal(
    all.json.map((m: { title: string }) => m.title),
    ['Alpha', 'Beta', 'Delta', 'Epsilon', 'Gamma'],
  );
  assert.is(all.headers.get('x-total-count'), '5');
  assert.is(all.headers.get('link'), null);
  const alpha = all.json[0];
  assert.is(alpha.sub_url, 'Alpha');
  assert.is(alpha.html_url, `${env.srv.config.appUrl}${repo.full_name}/wiki/Alpha`);
  assert.is(alpha.last_commit.message, 'Add "Alpha"\n');

  const p2 = await env.as(env.alice, 'GET', `${W(repo)}/pages?limit=2&page=2`);
  assert.equal(
    p2.json.map((m: { title: string }) => m.title),
    ['Delta', 'Epsilon'],
  );
  assert.is(p2.headers.get('x-total-count'), '5');
  const past = await env.as(env.alice, 'GET', `${W(repo)}/pages?limit=2&page=9`);
  assert.equal(past.json, []);
});

test('revisions: newest first, count and X-Total-Count; commit_count follows; 404 for an unknown page', async () => {
  const repo = await newRepo(env, env.alice);
  await create(repo, 'Home', 'v1', 'one');
  await create(repo, 'Other', 'other');
  for (const [n, message] of [
    [2, 'two'],
    [3, ''],
  ] as const) {
    const r = await env.as(env.alice, 'PATCH', `${W(repo)}/page/Home`, { content_base64: b64(`v${n}`), message });
    assert.is(r.status, 200, r.text);
    valid('WikiPage', r.json);
    assert.is(unb64(r.json.content_base64), `v${n}`);
    assert.is(r.json.commit_count, n);
  }
  const revs = await env.as(env.alice, 'GET', `${W(repo)}/revisions/Home`);
  assert.is(revs.status, 200);
  valid('WikiCommitList', revs.json);
  assert.is(revs.json.count, 3);
  assert.is(revs.headers.get('x-total-count'), '3');
  assert.equal(
    revs.json.commits.map((k: { message: string }) => k.message),
    ['Update "Home"\n', 'two\n', 'one\n'],
  );
  assert.is(revs.json.commits[0].sha, await tip(wikiDir(repo)));
  const page2 = await env.as(env.alice, 'GET', `${W(repo)}/revisions/Home?page=2`);
  valid('WikiCommitList', page2.json);
  assert.equal(page2.json.commits, []);
  assert.is(page2.json.count, 3);
  assert.is((await env.as(env.alice, 'GET', `${W(repo)}/revisions/Nope`)).status, 404);
});

test('edit: rename with and without new content, keep the name, nothing to change; renaming onto another page is refused', async () => {
  const repo = await newRepo(env, env.alice);
  const dir = wikiDir(repo);
  await create(repo, 'Home', 'home text');
  await create(repo, 'Taken', 'taken text');

  const renamed = await env.as(env.alice, 'PATCH', `${W(repo)}/page/Home`, { title: 'Start Here', content_base64: b64('new text') });
  assert.is(renamed.status, 200, renamed.text);
  valid('WikiPage', renamed.json);
  assert.is(renamed.json.sub_url, 'Start-Here');
  assert.is(unb64(renamed.json.content_base64), 'new text');
  assert.is(renamed.json.commit_count, 1, 'a rename starts a new file history');
  assert.equal(await files(dir), ['Start-Here.md', 'Taken.md']);
  assert.is((await env.as(env.alice, 'GET', `${W(repo)}/page/Home`)).status, 404);

  // No content: the content stays; the default message is Forgejo's `Update %q` of the web path.
  const moved = await env.as(env.alice, 'PATCH', `${W(repo)}/page/Start-Here`, { title: 'Über' });
  assert.is(moved.status, 200, moved.text);
  assert.is(unb64(moved.json.content_base64), 'new text');
  assert.is(await mustGit(null, '--git-dir', dir, 'log', '-1', '--format=%s', 'main'), 'Update "%C3%9Cber"');

  // No title and no content: 200 and no commit.
  const before = await tip(dir);
  const same = await env.as(env.alice, 'PATCH', `${W(repo)}/page/%C3%9Cber`, {});
  assert.is(same.status, 200, same.text);
  assert.is(same.json.title, 'Über');
  assert.is(await tip(dir), before);

  const clash = await env.as(env.alice, 'PATCH', `${W(repo)}/page/%C3%9Cber`, { title: 'Taken', content_base64: b64('overwrite?') });
  assert.is(clash.status, 400, clash.text);
  assert.is(await tip(dir), before, 'nothing written');
  assert.is(unb64((await env.as(env.alice, 'GET', `${W(repo)}/page/Taken`)).json.content_base64), 'taken text');
  await fsck(dir);
});

test('delete: 204, then 404 for the page and for a second delete', async () => {
  const repo = await newRepo(env, env.alice);
  await create(repo, 'Doomed Page', 'bye');
  await create(repo, 'Keeper', 'stay');
  const del = await env.as(env.alice, 'DELETE', `${W(repo)}/page/Doomed-Page`);
  assert.is(del.status, 204, del.text);
  assert.is((await env.as(env.alice, 'GET', `${W(repo)}/page/Doomed-Page`)).status, 404);
  assert.is((await env.as(env.alice, 'DELETE', `${W(repo)}/page/Doomed-Page`)).status, 404);
  assert.equal(await files(wikiDir(repo)), ['Keeper.md']);
  assert.is(await mustGit(null, '--git-dir', wikiDir(repo), 'log', '-1', '--format=%s', 'main'), 'Delete page "Doomed-Page"');
  await fsck(wikiDir(repo));
});

test('bad input: base64, empty and reserved titles, an existing page are 400 and write nothing; a wrong type is 422', async () => {
  const { alice } = env;
  const fresh = await newRepo(env, alice);
  const bad = await env.as(alice, 'POST', `${W(fresh)}/new`, { title: 'X', content_base64: 'not base64!' });
  assert.is(bad.status, 400, bad.text);
  assert.is((await env.as(alice, 'POST', `${W(fresh)}/new`, { title: 'X', content_base64: 'QQ' })).status, 400, 'padding is required');
  assert.not.ok(exists(wikiDir(fresh)), 'a refused first page creates no wiki');

  const repo = await newRepo(env, alice);
  await create(repo, 'Home', 'home');
  const dir = wikiDir(repo);
  const before = await tip(dir);
  const refusals: [unknown, number][] = [
    [{ title: '', content_base64: b64('x') }, 400],
    [{ title: '   ', content_base64: b64('x') }, 400],
    [{ content_base64: b64('x') }, 400],
    [{ title: '_edit', content_base64: b64('x') }, 400],
    [{ title: 'raw', content_base64: b64('x') }, 400],
    [{ title: 'Home', content_base64: b64('again') }, 400],
    [{ title: 5 }, 422],
  ];
  for (const [body, status] of refusals) {
    const r = await env.as(alice, 'POST', `${W(repo)}/new`, body);
    assert.is(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
  }
  assert.is((await env.as(alice, 'PATCH', `${W(repo)}/page/Home`, { content_base64: '%%%' })).status, 400);
  assert.is((await env.as(alice, 'PATCH', `${W(repo)}/page/Home`, { title: '_pages' })).status, 400);
  assert.is(await tip(dir), before, 'nothing written');
  // Line breaks inside base64 are fine (Go skips them); an empty content makes an empty page.
  const wrapped = await env.as(alice, 'POST', `${W(repo)}/new`, {
    title: 'Wrapped',
    content_base64: `${b64('hello wiki').slice(0, 8)}\n${b64('hello wiki').slice(8)}`,
  });
  assert.is(wrapped.status, 201, wrapped.text);
  assert.is(unb64(wrapped.json.content_base64), 'hello wiki');
  const empty = await env.as(alice, 'POST', `${W(repo)}/new`, { title: 'Empty' });
  assert.is(empty.status, 201, empty.text);
  assert.is(empty.json.content_base64, '');
});

test('readers read, writers write, outsiders of a private repository get 404; anonymous writes are 401', async () => {
  const { alice, bob, carol } = env;
  const pub = await newRepo(env, alice);
  await create(pub, 'Home', 'public');
  assert.is((await env.as(undefined, 'GET', `${W(pub)}/page/Home`)).status, 200);
  assert.is((await env.as(undefined, 'GET', `${W(pub)}/pages`)).status, 200);
  assert.is((await env.as(undefined, 'POST', `${W(pub)}/new`, { title: 'Anon' })).status, 401);
  assert.is((await env.as(bob, 'GET', `${W(pub)}/revisions/Home`)).status, 200);
  assert.is((await env.as(bob, 'POST', `${W(pub)}/new`, { title: 'Bob' })).status, 403);
  assert.is((await env.as(bob, 'PATCH', `${W(pub)}/page/Home`, { content_base64: b64('defaced') })).status, 403);
  assert.is((await env.as(bob, 'DELETE', `${W(pub)}/page/Home`)).status, 403);

  const priv = await newRepo(env, alice, { private: true });
  await create(priv, 'Home', 'secret');
  assert.is((await env.as(alice, 'PUT', `/repos/${priv.full_name}/collaborators/${carol.name}`, { permission: 'read' })).status, 204);
  assert.is((await env.as(alice, 'PUT', `/repos/${priv.full_name}/collaborators/${bob.name}`, { permission: 'write' })).status, 204);
  // Outsiders, anonymous or signed in, do not learn that the repository exists.
  const stranger = await makeUser(env.db, env.srv.api);
  for (const who of [undefined, stranger]) {
    for (const [method, p, body] of [
      ['GET', '/page/Home'],
      ['GET', '/pages'],
      ['GET', '/revisions/Home'],
      ['POST', '/new', { title: 'X' }],
      ['PATCH', '/page/Home', { title: 'Y' }],
      ['DELETE', '/page/Home'],
    ] as const) {
      assert.is((await env.as(who, method, `${W(priv)}${p}`, body)).status, 404, `${who ? 'stranger' : 'anonymous'} ${method} ${p}`);
    }
  }
  assert.is((await env.as(carol, 'GET', `${W(priv)}/page/Home`)).status, 200);
  assert.is((await env.as(carol, 'POST', `${W(priv)}/new`, { title: 'Carol' })).status, 403);
  const byBob = await env.as(bob, 'POST', `${W(priv)}/new`, { title: 'Bob Notes', content_base64: b64('from bob') });
  assert.is(byBob.status, 201, byBob.text);
  assert.is(byBob.json.last_commit.author.name, bob.name);
  assert.is((await env.as(bob, 'DELETE', `${W(priv)}/page/Bob-Notes`)).status, 204);
  assert.equal(await files(wikiDir(priv)), ['Home.md']);
});

test('has_wiki=false: every wiki route is 404 for everyone, and the pages come back when the wiki is enabled again', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  await create(repo, 'Home', 'kept');
  assert.is((await env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { has_wiki: false })).status, 200);
  for (const [method, p, body] of [
    ['GET', '/pages'],
    ['GET', '/page/Home'],
    ['GET', '/revisions/Home'],
    ['POST', '/new', { title: 'X' }],
    ['PATCH', '/page/Home', { title: 'Y' }],
    ['DELETE', '/page/Home'],
  ] as const) {
    assert.is((await env.as(alice, method, `${W(repo)}${p}`, body)).status, 404, `${method} ${p}`);
  }
  assert.is((await env.as(env.admin, 'GET', `${W(repo)}/pages`)).status, 404, 'site admins too');
  const clone = await git(
    null,
    'clone',
    '-q',
    cloneUrl(env.srv.url, alice.name, `${repo.name}.wiki`, [alice.name, alice.token]),
    path.join(tmp, uniq('off')),
  );
  assert.is(clone.ok, false, 'git over HTTP is refused too');
  assert.is((await env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { has_wiki: true })).status, 200);
  const back = await env.as(alice, 'GET', `${W(repo)}/page/Home`);
  assert.is(back.status, 200);
  assert.is(unb64(back.json.content_base64), 'kept');
});

test('an archived repository: the wiki reads, writes are 423 and change nothing', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  await create(repo, 'Home', 'frozen');
  const before = await tip(wikiDir(repo));
  assert.is((await env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { archived: true })).status, 200);
  assert.is((await env.as(alice, 'GET', `${W(repo)}/page/Home`)).status, 200);
  assert.is((await env.as(alice, 'POST', `${W(repo)}/new`, { title: 'New' })).status, 423);
  assert.is((await env.as(alice, 'PATCH', `${W(repo)}/page/Home`, { content_base64: b64('thawed') })).status, 423);
  assert.is((await env.as(alice, 'DELETE', `${W(repo)}/page/Home`)).status, 423);
  assert.is(await tip(wikiDir(repo)), before);
});

test('concurrent writers: different pages all land, the same page lands once, and the repository stays sound', async () => {
  const repo = await newRepo(env, env.alice);
  const titles = Array.from({ length: 6 }, (_, i) => `Page ${i}`);
  const many = await Promise.all(titles.map((t) => env.as(env.alice, 'POST', `${W(repo)}/new`, { title: t, content_base64: b64(t) })));
  assert.equal(
    many.map((r) => r.status),
    titles.map(() => 201),
    many.map((r) => r.text).join('\n'),
  );
  const same = await Promise.all(
    Array.from({ length: 4 }, (_, i) => env.as(env.alice, 'POST', `${W(repo)}/new`, { title: 'Contested', content_base64: b64(`v${i}`) })),
  );
  assert.equal(same.map((r) => r.status).sort(), [201, 400, 400, 400]);
  const dir = wikiDir(repo);
  assert.equal(await files(dir), [...titles.map((t) => `${t.replace(' ', '-')}.md`), 'Contested.md'].sort());
  assert.is(await mustGit(null, '--git-dir', dir, 'rev-list', '--count', 'main'), '7');
  await fsck(dir);
});

test('a writer that loses the compare-and-swap to another process plans again on the new tip', async () => {
  const w = { path: path.join(tmp, uniq('cas'), 'x.wiki.git'), branch: 'main' };
  await ensureWikiRepo(w, 'sha1');
  await ensureWikiRepo(w, 'sha1'); // a second caller finds it there
  const who = { name: 'Other', email: 'other@example.com' };
  const tips: (string | null)[] = [];
  await changeWiki(w, who, async (t) => {
    tips.push(t);
    // Another process commits between our read of the tip and our update of the branch.
    if (tips.length === 1)
      await writeCommit(w.path, {
        branch: 'main',
        parent: null,
        expectedOld: null,
        ops: [{ op: 'create', path: 'Theirs.md', content: Buffer.from('theirs') }],
        message: 'theirs',
        author: who,
      });
    return { ops: [{ op: 'create', path: 'Ours.md', content: Buffer.from('ours') }], message: 'ours' };
  });
  assert.is(tips.length, 2);
  assert.is(tips[0], null);
  assert.ok(tips[1]);
  assert.equal(await files(w.path), ['Ours.md', 'Theirs.md']);
  assert.is(await mustGit(null, '--git-dir', w.path, 'log', '--format=%s', 'main'), 'ours\ntheirs');
  await fsck(w.path);
});

test('git over HTTP: clone <repo>.wiki.git, push a page that the API then serves; readers cannot push', async () => {
  const { alice, bob } = env;
  const none = await newRepo(env, alice);
  assert.is(
    (await git(null, 'clone', '-q', cloneUrl(env.srv.url, alice.name, `${none.name}.wiki`), path.join(tmp, uniq('none')))).ok,
    false,
    'no wiki yet',
  );

  const repo = await newRepo(env, alice);
  await create(repo, 'Home', 'from the API');
  const work = path.join(tmp, uniq('wiki'));
  await mustGit(null, 'clone', '-q', cloneUrl(env.srv.url, alice.name, `${repo.name}.wiki`), work);
  assert.is(fs.readFileSync(path.join(work, 'Home.md'), 'utf8'), 'from the API');
  assert.is(await mustGit(work, 'rev-parse', '--abbrev-ref', 'HEAD'), 'main');

  await commitFiles(work, { 'Pushed-Page.md': 'from git\n', '_Sidebar.md': 'side\n', '_Footer.md': 'foot\n' }, 'pushed');
  const byBob = await git(work, 'push', cloneUrl(env.srv.url, alice.name, `${repo.name}.wiki`, [bob.name, bob.token]), 'HEAD:main');
  assert.is(byBob.ok, false);
  assert.match(byBob.out, '403');
  await mustGit(work, 'push', '-q', cloneUrl(env.srv.url, alice.name, `${repo.name}.wiki`, [alice.name, alice.token]), 'HEAD:main');
  const page = await env.as(alice, 'GET', `${W(repo)}/page/Pushed-Page`);
  assert.is(page.status, 200, page.text);
  assert.is(page.json.title, 'Pushed Page');
  assert.is(unb64(page.json.sidebar), 'side\n');
  assert.is(unb64(page.json.footer), 'foot\n');
  assert.is(page.json.last_commit.author.name, 'Tester');
  // The code repository's record is untouched by a wiki push.
  assert.is((await env.as(alice, 'GET', `/repos/${repo.full_name}`)).json.empty, true);

  // A push creates the wiki of a repository that has none.
  const fresh = await newRepo(env, alice);
  await mustGit(work, 'push', '-q', cloneUrl(env.srv.url, alice.name, `${fresh.name}.wiki`, [alice.name, alice.token]), 'HEAD:main');
  assert.is((await env.as(alice, 'GET', `${W(fresh)}/page/Home`)).status, 200);
  await fsck(wikiDir(fresh));
});

test('the wiki follows its repository: rename, transfer to an organization, delete', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  await create(repo, 'Home', 'travels');
  const newName = uniq('renamed');
  assert.is((await env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { name: newName })).status, 200);
  assert.not.ok(exists(wikiDir(repo)));
  assert.ok(exists(`${wikiDir(repo, alice.name, newName)}/HEAD`));
  const renamed = await env.as(alice, 'GET', `/repos/${alice.name}/${newName}/wiki/page/Home`);
  assert.is(renamed.status, 200);
  assert.is(renamed.json.html_url, `${env.srv.config.appUrl}${alice.name}/${newName}/wiki/Home`);

  const org = await newOrg(env, alice);
  const moved = await env.as(alice, 'POST', `/repos/${alice.name}/${newName}/transfer`, { new_owner: org.name });
  assert.is(moved.status, 202, moved.text);
  assert.not.ok(exists(wikiDir(repo, alice.name, newName)));
  assert.ok(exists(`${wikiDir(repo, org.name, newName)}/HEAD`));
  assert.is(unb64((await env.as(alice, 'GET', `/repos/${org.name}/${newName}/wiki/page/Home`)).json.content_base64), 'travels');

  assert.is((await env.as(alice, 'DELETE', `/repos/${org.name}/${newName}`)).status, 204);
  assert.not.ok(exists(wikiDir(repo, org.name, newName)));
  const leftovers = fs.readdirSync(path.dirname(wikiDir(repo, org.name, newName))).filter((f) => f.startsWith(newName.toLowerCase()));
  assert.equal(leftovers, []);
});

test('sha256 repositories get a sha256 wiki', async () => {
  if (!(await gitSupportsSha256())) return;
  const repo = await newRepo(env, env.alice, { object_format_name: 'sha256' });
  const r = await create(repo, 'Home', 'long ids');
  assert.is(r.json.last_commit.sha.length, 64);
  assert.is(await mustGit(null, '--git-dir', wikiDir(repo), 'rev-parse', '--show-object-format'), 'sha256');
  await fsck(wikiDir(repo));
});

test.run();
