// apiCommitJson (lib/api/git.ts) joins rendered parts: its text must be renderJson's of toApiCommit,
// escapes included, whatever the options, and the same when its parts come from the cache.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiCommitJson, CommitUsers, toApiCommit } from '../../lib/api/git.ts';
import { jsonText } from '../../lib/json.ts';
import { loadConfig } from '../../config.ts';
import type { ChangedFile, Commit } from '../../git/commits.ts';

const sig = { name: 'A <b> & c', email: 'a@example.com', date: '2024-01-02T03:04:05+02:00', timestamp: 1704157445, tz: '+0200' };
const commit: Commit = {
  sha: 'a'.repeat(40), tree: 'b'.repeat(40), parents: ['c'.repeat(40), 'd'.repeat(40)], author: sig, committer: { ...sig, email: 'x@example.com' },
  message: 'subject <script>&amp;\u2028\u2029 "quoted" \\ ünïcode\n', signature: '-----BEGIN PGP SIGNATURE-----\n<x>', signedPayload: 'tree …\n',
};
const urls = { api: 'http://h/api/v1/repos/o/r', html: 'http://h/o/r' };

test('apiCommitJson is jsonText(toApiCommit(…)) for every option, cold and kept', () => {
  const cfg = loadConfig({});
  const users = new CommitUsers(null as never, cfg);
  const files: ChangedFile[] = [{ filename: 'a<&>.txt', status: 'modified', additions: 1, deletions: 1, binary: false }];
  for (const extras of [{}, { verification: false }, { files, stats: { total: 2, additions: 1, deletions: 1 } }, { files: null, stats: null, verification: true }]) {
    const want = jsonText(toApiCommit(cfg, urls, commit, users, extras));
    for (const keep of [false, true, true]) assert.is(apiCommitJson(cfg, urls, commit, users, extras, keep), want, JSON.stringify(extras));
  }
});

test.run();
