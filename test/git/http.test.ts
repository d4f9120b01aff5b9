import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { GitArgError } from '../../git/errors.ts';
import { runGit } from '../../git/exec.ts';
import { advertiseRefs, contentType, serviceRpc, type GitService } from '../../git/http.ts';
import { commit, git, sandbox, text, type Sandbox } from './fixture.ts';

let sb: Sandbox;
let repo: string;
let server: http.Server;
let base: string;

function service(value: string | null): GitService | null {
  return value === 'git-upload-pack' || value === 'git-receive-pack' ? value : null;
}

// A minimal smart-HTTP server over the helpers, enough for a real clone and push.
async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const m = /^\/([a-z0-9]+\.git)\/(info\/refs|git-upload-pack|git-receive-pack)$/.exec(url.pathname);
  const repoPath = m ? path.join(sb.root, m[1]) : '';
  const header = req.headers['git-protocol'];
  const gitProtocol = typeof header === 'string' ? header : undefined;
  const svc = service(m?.[2] === 'info/refs' ? url.searchParams.get('service') : (m?.[2] ?? null));
  if (!m || !svc) {
    res.writeHead(404).end();
    return;
  }
  if (m[2] === 'info/refs') {
    const body = await advertiseRefs(repoPath, svc, { gitProtocol });
    res.writeHead(200, { 'content-type': contentType(svc, 'advertisement'), 'cache-control': 'no-cache' }).end(body);
    return;
  }
  const input = req.headers['content-encoding'] === 'gzip' ? req.pipe(zlib.createGunzip()) : req;
  res.writeHead(200, { 'content-type': contentType(svc, 'result'), 'cache-control': 'no-cache' });
  await pipeline(serviceRpc(repoPath, svc, input, { gitProtocol }), res);
}

test.before(async () => {
  sb = await sandbox();
  repo = await sb.repo('served.git');
  await commit(repo, [{ op: 'create', path: 'README.md', content: text('served\n') }]);
  server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.destroy(err instanceof Error ? err : new Error(String(err)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await sb.cleanup();
});

test('advertiseRefs starts with the service preamble and a flush', async () => {
  const body = (await advertiseRefs(repo, 'git-upload-pack')).toString('latin1');
  assert.ok(body.startsWith('001e# service=git-upload-pack\n0000'));
  assert.match(body, await git(repo, 'rev-parse', 'main'));
  assert.match(body, 'refs/heads/main');
  const push = (await advertiseRefs(repo, 'git-receive-pack')).toString('latin1');
  assert.ok(push.startsWith('001f# service=git-receive-pack\n0000'));
  assert.match(push, 'push-options');
});

test('advertiseRefs for protocol v2 is a capability list without preamble', async () => {
  const body = (await advertiseRefs(repo, 'git-upload-pack', { gitProtocol: 'version=2' })).toString('latin1');
  assert.ok(body.startsWith('000eversion 2\n'), body.slice(0, 20));
  const err = await advertiseRefs(repo, 'git-upload-pack', { gitProtocol: 'version=2\nX=1' }).catch((e: unknown) => e);
  assert.instance(err, GitArgError);
});

test('a real git clone and push over HTTP (protocol v2 and v0)', async () => {
  const id = { GIT_AUTHOR_NAME: 'C', GIT_AUTHOR_EMAIL: 'c@x', GIT_COMMITTER_NAME: 'C', GIT_COMMITTER_EMAIL: 'c@x' };
  const v2 = path.join(sb.root, 'clone-v2');
  await runGit(null, ['-c', 'protocol.version=2', 'clone', '--quiet', `${base}/served.git`, v2]);
  assert.is(await git(null, '-C', v2, 'show', 'HEAD:README.md'), 'served');
  const v0 = path.join(sb.root, 'clone-v0');
  await runGit(null, ['-c', 'protocol.version=0', 'clone', '--quiet', `${base}/served.git`, v0]);
  assert.is(await git(null, '-C', v0, 'rev-parse', 'HEAD'), await git(repo, 'rev-parse', 'main'));

  await runGit(null, ['-C', v2, 'commit', '--quiet', '--allow-empty', '-m', 'pushed'], { env: id });
  await runGit(null, ['-C', v2, 'push', '--quiet', 'origin', 'HEAD:refs/heads/main', 'HEAD:refs/heads/feature']);
  const pushed = await git(null, '-C', v2, 'rev-parse', 'HEAD');
  assert.is(await git(repo, 'rev-parse', 'main'), pushed);
  assert.is(await git(repo, 'rev-parse', 'feature'), pushed);
  await git(repo, 'fsck', '--strict');

  await runGit(null, ['-C', v0, 'pull', '--quiet', '--ff-only'], { env: id });
  assert.is(await git(null, '-C', v0, 'rev-parse', 'HEAD'), pushed);
});

test.run();
