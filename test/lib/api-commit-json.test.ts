// A commit list (lib/repos/api/git.ts) joins rendered bytes around its users: its answer must be
// renderJson's of the toApiCommit array, escapes included, whatever the options and the length, and
// the same when the list is the kept one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commitListOf, CommitUsers, keptCommitList, toApiCommit, type CommitExtras } from '../../lib/repos/api/git.ts';
import { renderJson, renderJsonBytes } from '../../lib/http/json.ts';
import { loadConfig } from '../../config.ts';
import type { ChangedFile, Commit } from '../../git/commits.ts';

const sig = { name: 'A <b> & c', email: 'a@example.com', date: '2024-01-02T03:04:05+02:00', timestamp: 1704157445, tz: '+0200' };
const commit: Commit = {
  sha: 'a'.repeat(40),
  tree: 'b'.repeat(40),
  parents: ['c'.repeat(40), 'd'.repeat(40)],
  author: sig,
  committer: { ...sig, email: 'x@example.com' },
  message: 'subject <script>&amp;\u2028\u2029 "quoted" \\ ünïcode\n',
  signature: '-----BEGIN PGP SIGNATURE-----\n<x>',
  signedPayload: 'tree …\n',
};
const second: Commit = { ...commit, sha: 'e'.repeat(40), parents: [], message: 'second', signature: undefined, signedPayload: undefined };
const urls = { api: 'http://h/api/v1/repos/o/r', html: 'http://h/o/r' };

test('a commit list renders as renderJson of toApiCommit for every option and length, cold and kept', () => {
  const cfg = loadConfig({});
  const users = new CommitUsers(null as never, cfg);
  const files: ChangedFile[] = [{ filename: 'a<&>.txt', status: 'modified', additions: 1, deletions: 1, binary: false }];
  const options: CommitExtras[] = [
    {},
    { verification: false },
    { files, stats: { total: 2, additions: 1, deletions: 1 } },
    { files: null, stats: null, verification: true },
  ];
  for (const [o, extras] of options.entries()) {
    for (const commits of [[], [commit], [commit, second]]) {
      const want = renderJson(commits.map((c) => toApiCommit(cfg, urls, c, users, extras)));
      const shas = commits.map((c) => c.sha);
      const cold = commitListOf(
        cfg,
        urls,
        commits,
        users,
        commits.map(() => extras),
        `o${o}`,
        true,
      );
      assert.is(cold.render(users).bytes.toString('utf8'), want, JSON.stringify(extras));
      assert.is(keptCommitList(urls, shas, `o${o}`)?.render(users).bytes.toString('utf8'), want, JSON.stringify(extras));
      assert.equal(
        cold.emails,
        commits.flatMap((c) => [c.author.email, c.committer.email]),
      );
    }
  }
});

test('a list rendered again with the same users gives the same answer; other users give a new one', () => {
  const cfg = loadConfig({});
  // Users as the API renders them, by address: a user who changes changes the bytes of the list.
  class Users extends CommitUsers {
    readonly names = new Map<string, string>();
    override apiUserBytes(email: string): Buffer {
      const name = this.names.get(email);
      return Buffer.from(name === undefined ? 'null' : JSON.stringify({ login: name }));
    }
  }
  const users = new Users(null as never, cfg);
  const list = commitListOf(cfg, urls, [commit, second], users, [{}, {}], 'u', false);
  const first = list.render(users);
  assert.is(list.render(users), first, 'the same users: the same answer, its tag computed once');
  assert.is(first.etag, first.etag);
  users.names.set('x@example.com', 'x');
  const renamed = list.render(users);
  assert.is.not(renamed, first);
  assert.is(renamed.bytes.toString('utf8').split('{"login":"x"}').length, 3, 'both commits have the new committer');
  users.names.set('x@example.com', 'y');
  assert.is.not(list.render(users).bytes.toString('utf8'), renamed.bytes.toString('utf8'));
});

test('renderJsonBytes sends rendered bytes as they are and encodes anything else as renderJson does', () => {
  const list = commitListOf(loadConfig({}), urls, [second], new CommitUsers(null as never, loadConfig({})), [{}], 'x', false);
  const rendered = list.render(new CommitUsers(null as never, loadConfig({})));
  assert.is(renderJsonBytes(rendered), rendered.bytes);
  assert.is(renderJson(rendered), rendered.bytes.toString('utf8'));
  assert.is(renderJsonBytes({ a: '<ü>' }).toString('utf8'), renderJson({ a: '<ü>' }));
});

test.run();
