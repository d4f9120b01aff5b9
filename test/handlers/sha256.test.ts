// sha256 repositories end to end (forgejo-facts 10.3): created through the API, read through the git-data
// routes, written through the contents API, cloned, fetched and pushed over HTTP, `git fsck` clean.
// Runs only where the server accepts sha256 (lib/repos/repos.ts gitSupportsSha256); elsewhere creation is a 422,
// which test/handlers/repos.test.ts checks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { gitSupportsSha256 } from '../../lib/repos/repos.ts';
import { newRepo, setup, valid, gitDir, type Env } from './repo-setup.ts';
import { validList } from '../helpers/schema.ts';
import { cloneUrl, commitFiles, mustGit, workDir } from '../helpers/git-cli.ts';

let env: Env;
let supported = false;
test.before(async () => {
  env = await setup();
  supported = await gitSupportsSha256();
});
test.after(async () => {
  await env.close();
});

const HEX64 = /^[0-9a-f]{64}$/;

test('sha256: create with auto_init, read refs, commits, trees and blobs with 64-hex ids', async () => {
  if (!supported) return;
  const { alice } = env;
  const repo = await newRepo(env, alice, { object_format_name: 'sha256', auto_init: true });
  assert.is(repo.object_format_name, 'sha256');
  const base = `/repos/${repo.full_name}`;
  const br = await env.as(alice, 'GET', `${base}/branches/main`);
  assert.is(br.status, 200, br.text);
  valid('Branch', br.json);
  assert.match(br.json.commit.id, HEX64);
  const commits = await env.as(alice, 'GET', `${base}/commits`);
  assert.is(commits.status, 200, commits.text);
  validList('Commit', commits);
  assert.match(commits.json[0].sha, HEX64);
  const one = await env.as(alice, 'GET', `${base}/git/commits/${commits.json[0].sha}`);
  assert.is(one.status, 200, one.text);
  const tree = await env.as(alice, 'GET', `${base}/git/trees/${commits.json[0].commit.tree.sha}?recursive=true`);
  assert.is(tree.status, 200, tree.text);
  valid('GitTreeResponse', tree.json);
  const readme = tree.json.tree.find((e: any) => e.path === 'README.md');
  assert.match(readme.sha, HEX64);
  const blob = await env.as(alice, 'GET', `${base}/git/blobs/${readme.sha}`);
  assert.is(blob.status, 200, blob.text);
  assert.ok(Buffer.from(blob.json.content, 'base64').toString('utf8').startsWith('# '));
  const abbrev = await env.as(alice, 'GET', `${base}/git/commits/${commits.json[0].sha.slice(0, 10)}`);
  assert.is(abbrev.status, 200, 'an abbreviated sha256 id resolves');
});

test('sha256: contents API writes, stale sha 409, HTTP clone, push and fetch, fsck clean', async () => {
  if (!supported) return;
  const { alice } = env;
  const repo = await newRepo(env, alice, { object_format_name: 'sha256', auto_init: true });
  const base = `/repos/${repo.full_name}`;
  const created = await env.as(alice, 'POST', `${base}/contents/docs/a.txt`, {
    content: Buffer.from('one\n').toString('base64'),
    message: 'add a',
  });
  assert.is(created.status, 201, created.text);
  valid('FileResponse', created.json);
  assert.match(created.json.content.sha, HEX64);
  assert.match(created.json.commit.sha, HEX64);
  const stale = await env.as(alice, 'PUT', `${base}/contents/docs/a.txt`, {
    content: Buffer.from('two\n').toString('base64'),
    sha: '0'.repeat(64),
  });
  assert.is(stale.status, 409, stale.text);
  const updated = await env.as(alice, 'PUT', `${base}/contents/docs/a.txt`, {
    content: Buffer.from('two\n').toString('base64'),
    sha: created.json.content.sha,
  });
  assert.is(updated.status, 200, updated.text);

  const tmp = workDir();
  const wt = path.join(tmp, 'wt');
  await mustGit(null, 'clone', '-q', cloneUrl(env.srv.url, alice.name, repo.name, [alice.name, alice.token]), wt);
  assert.is(await mustGit(wt, 'rev-parse', '--show-object-format'), 'sha256');
  assert.is(await mustGit(wt, 'show', 'HEAD:docs/a.txt'), 'two');
  const pushed = await commitFiles(wt, { 'b.txt': 'bee\n' }, 'add b');
  await mustGit(wt, 'push', '-q', 'origin', 'HEAD:main');
  await mustGit(wt, 'push', '-q', 'origin', 'HEAD:refs/heads/feature', 'HEAD:refs/tags/v1');
  const br = await env.as(alice, 'GET', `${base}/branches/feature`);
  assert.is(br.status, 200, br.text);
  assert.is(br.json.commit.id, pushed);
  const tag = await env.as(alice, 'GET', `${base}/tags/v1`);
  assert.is(tag.status, 200, tag.text);
  assert.is(tag.json.commit.sha, pushed);
  const file = await env.as(alice, 'GET', `${base}/contents/b.txt`);
  assert.is(Buffer.from(file.json.content, 'base64').toString('utf8'), 'bee\n');
  const after = await env.as(alice, 'POST', `${base}/contents/c.txt`, { content: Buffer.from('sea\n').toString('base64') });
  assert.is(after.status, 201, after.text);
  await mustGit(wt, 'pull', '-q', '--ff-only', 'origin', 'main');
  assert.is(await mustGit(wt, 'show', 'HEAD:c.txt'), 'sea');
  execFileSync('git', ['--git-dir', gitDir(env, alice.name, repo.name), 'fsck', '--strict'], { stdio: 'pipe' });
});

