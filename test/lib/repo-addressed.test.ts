// server.ts repoAddressed: which repository (and issue) the token's statement reads ahead of the loaders.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { repoAddressed } from '../../server.ts';

test('a path below {R} names the repository, decoded as the router decodes it', () => {
  assert.equal(repoAddressed('/api/v1/repos/alice/demo'), { owner: 'alice', name: 'demo' });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/branches'), { owner: 'alice', name: 'demo' });
  assert.equal(repoAddressed('/api/v1/repos/al%69ce/demo'), { owner: 'alice', name: 'demo' });
  assert.is(repoAddressed('/api/v1/repos/search'), null);
  assert.is(repoAddressed('/api/v1/user'), null);
  assert.is(repoAddressed('/api/v1/repos/alice/%E0%A4%A'), null);
});

test('an issue number below {R}/issues/ is read ahead too; anything else under issues/ is not', () => {
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues/7'), { owner: 'alice', name: 'demo', issueIndex: 7 });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues/7/comments'), { owner: 'alice', name: 'demo', issueIndex: 7 });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues/comments/7'), { owner: 'alice', name: 'demo' });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues/0'), { owner: 'alice', name: 'demo' });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues/99999999999'), { owner: 'alice', name: 'demo' });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues'), { owner: 'alice', name: 'demo' });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/pulls/7'), { owner: 'alice', name: 'demo' });
});

test('a POST of a new issue or comment names the new row; other methods and paths do not', () => {
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues', 'POST'), { owner: 'alice', name: 'demo', newRow: 'issue' });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues/', 'POST'), { owner: 'alice', name: 'demo', newRow: 'issue' });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues/7/comments', 'POST'), {
    owner: 'alice',
    name: 'demo',
    issueIndex: 7,
    newRow: 'comment',
  });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues/7/comments', 'GET'), { owner: 'alice', name: 'demo', issueIndex: 7 });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues', 'GET'), { owner: 'alice', name: 'demo' });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues/7/comments/x', 'POST'), { owner: 'alice', name: 'demo', issueIndex: 7 });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues/comments', 'POST'), { owner: 'alice', name: 'demo' });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/issues/7/labels', 'POST'), { owner: 'alice', name: 'demo', issueIndex: 7 });
  assert.equal(repoAddressed('/api/v1/repos/alice/demo/pulls', 'POST'), { owner: 'alice', name: 'demo' });
});

test.run();
