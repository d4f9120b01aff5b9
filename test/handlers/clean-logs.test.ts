// Every error goes through the pino log: the real server (`cli.ts serve`, a child process on the
// embedded database) meets clients that go away — a download whose client closes early, uploads
// abandoned mid-body (with a length, and chunked) — and its stdout and stderr hold JSON lines only,
// no raw stack trace; those clients are logged as gone, not as errors.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const node = path.join(root, 'node_modules/.bin/node');

let data: string;
let server: ChildProcess;
let url: URL;
let token: string;
let stdout = '';
let stderr = '';

test.before(async () => {
  data = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-logs-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CAIRN__SERVER__APP_DATA_PATH: data,
    CAIRN__SERVER__HTTP_PORT: '0',
    CAIRN__SERVER__HTTP_ADDR: '127.0.0.1',
  };
  for (const k of Object.keys(env)) if (k.startsWith('CAIRN__DATABASE__')) delete env[k];
  const made = spawnSync(
    node,
    [
      'cli.ts',
      'admin',
      'user',
      'create',
      '--username',
      'root',
      '--password',
      'Passw0rd!x',
      '--email',
      'root@example.com',
      '--admin',
      '--access-token',
    ],
    { cwd: root, env, encoding: 'utf8' },
  );
  assert.is(made.status, 0, made.stderr);
  token = made.stdout.trim().split('\n').pop()!;
  server = spawn(node, ['cli.ts', 'serve'], { cwd: root, env });
  server.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  server.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const started = Date.now();
  while (!/cairn listening on (http:\/\/\S+)"/.test(stdout)) {
    if (Date.now() - started > 60_000 || server.exitCode !== null) throw new Error(`the server did not start:\n${stdout}\n${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  url = new URL(/cairn listening on (http:\/\/\S+)"/.exec(stdout)![1]!);
});

test.after(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(data, { recursive: true, force: true });
});

const auth = () => `Basic ${Buffer.from(`root:${token}`).toString('base64')}`;
const filePath = (version: string) => `/api/packages/root/generic/tool/${version}/tool.bin`;

/** Writes `head` and then `body` on a raw connection, calls `then` with the socket, and waits for it to close. */
function raw(head: string, body: Buffer, then: (s: net.Socket, received: () => number) => void): Promise<void> {
  return new Promise((resolve) => {
    const s = net.connect(Number(url.port), url.hostname);
    let received = 0;
    s.on('data', (d) => {
      received += d.length;
    });
    s.on('error', () => undefined);
    s.on('close', () => resolve());
    s.write(head);
    s.write(body);
    then(s, () => received);
  });
}

test('clients that go away leave JSON lines only, logged as gone', async () => {
  // A file large enough that its download is still being written when its client leaves.
  const big = Buffer.alloc(8 * 1024 * 1024, 7);
  const put = await fetch(`${url.origin}${filePath('1.0.0')}`, { method: 'PUT', headers: { Authorization: auth() }, body: big });
  assert.is(put.status, 201, await put.text());

  // A download whose client closes after the first bytes.
  await raw(`GET ${filePath('1.0.0')} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth()}\r\n\r\n`, Buffer.alloc(0), (s, received) => {
    const poll = setInterval(() => {
      if (received() > 0) {
        clearInterval(poll);
        s.destroy();
      }
    }, 5);
  });
  // An upload that stops mid-body: a length promised and not sent, then the connection closed.
  await raw(
    `PUT ${filePath('1.0.1')} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth()}\r\nContent-Length: 1000000\r\n\r\n`,
    Buffer.alloc(64 * 1024, 1),
    (s) => setTimeout(() => s.end(), 300),
  );
  // The same, chunked: the connection ends inside a chunk.
  await raw(
    `PUT ${filePath('1.0.2')} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth()}\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\n`,
    Buffer.alloc(64 * 1024, 1),
    (s) => setTimeout(() => s.end(), 300),
  );
  // The server still answers, and has had time to log what it met.
  await new Promise((r) => setTimeout(r, 500));
  assert.is((await fetch(`${url.origin}/api/healthz`)).status, 200);

  assert.is(stderr, '', 'nothing on stderr');
  const lines = stdout.split('\n').filter(Boolean);
  for (const line of lines) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      assert.unreachable(`a line on stdout is not JSON: ${line}`);
    }
    assert.type(parsed, 'object');
  }
  const records = lines.map((l) => JSON.parse(l) as { level: number; msg: string; requestId?: string });
  const errors = records.filter((r) => r.level >= 50);
  assert.equal(errors, [], 'no client that went away is logged as an error');
  const gone = records.filter((r) => r.msg === 'client went away');
  assert.ok(gone.length >= 1, `the clients that went away are logged: ${lines.join('\n')}`);
});

test.run();
