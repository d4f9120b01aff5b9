// Contents, raw files, archives and diff patches through the API (Forgejo routers/api/v1/repo/file.go,
// services/repository/files; forgejo-facts 6.11, 12.1, 12.3, 12.5).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { makeRepo, makeUser, type TestUser } from '../helpers/fixtures.ts';
import { cloneUrl, commitFiles, mustGit, workDir } from '../helpers/git-cli.ts';
import { ApiSchemas, validateResponse } from '../../model/schemas/index.ts';

let db: TestDb;
let srv: TestServer;
let alice: TestUser;
let bob: TestUser; // an outsider
let tmp: string;

const valid = (schema: keyof typeof ApiSchemas, value: unknown) => {
  const r = validateResponse(ApiSchemas[schema], value);
  assert.ok(r.ok, JSON.stringify(r));
};
const api = (method: string, p: string, body?: unknown, token = alice.token) => call(srv.api, method, p, { token, body });
const R = () => `/repos/${alice.name}/files`;
const gitDir = (repo = 'files') => `--git-dir=${path.join(srv.config.repoRoot, alice.name.toLowerCase(), `${repo}.git`)}`;
const refOf = (ref: string, repo = 'files') => mustGit(null, gitDir(repo), 'rev-parse', '--verify', '--quiet', ref).catch(() => null);
const b64 = (s: string) => Buffer.from(s).toString('base64');
let head = '';

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  alice = await makeUser(db, srv.api);
  bob = await makeUser(db, srv.api);
  tmp = workDir();
  await makeRepo(srv.api, alice, { name: 'files', auto_init: true });
  await makeRepo(srv.api, alice, { name: 'blank' });
  // A tree with a directory, a symlink, an executable and a submodule, pushed over HTTP.
  const wt = path.join(tmp, 'files');
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'files', [alice.name, alice.token]), wt);
  fs.symlinkSync('README.md', path.join(wt, 'link'));
  await commitFiles(
    wt,
    {
      'src/main.go': 'package main\n\nfunc main() {}\n',
      'src/lib.ts': 'export const x = 1;\n',
      'run.sh': '#!/bin/sh\necho hi\n',
      '.editorconfig':
        'root = true\n\n[*]\nindent_style = space\nindent_size = 2\n\n[*.go]\nindent_style = tab\n\n[Makefile]\nindent_style = tab\n',
      '.gitmodules': '[submodule "vendor/lib"]\n\tpath = vendor/lib\n\turl = https://example.com/lib.git\n',
      '.forgejo/issue_template/bug.md': '---\nname: Bug\nabout: Report a bug\ntitle: "[bug] "\nlabels: bug, triage\n---\nWhat happened?\n',
      '.forgejo/issue_template/form.yaml':
        'name: Form\ndescription: A form\nbody:\n  - type: textarea\n    id: what\n    attributes:\n      label: What?\n',
      '.forgejo/issue_template/broken.yaml': 'name: Broken\n',
      '.forgejo/issue_template/config.yml':
        'blank_issues_enabled: false\ncontact_links:\n  - name: Forum\n    url: https://forum.example.com\n    about: Ask there\n',
    },
    'tree',
  );
  await mustGit(wt, 'update-index', '--chmod=+x', 'run.sh');
  await mustGit(wt, 'update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},vendor/lib`);
  await mustGit(wt, 'commit', '-q', '-m', 'submodule and mode');
  await mustGit(wt, 'push', '-q', 'origin', 'HEAD:main');
  head = (await refOf('refs/heads/main'))!;
});
test.after(async () => {
  await srv.close();
  await db.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('forgejo-facts 12.3: an empty repository has no contents', async () => {
  for (const p of ['/contents', '/contents/anything/at/all']) {
    const r = await api('GET', `/repos/${alice.name}/blank${p}`);
    assert.is(r.status, 200);
    assert.equal(r.json, []);
  }
  const raw = await api('GET', `/repos/${alice.name}/blank/raw/README.md`);
  assert.is(raw.status, 404);
  assert.equal(raw.json.errors, ['repository is empty']);
});

test('forgejo-facts 6.11: a file with its content and links', async () => {
  const r = await api('GET', `${R()}/contents/src/main.go`);
  assert.is(r.status, 200);
  valid('ContentsResponse', r.json);
  assert.is(Buffer.from(r.json.content, 'base64').toString(), 'package main\n\nfunc main() {}\n');
  assert.is(r.json.encoding, 'base64');
  assert.is(r.json.type, 'file');
  assert.is(r.json.size, 29);
  assert.is(r.json.name, 'main.go');
  assert.is(r.json.last_commit_sha, (await refOf('refs/heads/main~1'))!);
  const api_ = `${srv.config.appUrl}api/v1/repos/${alice.name}/files`;
  const html = `${srv.config.appUrl}${alice.name}/files`;
  assert.is(r.json.url, `${api_}/contents/src/main.go?ref=main`);
  assert.is(r.json.html_url, `${html}/src/branch/main/src/main.go`);
  assert.is(r.json.download_url, `${html}/raw/branch/main/src/main.go`);
  assert.is(r.json.git_url, `${api_}/git/blobs/${r.json.sha}`);
  assert.equal(r.json._links, { self: r.json.url, git: r.json.git_url, html: r.json.html_url });
  assert.is(r.json.target, null);
  assert.is(r.json.submodule_git_url, null);
});

test('directories list entries without content; symlinks carry their target; submodules their URL', async () => {
  const root = await api('GET', `${R()}/contents`);
  assert.is(root.status, 200);
  for (const e of root.json) valid('ContentsResponse', e);
  const byName = Object.fromEntries(root.json.map((e: { name: string }) => [e.name, e]));
  assert.equal(Object.keys(byName).sort(), ['.editorconfig', '.forgejo', '.gitmodules', 'README.md', 'link', 'run.sh', 'src', 'vendor']);
  assert.is(byName.src.type, 'dir');
  assert.is(byName.src.content, null);
  assert.is(byName['README.md'].content, null);
  assert.is(byName.link.type, 'symlink');
  assert.is(byName.link.target, 'README.md');
  const sub = await api('GET', `${R()}/contents/vendor/lib`);
  valid('ContentsResponse', sub.json);
  assert.is(sub.json.type, 'submodule');
  assert.is(sub.json.submodule_git_url, 'https://example.com/lib.git');
  assert.is(sub.json.html_url, null);
  assert.is(sub.json.download_url, null);
  const dir = await api('GET', `${R()}/contents/src`);
  assert.equal(
    dir.json.map((e: { path: string }) => e.path),
    ['src/lib.ts', 'src/main.go'],
  );
});

test('contents at a ref: branch, tag and commit id shape the URLs', async () => {
  const first = (await refOf('refs/heads/main~2'))!;
  const r = await api('GET', `${R()}/contents/README.md?ref=${first.slice(0, 8)}`);
  assert.is(r.status, 200);
  assert.is(r.json.url, `${srv.config.appUrl}api/v1/repos/${alice.name}/files/contents/README.md?ref=${first.slice(0, 8)}`);
  assert.is(r.json.html_url, `${srv.config.appUrl}${alice.name}/files/src/commit/${first}/README.md`);
  assert.is((await api('GET', `${R()}/contents/src/main.go?ref=${first}`)).status, 404);
  assert.is((await api('GET', `${R()}/contents/README.md?ref=no-such-ref`)).status, 404);
  assert.is((await api('GET', `${R()}/contents/nope.txt`)).status, 404);
});

test('create, update and delete one file; the repository record follows', async () => {
  const created = await api('POST', `${R()}/contents/docs/new.txt`, {
    content: b64('one\n'),
    message: 'add new',
    author: { name: 'Ann', email: 'ann@example.com' },
    dates: { author: '2020-01-02T03:04:05+02:00' },
  });
  assert.is(created.status, 201);
  valid('FileResponse', created.json);
  assert.is(created.json.content.path, 'docs/new.txt');
  assert.is(created.json.commit.message, 'add new\n');
  assert.is(created.json.commit.author.name, 'Ann');
  assert.is(created.json.commit.author.date, '2020-01-02T01:04:05Z');
  // Only the author was given: it is the committer as well.
  assert.is(created.json.commit.committer.email, 'ann@example.com');
  assert.equal(
    created.json.commit.parents.map((p: { sha: string }) => p.sha),
    [head],
  );
  assert.is(await refOf('refs/heads/main'), created.json.commit.sha);
  const sha = created.json.content.sha;
  assert.is((await api('POST', `${R()}/contents/docs/new.txt`, { content: b64('again') })).status, 422);
  const noSha = await api('PUT', `${R()}/contents/docs/new.txt`, { content: b64('two\n') });
  assert.is(noSha.status, 422);
  const stale = await api('PUT', `${R()}/contents/docs/new.txt`, { content: b64('two\n'), sha: '0'.repeat(40) });
  assert.is(stale.status, 409);
  assert.is(await refOf('refs/heads/main'), created.json.commit.sha);
  const updated = await api('PUT', `${R()}/contents/docs/new.txt`, { content: b64('two\n'), sha });
  assert.is(updated.status, 200);
  valid('FileResponse', updated.json);
  assert.is(updated.json.commit.message, 'Update docs/new.txt\n');
  assert.is(Buffer.from(updated.json.content.content, 'base64').toString(), 'two\n');
  const staleDelete = await api('DELETE', `${R()}/contents/docs/new.txt`, { sha });
  assert.is(staleDelete.status, 400);
  const deleted = await api('DELETE', `${R()}/contents/docs/new.txt`, { sha: updated.json.content.sha, signoff: true });
  assert.is(deleted.status, 200);
  valid('FileDeleteResponse', deleted.json);
  assert.is(deleted.json.content, null);
  assert.match(deleted.json.commit.message, `Signed-off-by: ${alice.name} <`);
  assert.is((await api('DELETE', `${R()}/contents/docs/new.txt`, { sha: updated.json.content.sha })).status, 404);
  head = (await refOf('refs/heads/main'))!;
});

test('writes by a reader are 403 and change nothing', async () => {
  const r = await api('POST', `${R()}/contents/bob.txt`, { content: b64('x') }, bob.token);
  assert.is(r.status, 403);
  assert.is(r.json.message, 'user should have a permission to write to this branch');
  assert.is(await refOf('refs/heads/main'), head);
});

test('bad paths are 422 and change nothing', async () => {
  // Encoded slashes keep the client from normalising the dot segments away.
  for (const p of ['a%2F..%2Fb.txt', '.git/config', 'x/.git/hooks', 'ok%00bad', '%2Fabs.txt', 'trailing%5C']) {
    const r = await api('POST', `${R()}/contents/${p}`, { content: b64('x') });
    assert.is(r.status, 422, p);
  }
  const batch = await api('POST', `${R()}/contents`, { files: [{ operation: 'create', path: '../escape', content: b64('x') }] });
  assert.is(batch.status, 422);
  // A NUL byte in the message (git commit-tree refuses it) is refused at validation: 422 naming the field.
  const nul = await api('POST', `${R()}/contents/nul.txt`, { content: b64('x'), message: 'a\u0000b' });
  assert.is(nul.status, 422);
  assert.is(nul.json.message, '[Message]: Invalid');
  const nulBatch = await api('POST', `${R()}/contents`, {
    message: 'a\u0000b',
    files: [{ operation: 'create', path: 'nul.txt', content: b64('x') }],
  });
  assert.is(nulBatch.status, 422);
  const nulPatch = await api('POST', `/repos/${alice.name}/files/diffpatch`, {
    content: 'diff --git a/x b/x\n',
    sha: head,
    message: 'a\u0000b',
  });
  assert.is(nulPatch.status, 422);
  assert.is(await refOf('refs/heads/main'), head);
});

test('change several files in one commit, on a new branch', async () => {
  const readme = await api('GET', `${R()}/contents/README.md`);
  const r = await api('POST', `${R()}/contents`, {
    branch: 'main',
    new_branch: 'batch',
    message: 'batch change',
    files: [
      { operation: 'create', path: 'b/one.txt', content: b64('1') },
      { operation: 'update', path: 'README.md', content: b64('# new readme\n'), sha: readme.json.sha },
      { operation: 'delete', path: 'src/lib.ts' },
      { operation: 'update', path: 'moved.sh', from_path: 'run.sh', content: b64('#!/bin/sh\necho moved\n') },
    ],
  });
  assert.is(r.status, 201);
  // Forgejo answers null for a deleted path (a nil entry).
  valid('FilesResponse', r.json);
  assert.is(r.json.files.length, 4);
  assert.is(r.json.files[2], null);
  assert.is(await refOf('refs/heads/main'), head);
  const branch = await refOf('refs/heads/batch');
  assert.is(r.json.commit.sha, branch);
  assert.is(await mustGit(null, gitDir(), 'show', 'batch:README.md'), '# new readme');
  assert.is(await mustGit(null, gitDir(), 'ls-tree', 'batch', 'moved.sh'), `100755 blob ${r.json.files[3].sha}\tmoved.sh`);
  assert.is(await refOf('batch:run.sh'), null);
  // The new branch already exists now.
  const again = await api('POST', `${R()}/contents`, {
    new_branch: 'batch',
    files: [{ operation: 'create', path: 'c.txt', content: b64('c') }],
  });
  assert.is(again.status, 422);
  assert.is(await refOf('refs/heads/batch'), branch);
});

test('concurrent writes to one branch: each succeeds or gets 409, and the repository stays sound', async () => {
  const before = (await refOf('refs/heads/main'))!;
  const writes = await Promise.all(
    Array.from({ length: 8 }, (_, i) => api('POST', `${R()}/contents/race/${i}.txt`, { content: b64(`race ${i}\n`) })),
  );
  const statuses = writes.map((w) => w.status);
  assert.ok(
    statuses.every((s) => s === 201 || s === 409),
    statuses.join(','),
  );
  const won = writes.filter((w) => w.status === 201);
  assert.ok(won.length >= 1);
  // Every winner's commit is on the branch, in one line of history.
  const log = (await mustGit(null, gitDir(), 'rev-list', `${before}..main`)).split('\n').filter(Boolean);
  assert.is(log.length, won.length);
  for (const w of won) assert.ok(log.includes(w.json.commit.sha));
  await mustGit(null, gitDir(), 'fsck', '--strict');
  head = (await refOf('refs/heads/main'))!;
});

test('raw and media: content, ETag, 304, ref in the path or the query', async () => {
  const r = await fetch(`${srv.api}${R()}/raw/src/main.go`, { headers: { Authorization: `token ${alice.token}` } });
  assert.is(r.status, 200);
  assert.is(await r.text(), 'package main\n\nfunc main() {}\n');
  const etag = r.headers.get('etag')!;
  assert.match(etag, /^"[0-9a-f]{40}"$/);
  assert.ok(r.headers.get('last-modified'));
  const again = await fetch(`${srv.api}${R()}/raw/src/main.go`, {
    headers: { Authorization: `token ${alice.token}`, 'If-None-Match': `W/${etag}` },
  });
  assert.is(again.status, 304);
  const viaBranch = await fetch(`${srv.api}${R()}/raw/batch/README.md`);
  assert.is(await viaBranch.text(), '# new readme\n');
  const viaQuery = await fetch(`${srv.api}${R()}/media/README.md?ref=batch`);
  assert.is(await viaQuery.text(), '# new readme\n');
  assert.is((await fetch(`${srv.api}${R()}/raw/src`)).status, 404);
  assert.is((await fetch(`${srv.api}${R()}/raw/nope`)).status, 404);
});

test('archives: tar.gz, zip and bundle, by archive name and by ball type', async () => {
  const tgz = await fetch(`${srv.api}${R()}/archive/main.tar.gz`);
  assert.is(tgz.status, 200);
  assert.is(tgz.headers.get('content-type'), 'application/gzip');
  assert.is(tgz.headers.get('content-disposition'), 'attachment; filename="files-main.tar.gz"');
  const tar = zlib.gunzipSync(Buffer.from(await tgz.arrayBuffer()));
  assert.match(tar.toString('latin1'), 'files/src/main.go');
  const zip = await fetch(`${srv.api}${R()}/zipball/main`);
  assert.is(zip.status, 200);
  assert.is(
    Buffer.from(await zip.arrayBuffer())
      .subarray(0, 2)
      .toString('latin1'),
    'PK',
  );
  const bundle = await fetch(`${srv.api}${R()}/archive/main.bundle`);
  assert.match(
    Buffer.from(await bundle.arrayBuffer())
      .subarray(0, 20)
      .toString('latin1'),
    '# v2 git bundle',
  );
  assert.is((await fetch(`${srv.api}${R()}/archive/main.rar`)).status, 400);
  assert.is((await fetch(`${srv.api}${R()}/archive/nope.zip`)).status, 404);
  assert.is((await fetch(`${srv.api}${R()}/tarballs/main`)).status, 404);
});

test('diffpatch: applies a unified diff as one commit; a stale base is 409', async () => {
  const patch =
    'diff --git a/src/main.go b/src/main.go\n--- a/src/main.go\n+++ b/src/main.go\n@@ -1,3 +1,3 @@\n package main\n \n-func main() {}\n+func main() { println("patched") }\n';
  const stale = await api('POST', `/repos/${alice.name}/files/diffpatch`, { content: patch, sha: (await refOf('refs/heads/main~1'))! });
  assert.is(stale.status, 409);
  assert.is(await refOf('refs/heads/main'), head);
  const r = await api('POST', `/repos/${alice.name}/files/diffpatch`, { content: patch, sha: head, message: 'patched' });
  assert.is(r.status, 200);
  valid('FileResponse', r.json);
  assert.is(r.json.commit.message, 'patched\n');
  assert.is(await mustGit(null, gitDir(), 'show', 'main:src/main.go'), 'package main\n\nfunc main() { println("patched") }');
  const bad = await api('POST', `/repos/${alice.name}/files/diffpatch`, { content: patch, sha: r.json.commit.sha });
  assert.is(bad.status, 409);
  head = (await refOf('refs/heads/main'))!;
});

test('languages, editorconfig, issue templates and issue config', async () => {
  const langs = await api('GET', `${R()}/languages`);
  assert.is(langs.status, 200);
  assert.equal(Object.keys(langs.json), ['Go', 'Shell', 'TypeScript']);
  assert.ok(langs.json.Go > 0);
  const go = await api('GET', `${R()}/editorconfig/src%2Fmain.go`);
  assert.equal(go.json, { indent_style: 'tab', indent_size: '2', tab_width: 2 });
  const mk = await api('GET', `${R()}/editorconfig/Makefile`);
  assert.is(mk.json.indent_style, 'tab');
  const tpl = await api('GET', `${R()}/issue_templates`);
  assert.is(tpl.status, 200);
  for (const t of tpl.json) valid('IssueTemplate', t);
  assert.equal(
    tpl.json.map((t: { file_name: string }) => t.file_name),
    ['bug.md', 'form.yaml'],
  );
  assert.equal(tpl.json[0].labels, ['bug', 'triage']);
  assert.is(tpl.json[0].content, 'What happened?\n');
  assert.is(tpl.json[1].body[0].type, 'textarea');
  const cfg = await api('GET', `${R()}/issue_config`);
  valid('IssueConfig', cfg.json);
  assert.equal(cfg.json, {
    blank_issues_enabled: false,
    contact_links: [{ name: 'Forum', url: 'https://forum.example.com', about: 'Ask there' }],
  });
  const v = await api('GET', `${R()}/issue_config/validate`);
  assert.equal(v.json, { valid: true, message: '' });
  const blank = await api('GET', `/repos/${alice.name}/blank/issue_config`);
  assert.equal(blank.json, { blank_issues_enabled: true, contact_links: [] });
});

test('the first file written to an empty repository makes it non-empty, on the branch named', async () => {
  assert.is((await api('PUT', `/repos/${alice.name}/blank/contents/a.txt`, { content: b64('a'), sha: '0'.repeat(40) })).status, 422);
  assert.is((await api('DELETE', `/repos/${alice.name}/blank/contents/a.txt`, { sha: '0'.repeat(40) })).status, 404);
  const r = await api('POST', `/repos/${alice.name}/blank/contents/first.txt`, { content: b64('first\n'), new_branch: 'trunk' });
  assert.is(r.status, 201);
  assert.equal(r.json.commit.parents, []);
  const repo = await api('GET', `/repos/${alice.name}/blank`);
  assert.is(repo.json.empty, false);
  assert.is(repo.json.default_branch, 'trunk');
  assert.is(await refOf('refs/heads/trunk', 'blank'), r.json.commit.sha);
  assert.equal(
    (await api('GET', `/repos/${alice.name}/blank/contents`)).json.map((e: { name: string }) => e.name),
    ['first.txt'],
  );
});

test.run();
