// One merge per pull request, and git and the database agreeing after a crash
// (lib/pulls/merge-recovery.ts). Concurrent merges of one pull: one 200, the rest 405, one merge commit. A
// crash between git's move of the base branch and the commit of the record is reproduced exactly:
// the merge commit is built and the branch moved with git, and the intent the merge writes first is
// left behind, as a killed process leaves them; then a second merge, or a restart, settles it.
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setup, newRepo, gitDir, type Env } from './repo-setup.ts';
import type { TestUser } from '../helpers/fixtures.ts';
import { mustGit } from '../helpers/git-cli.ts';
import { SecretBox } from '../../lib/auth/secretbox.ts';
import { repoPathFor, type Services } from '../../lib/http/services.ts';
import { secretKey } from '../../server.ts';
import { intentDir, writeMergeIntent } from '../../lib/pulls/merge-intent.ts';
import { reconcileAllMerges } from '../../lib/pulls/merge-recovery.ts';
import { PullRequest } from '../../model/pull.ts';

let env: Env;
let services: Services;
const b64 = (s: string) => Buffer.from(s).toString('base64');

test.before(async () => {
  env = await setup();
  services = { log: pino({ level: 'silent' }), secrets: new SecretBox(secretKey(env.srv.config)), repoPath: repoPathFor(env.srv.config) };
});
test.after(async () => {
  await env.close();
});

const dirOf = (full: string) => {
  const [o, n] = full.split('/');
  return gitDir(env, o, n);
};
const gitIn = async (full: string, ...args: string[]) => (await mustGit(null, `--git-dir=${dirOf(full)}`, ...args)).trim();
const merges = async (full: string) => (await gitIn(full, 'rev-list', '--merges', 'refs/heads/main')).split('\n').filter(Boolean);

async function commit(u: TestUser, full: string, branch: string, file: string, newBranch?: string): Promise<string> {
  const r = await env.as(u, 'POST', `/repos/${full}/contents`, {
    branch,
    new_branch: newBranch,
    message: `add ${file}`,
    files: [{ operation: 'create', path: file, content: b64(file) }],
  });
  assert.is(r.status, 201, r.text);
  return (r.json as { commit: { sha: string } }).commit.sha;
}

/** A repository whose `topic` diverged from `main`, and an open pull of it. */
async function divergedPull(u: TestUser) {
  const repo = await newRepo(env, u, { auto_init: true });
  const full = repo.full_name;
  const head = await commit(u, full, 'main', 'topic.txt', 'topic');
  await commit(u, full, 'main', 'main.txt');
  const r = await env.as(u, 'POST', `/repos/${full}/pulls`, { head: 'topic', base: 'main', title: 'topic' });
  assert.is(r.status, 201, r.text);
  const pr = r.json as { id: number; number: number };
  return { full, head, number: pr.number, id: pr.id };
}

/** What the merge does in git, done by hand: the merge commit built and the base branch moved to it. */
async function mergeInGitOnly(full: string, head: string): Promise<string> {
  const base = await gitIn(full, 'rev-parse', 'refs/heads/main');
  const tree = (await gitIn(full, 'merge-tree', '--write-tree', base, head)).split('\n')[0];
  const merged = await mustGit(
    null,
    `--git-dir=${dirOf(full)}`,
    '-c',
    'user.name=x',
    '-c',
    'user.email=x@example.com',
    'commit-tree',
    tree,
    '-p',
    base,
    '-p',
    head,
    '-m',
    'merge',
  );
  await gitIn(full, 'update-ref', 'refs/heads/main', merged.trim(), base);
  return merged.trim();
}

const pullOf = async (u: TestUser, full: string, n: number) =>
  (await env.as(u, 'GET', `/repos/${full}/pulls/${n}`)).json as { merged: boolean; merge_commit_sha: string | null; state: string };
const intentExists = (pullId: number) => fs.existsSync(path.join(intentDir(env.srv.config), String(pullId)));

test('six concurrent merges of one pull: one 200, five 405, one merge commit on the base branch', async () => {
  const { full, head, number } = await divergedPull(env.alice);
  const before = await merges(full);
  const answers = await Promise.all(
    Array.from({ length: 6 }, () => env.as(env.alice, 'POST', `/repos/${full}/pulls/${number}/merge`, { Do: 'merge' })),
  );
  const statuses = answers.map((r) => r.status).sort();
  assert.equal(statuses, [200, 405, 405, 405, 405, 405], answers.map((r) => `${r.status} ${r.text}`).join('\n'));
  const after = (await merges(full)).filter((c) => !before.includes(c));
  assert.is(after.length, 1, 'exactly one merge commit');
  assert.ok((await gitIn(full, 'rev-list', '--parents', '-n', '1', after[0])).includes(head));
  const pr = await pullOf(env.alice, full, number);
  assert.is(pr.merged, true);
  assert.is(pr.merge_commit_sha, after[0]);
});