test('sha256: first push into an empty repository, then statuses, tags, notes, compare, fork and archive', async () => {
  if (!supported) return;
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { object_format_name: 'sha256' });
  const base = `/repos/${repo.full_name}`;
  const wt = path.join(workDir(), 'wt');
  await mustGit(null, 'init', '-q', '--object-format=sha256', '-b', 'main', wt);
  const first = await commitFiles(wt, { 'README.md': '# hi\n' }, 'first');
  const second = await commitFiles(wt, { 'x.txt': 'x\n' }, 'second');
  await mustGit(wt, 'push', '-q', cloneUrl(env.srv.url, alice.name, repo.name, [alice.name, alice.token]), 'HEAD:main');
  const got = await env.as(alice, 'GET', base);
  assert.is(got.json.empty, false);
  assert.is(got.json.object_format_name, 'sha256');

  const st = await env.as(alice, 'POST', `${base}/statuses/${second}`, { state: 'success', context: 'ci' });
  assert.is(st.status, 201, st.text);
  const combined = await env.as(alice, 'GET', `${base}/commits/main/status`);
  assert.is(combined.json.sha, second);
  assert.is(combined.json.state, 'success');

  const tag = await env.as(alice, 'POST', `${base}/tags`, { tag_name: 'v1', target: first, message: 'annotated' });
  assert.is(tag.status, 201, tag.text);
  valid('Tag', tag.json);
  assert.is(tag.json.commit.sha, first);
  assert.match(tag.json.id, HEX64);

  const note = await env.as(alice, 'GET', `${base}/git/notes/${first}`);
  assert.is(note.status, 404, 'no note yet');
  const added = await env.as(alice, 'POST', `${base}/git/notes/${first}`, { message: 'reviewed' });
  assert.ok(added.status < 300, added.text);
  const read = await env.as(alice, 'GET', `${base}/git/notes/${first}`);
  assert.is(read.status, 200, read.text);
  valid('Note', read.json);
  assert.is(read.json.message.trim(), 'reviewed');
  assert.match(read.json.commit.sha, HEX64, "the notes commit that wrote it, as Forgejo's GetNote");

  const cmp = await env.as(alice, 'GET', `${base}/compare/${first}...${second}`);
  assert.is(cmp.status, 200, cmp.text);
  assert.is(cmp.json.total_commits, 1);
  assert.is(cmp.json.commits[0].sha, second);

  const fork = await env.as(bob, 'POST', `${base}/forks`, {});
  assert.is(fork.status, 202, fork.text);
  assert.is(fork.json.object_format_name, 'sha256');
  const forkBranch = await env.as(bob, 'GET', `/repos/${fork.json.full_name}/branches/main`);
  assert.is(forkBranch.json.commit.id, second);

  const archive = await env.as(alice, 'GET', `${base}/archive/main.tar.gz`);
  assert.is(archive.status, 200);
  execFileSync('git', ['--git-dir', gitDir(env, alice.name, repo.name), 'fsck', '--strict'], { stdio: 'pipe' });
});

test.run();
