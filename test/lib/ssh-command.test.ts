// How SSH commands are read (Forgejo cmd/serv.go): quoting, leading slash, `.git`, wikis, LFS verbs,
// and everything that is refused before a repository is looked up.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseSshCommand, splitWords, SshCommandError } from '../../lib/transport/ssh-command.ts';

test('words split as a shell would, without expansions', () => {
  assert.equal(splitWords(`git-upload-pack '/a/b.git'`), ['git-upload-pack', '/a/b.git']);
  assert.equal(splitWords(`git-upload-pack "a/b" x\\ y`), ['git-upload-pack', 'a/b', 'x y']);
  assert.equal(splitWords(`a 'it'"'"'s'`), ['a', "it's"]);
  assert.throws(
    () => splitWords(`a 'open`),
    (e: unknown) => e instanceof SshCommandError,
  );
});

const ok: [string, unknown][] = [
  [`git-upload-pack 'alice/demo.git'`, { kind: 'git', verb: 'git-upload-pack', owner: 'alice', repo: 'demo' }],
  [`git-receive-pack '/alice/demo.git'`, { kind: 'git', verb: 'git-receive-pack', owner: 'alice', repo: 'demo' }],
  ['git-upload-pack alice/demo', { kind: 'git', verb: 'git-upload-pack', owner: 'alice', repo: 'demo' }],
  [`git-upload-archive 'alice/demo.wiki.git'`, { kind: 'git', verb: 'git-upload-archive', owner: 'alice', repo: 'demo.wiki' }],
  ['git-lfs-authenticate alice/demo.git upload', { kind: 'lfs', owner: 'alice', repo: 'demo', operation: 'upload' }],
  [`git-lfs-authenticate '/alice/demo' download`, { kind: 'lfs', owner: 'alice', repo: 'demo', operation: 'download' }],
];
for (const [cmd, want] of ok) test(`accepted: ${cmd}`, () => assert.equal(parseSshCommand(cmd), want));

const refused: [string, string][] = [
  ['ls -la', 'Unknown git command'],
  ['bash', 'Too few arguments'],
  ['git-lfs-transfer alice/demo upload', 'Unknown git command'],
  ['git-upload-pack demo', 'Invalid repository path'],
  ['git-upload-pack a/b/c', 'Invalid repository path'],
  ['git-upload-pack alice/../../etc', 'Invalid repository path'],
  [`git-upload-pack 'alice/de mo'`, 'Invalid repo name'],
  ['git-upload-pack alice/demo --help', 'Too many arguments'],
  ['git-lfs-authenticate alice/demo steal', 'Unknown LFS verb'],
];
for (const [cmd, message] of refused) {
  test(`refused: ${cmd}`, () => {
    assert.throws(
      () => parseSshCommand(cmd),
      (e: Error) => e instanceof SshCommandError && e.message === message,
    );
  });
}

test.run();
