// The SSH host key's fingerprint (README, "Git over SSH"): what `ssh-keygen -lf` prints for the key
// file, what `npm run cli -- admin ssh fingerprint` prints without a database or a running server,
// what `serve` logs when its SSH server starts, and what ssh itself sees on its first connection.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hostKeyFile, hostKeyFingerprint, loadOrCreateHostKey, readHostKey } from '../../lib/transport/ssh-host-key.ts';
import { run } from '../helpers/ssh.ts';
import { requireTools } from '../helpers/tools.ts';

requireTools('ssh', 'ssh-keygen');

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-hostkey-'));
  dirs.push(d);
  return d;
};
test.after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** `ssh-keygen -lf <file>` without the key's comment: `<bits> SHA256:<hash> (<TYPE>)`. */
async function keygenFingerprint(file: string): Promise<string> {
  const r = await run('ssh-keygen', ['-l', '-f', file]);
  assert.is(r.code, 0, r.stderr);
  const m = /^(\d+) (SHA256:[A-Za-z0-9+/]+) .*\((\w+)\)\n?$/.exec(r.stdout);
  assert.ok(m, r.stdout);
  return `${m[1]} ${m[2]} (${m[3]})`;
}

/** The CLI with only the given environment (and PATH/HOME): `node --import tsx cli.ts ...args`. */
function cli(args: string[], env: Record<string, string>) {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'cli.ts'), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function cliOutput(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = cli(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString('utf8');
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

test("the fingerprint is what ssh-keygen -lf prints for the key file (the server's ed25519, and other key types)", async () => {
  const data = tempDir();
  const key = loadOrCreateHostKey(data);
  assert.match(hostKeyFingerprint(key), /^256 SHA256:[A-Za-z0-9+/]{43} \(ED25519\)$/);
  assert.is(hostKeyFingerprint(key), await keygenFingerprint(hostKeyFile(data)));
  // A key an operator put there instead, made by ssh-keygen.
  for (const [type, bits] of [
    ['rsa', '3072'],
    ['ecdsa', '256'],
  ]) {
    const file = path.join(tempDir(), `key-${type}`);
    const made = await run('ssh-keygen', ['-q', '-t', type, '-b', bits, '-N', '', '-C', 'operator', '-f', file]);
    assert.is(made.code, 0, made.stderr);
    assert.is(hostKeyFingerprint(fs.readFileSync(file, 'utf8')), await keygenFingerprint(file), type);
  }
});

test('`admin ssh fingerprint`: prints it from the data path; without a key, says so, exits 1 and makes none', async () => {
  const empty = tempDir();
  const none = await cliOutput(['admin', 'ssh', 'fingerprint'], { CAIRN__SERVER__APP_DATA_PATH: empty });
  assert.is(none.code, 1, none.stdout + none.stderr);
  assert.match(none.stderr, `no SSH host key at ${hostKeyFile(empty)}`);
  assert.is(none.stdout, '');
  assert.is(readHostKey(empty), null);
  assert.equal(fs.readdirSync(empty), [], 'neither a key nor a database was made');

  const data = tempDir();
  loadOrCreateHostKey(data);
  const shown = await cliOutput(['admin', 'ssh', 'fingerprint'], { CAIRN__SERVER__APP_DATA_PATH: data });
  assert.is(shown.code, 0, shown.stderr);
  assert.is(shown.stdout, `${await keygenFingerprint(hostKeyFile(data))}\n`);
  const usage = await cliOutput(['admin', 'ssh', 'nothing'], { CAIRN__SERVER__APP_DATA_PATH: data });
  assert.is(usage.code, 2);
  assert.match(usage.stderr, 'admin ssh fingerprint');
});

test('`serve` logs the fingerprint when its SSH server starts; ssh sees the same one, and so does the CLI while it runs', async () => {
  const data = tempDir();
  const child = cli(['serve'], {
    CAIRN__SERVER__APP_DATA_PATH: data,
    CAIRN__SERVER__HTTP_PORT: '0',
    CAIRN__SERVER__HTTP_ADDR: '127.0.0.1',
    CAIRN__SERVER__SSH_LISTEN_PORT: '0',
    CAIRN__SERVER__SSH_LISTEN_HOST: '127.0.0.1',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let out = '';
  try {
    const logged = await new Promise<{ port: number; fingerprint: string }>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString('utf8');
        const port = /cairn ssh server listening on 127\.0\.0\.1:(\d+)/.exec(out);
        const fp = /ssh host key fingerprint: (\d+ SHA256:\S+ \(\w+\))/.exec(out);
        if (port && fp) resolve({ port: Number(port[1]), fingerprint: fp[1]! });
      });
      child.stderr.on('data', (d: Buffer) => {
        out += d.toString('utf8');
      });
      void exited.then(() => reject(new Error(`serve exited: ${out}`)));
    });
    assert.is(logged.fingerprint, await keygenFingerprint(hostKeyFile(data)));

    // ssh's first connection: the host key it is shown (and records) has the same SHA256 fingerprint.
    const knownHosts = path.join(tempDir(), 'known_hosts');
    const ssh = await run('ssh', [
      '-v',
      '-F',
      '/dev/null',
      '-p',
      String(logged.port),
      '-o',
      'BatchMode=yes',
      '-o',
      'IdentityAgent=none',
      '-o',
      'PubkeyAuthentication=no',
      '-o',
      'StrictHostKeyChecking=accept-new',
      '-o',
      `UserKnownHostsFile=${knownHosts}`,
      'git@127.0.0.1',
      'true',
    ]);
    const seen = /Server host key: ssh-ed25519 (SHA256:\S+)/.exec(ssh.stderr);
    assert.ok(seen, ssh.stderr);
    assert.is(seen[1], logged.fingerprint.split(' ')[1]);
    assert.is(await keygenFingerprint(knownHosts), logged.fingerprint);

    // The CLI reads the key file, so the embedded database the server holds is no obstacle.
    const shown = await cliOutput(['admin', 'ssh', 'fingerprint'], { CAIRN__SERVER__APP_DATA_PATH: data });
    assert.is(shown.code, 0, shown.stderr);
    assert.is(shown.stdout.trim(), logged.fingerprint);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});

test.run();
