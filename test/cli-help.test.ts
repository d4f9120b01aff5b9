// The command line answers `--help` on every command and group with its usage (exit 0, stdout), and
// an option a command does not take with one line (exit 2, stderr), never a stack trace
// (cli-admin.ts commandLine). Every command is checked in this process; a few through the real CLI.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { COMMANDS, USAGE, commandLine } from '../cli-admin.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Every command's words, and every group's (`admin`, `admin user`, ...), and none (the CLI itself). */
const everything = (() => {
  const seen = new Map<string, string[]>([['', []]]);
  for (const c of COMMANDS) for (let i = 1; i <= c.words.length; i++) seen.set(c.words.slice(0, i).join(' '), c.words.slice(0, i));
  return [...seen.values()];
})();

test('the table holds every command USAGE names', () => {
  const named = ['serve', 'migrate', 'routes', 'admin user create', 'admin user 2fa enroll', 'admin user 2fa disable', 'admin user list'];
  named.push('admin dump', 'admin restore', 'admin ssh fingerprint', 'migration create');
  assert.equal(
    COMMANDS.map((c) => c.words.join(' ')),
    named,
  );
  for (const c of COMMANDS) for (const l of c.usage) assert.ok(USAGE.includes(l));
});

test('--help and -h on every command and group: its usage, exit 0', () => {
  for (const words of everything) {
    for (const flag of ['--help', '-h']) {
      const out = commandLine([...words, flag]);
      const what = `${words.join(' ')} ${flag}`;
      assert.ok(out, what);
      assert.is(out!.code, 0, what);
      const text = out!.lines.join('\n');
      assert.ok(text.startsWith('usage: npm run cli -- [--config app.ini] '), what);
      assert.ok(text.includes(words.join(' ')), `${what}: ${text}`);
    }
    // After the command's own options too.
    const c = COMMANDS.find((x) => x.words.join(' ') === words.join(' '));
    if (c && 'username' in c.options) assert.is(commandLine([...words, '--username', 'x', '--help'])?.code, 0);
  }
});

test('an unknown option on every command and group: one line naming it, exit 2', () => {
  for (const words of everything) {
    for (const option of ['--no-such-option', '--no-such-option=1', '-Z']) {
      const out = commandLine([...words, option]);
      const what = `${words.join(' ')} ${option}`;
      assert.ok(out, what);
      assert.is(out!.code, 2, what);
      assert.is(out!.lines.length, 1, what);
      assert.not.match(out!.lines[0]!, /\n/);
      assert.ok(out!.lines[0]!.includes(`unknown option '${option}'`), `${what}: ${out!.lines[0]}`);
    }
  }
});

test('a missing value or a word too many is one line too; a valid command line runs', () => {
  assert.match(commandLine(['admin', 'user', 'create', '--username'])!.lines[0]!, /--username/);
  assert.is(commandLine(['admin', 'user', 'create', '--username'])!.code, 2);
  assert.is(commandLine(['admin', 'user', 'create', 'extra'])!.code, 2);
  assert.is(commandLine(['migration', 'create', 'A', 'B'])!.code, 2);
  for (const ok of [
    [],
    ['serve'],
    ['routes', '--json'],
    ['admin', 'user', 'create', '--username', 'a', '--password', 'p', '--email', 'e@x', '--admin', '--access-token'],
    ['admin', 'user', '2fa', 'enroll', '--username', 'a'],
    ['admin', 'dump', '-f', 'x.tar.gz', '--database-format', 'json'],
    ['admin', 'restore', '--file=x.tar.gz'],
    ['migration', 'create', 'Name'],
    // Words that name no command are the command's to refuse (USAGE, exit 2), as before.
    ['admin', 'nothing'],
  ])
    assert.is(commandLine(ok), null, ok.join(' '));
});

/** The real CLI, as `npm run cli --` runs it. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cli-'));
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, 'node_modules/.bin/node'), ['cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, CAIRN__SERVER__APP_DATA_PATH: data },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      fs.rmSync(data, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
  });
}

test('through the real CLI: a subcommand --help, an unknown option, --help before anything starts', async () => {
  const [help, unknown, serve] = await Promise.all([
    cli(['admin', 'user', 'create', '--help']),
    cli(['--config', '/nonexistent/app.ini', 'admin', 'user', 'create', '--bogus']),
    cli(['serve', '--help']),
  ]);
  assert.is(help.code, 0, help.stderr);
  assert.match(help.stdout, /^usage: npm run cli -- \[--config app.ini\] admin user create --username NAME/);
  assert.is(help.stderr, '');
  assert.is(unknown.code, 2);
  assert.is(unknown.stdout, '');
  assert.is(unknown.stderr.trimEnd().split('\n').length, 1, unknown.stderr);
  assert.match(unknown.stderr, /^cairn: unknown option '--bogus' for 'admin user create'/);
  assert.is(serve.code, 0, serve.stderr);
  assert.match(serve.stdout, /^usage: .* serve /);
});

test.run();
