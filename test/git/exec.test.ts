import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { assertSafeArg, GitArgError, GitError, GitTimeoutError, gitEnv, gitStream, runGit } from '../../git/exec.ts';
import { sandbox, type Sandbox } from './fixture.ts';

let sb: Sandbox;
test.before(async () => {
  sb = await sandbox();
});
test.after(async () => {
  await sb.cleanup();
});

test('runGit returns stdout, stderr and code', async () => {
  const res = await runGit(null, ['version']);
  assert.is(res.code, 0);
  assert.match(res.stdout.toString(), /^git version /);
});

test('runGit feeds input', async () => {
  const repo = await sb.repo();
  const res = await runGit(repo, ['hash-object', '--stdin'], { input: 'hello\n' });
  assert.is(res.stdout.toString().trim(), 'ce013625030ba8dba906f756967f9e9ca394464a');
});

test('a failing command rejects with GitError carrying code, stderr and args', async () => {
  const repo = await sb.repo();
  const err = await runGit(repo, ['rev-parse', '--verify', 'nope']).catch((e: unknown) => e);
  assert.instance(err, GitError);
  if (!(err instanceof GitError)) return;
  assert.is(err.code, 128);
  assert.match(err.stderr, /fatal/);
  assert.equal(err.args, ['rev-parse', '--verify', 'nope']);
});

test('okCodes lets a non-zero exit resolve', async () => {
  const repo = await sb.repo();
  const res = await runGit(repo, ['rev-parse', '--verify', '--quiet', 'nope'], { okCodes: [0, 1] });
  assert.is(res.code, 1);
});

test('a command past its timeout is killed with GitTimeoutError, without waiting for grandchildren', async () => {
  const started = Date.now();
  const err = await runGit(null, ['-c', 'alias.slow=!sleep 5', 'slow'], { timeoutMs: 200 }).catch((e: unknown) => e);
  assert.instance(err, GitTimeoutError);
  assert.ok(Date.now() - started < 2000);
});

test('maxBuffer bounds the output', async () => {
  const repo = await sb.repo();
  const err = await runGit(repo, ['hash-object', '--stdin'], { input: 'x', maxBuffer: 10 }).catch((e: unknown) => e);
  assert.instance(err, GitError);
});

test('the environment is not inherited', async () => {
  process.env.GIT_DIR = '/nonexistent';
  process.env.GIT_AUTHOR_NAME = 'Leaked';
  try {
    const env = gitEnv();
    assert.is(env.GIT_DIR, undefined);
    assert.is(env.GIT_AUTHOR_NAME, undefined);
    assert.is(env.GIT_TERMINAL_PROMPT, '0');
    assert.is(env.GIT_CONFIG_NOSYSTEM, '1');
    assert.is(env.LC_ALL, 'C');
    const repo = await sb.repo();
    assert.is((await runGit(repo, ['rev-parse', '--git-dir'])).stdout.toString().trim(), repo);
    const helper = (await runGit(repo, ['config', '--get-all', 'credential.helper'], { okCodes: [0, 1] })).stdout.toString();
    assert.is(helper.trim(), '');
  } finally {
    delete process.env.GIT_DIR;
    delete process.env.GIT_AUTHOR_NAME;
  }
});

test('assertSafeArg rejects option-like values and NUL', () => {
  const isArgError = (e: unknown) => e instanceof GitArgError;
  assert.throws(() => assertSafeArg('--upload-pack=evil'), isArgError);
  assert.throws(() => assertSafeArg('-n'), isArgError);
  assert.throws(() => assertSafeArg('a\0b'), isArgError);
  assertSafeArg('main');
  assertSafeArg('a-b');
});

test('gitStream ends after a successful exit', async () => {
  const repo = await sb.repo();
  const out = gitStream(repo, ['hash-object', '--stdin'], { input: Readable.from([Buffer.from('hello\n')]) });
  assert.is((await text(out)).trim(), 'ce013625030ba8dba906f756967f9e9ca394464a');
});

test('gitStream is destroyed with GitError on failure', async () => {
  const repo = await sb.repo();
  const out = gitStream(repo, ['cat-file', '-p', 'nope']);
  const err = await text(out).catch((e: unknown) => e);
  assert.instance(err, GitError);
});

test.run();