test('concurrent merges in other styles: squash and rebase also land once', async () => {
  for (const Do of ['squash', 'rebase']) {
    const { full, number } = await divergedPull(env.alice);
    const tipBefore = await gitIn(full, 'rev-parse', 'refs/heads/main');
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => env.as(env.alice, 'POST', `/repos/${full}/pulls/${number}/merge`, { Do })),
    );
    assert.equal(
      answers.map((r) => r.status).sort(),
      [200, 405, 405, 405],
      `${Do}: ${answers.map((r) => `${r.status} ${r.text}`).join(' | ')}`,
    );
    const landed = (await gitIn(full, 'rev-list', `${tipBefore}..refs/heads/main`)).split('\n').filter(Boolean);
    assert.is(landed.length, 1, `${Do}: one commit landed`);
  }
});

test('a merge in git whose record was lost (killed after the branch moved): the next merge records it and answers 405, adding nothing', async () => {
  const { full, head, number, id } = await divergedPull(env.alice);
  const merged = await mergeInGitOnly(full, head);
  await writeMergeIntent(env.srv.config, { pullId: id, commit: merged, doerId: env.alice.id });
  assert.is((await pullOf(env.alice, full, number)).merged, false);
  const again = await env.as(env.alice, 'POST', `/repos/${full}/pulls/${number}/merge`, { Do: 'merge' });
  assert.is(again.status, 405, again.text);
  assert.is(await gitIn(full, 'rev-parse', 'refs/heads/main'), merged, 'no second merge commit');
  const pr = await pullOf(env.alice, full, number);
  assert.is(pr.merged, true);
  assert.is(pr.state, 'closed');
  assert.is(pr.merge_commit_sha, merged);
  assert.not.ok(intentExists(id), 'the intent is gone once recorded');
});

test('an intent whose commit never reached the base branch (killed before git moved): dropped, and the merge goes ahead once', async () => {
  const { full, number, id } = await divergedPull(env.alice);
  await writeMergeIntent(env.srv.config, { pullId: id, commit: 'a'.repeat(40), doerId: env.alice.id });
  const r = await env.as(env.alice, 'POST', `/repos/${full}/pulls/${number}/merge`, { Do: 'merge' });
  assert.is(r.status, 200, r.text);
  assert.is((await merges(full)).length, 1);
  assert.not.ok(intentExists(id));
});

test('a squash merge in git whose record was lost is found by its intent, though the head commit is not in the base', async () => {
  const { full, head, number, id } = await divergedPull(env.alice);
  const base = await gitIn(full, 'rev-parse', 'refs/heads/main');
  const tree = (await gitIn(full, 'merge-tree', '--write-tree', base, head)).split('\n')[0];
  const squashed = (
    await mustGit(
      null,
      `--git-dir=${dirOf(full)}`,
      '-c',
      'user.name=x',
      '-c',
      'user.email=x@example.com',
      'commit-tree',
      tree,
      '-p',
      base,
      '-m',
      'squash',
    )
  ).trim();
  await gitIn(full, 'update-ref', 'refs/heads/main', squashed, base);
  await writeMergeIntent(env.srv.config, { pullId: id, commit: squashed, doerId: env.alice.id });
  const again = await env.as(env.alice, 'POST', `/repos/${full}/pulls/${number}/merge`, { Do: 'squash' });
  assert.is(again.status, 405, again.text);
  assert.is(await gitIn(full, 'rev-parse', 'refs/heads/main'), squashed);
  assert.is((await pullOf(env.alice, full, number)).merge_commit_sha, squashed);
});

test('at start every intent left by a killed process is settled: merged in git means merged in the database', async () => {
  const { full, head, number, id } = await divergedPull(env.alice);
  const merged = await mergeInGitOnly(full, head);
  await writeMergeIntent(env.srv.config, { pullId: id, commit: merged, doerId: env.alice.id });
  const stale = await divergedPull(env.alice);
  await writeMergeIntent(env.srv.config, { pullId: stale.id, commit: 'b'.repeat(40), doerId: env.alice.id });
  const settled = await reconcileAllMerges(env.db.db.orm, services, env.srv.config);
  assert.ok(settled.includes(id), JSON.stringify(settled));
  assert.not.ok(settled.includes(stale.id));
  const pr = await pullOf(env.alice, full, number);
  assert.is(pr.merged, true);
  assert.is(pr.merge_commit_sha, merged);
  const row = await env.db.db.orm.em.fork().findOneOrFail(PullRequest, { id });
  assert.is(row.mergerId, env.alice.id);
  assert.not.ok(intentExists(id));
  assert.not.ok(intentExists(stale.id));
  assert.is((await pullOf(env.alice, stale.full, stale.number)).merged, false);
});

test('a head already in the base branch (merged by a push) is recorded merged when merged again: 405, nothing added', async () => {
  const { full, head, number } = await divergedPull(env.alice);
  const merged = await mergeInGitOnly(full, head);
  const again = await env.as(env.alice, 'POST', `/repos/${full}/pulls/${number}/merge`, { Do: 'merge' });
  assert.is(again.status, 405, again.text);
  assert.is(await gitIn(full, 'rev-parse', 'refs/heads/main'), merged);
  const pr = await pullOf(env.alice, full, number);
  assert.is(pr.merged, true);
  assert.is(pr.merge_commit_sha, merged);
});

test.run();
