// The real OpenSSH client against cairn's SSH server: key pairs made by ssh-keygen, and git or ssh
// run with GIT_SSH_COMMAND / argv pointing at the server's port. Host keys are not pinned (a fresh
// server per test file), so the client runs with StrictHostKeyChecking=no and no known_hosts file.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { startSshServer, type RunningSsh } from '../../transports/git-ssh.ts';
import { secretKey } from '../../server.ts';
import { SecretBox } from '../../lib/auth/secretbox.ts';
import { repoPathFor } from '../../lib/http/services.ts';
import type { TestDb, TestServer } from './server.ts';
import { IDENTITY } from './git-cli.ts';
import { requireTools } from './tools.ts';

export interface KeyPair {
  file: string;
  publicKey: string;
}

/** A new ed25519 key pair under `dir`, made by ssh-keygen. */
export async function makeKeyPair(dir: string, name: string): Promise<KeyPair> {
  requireTools('ssh', 'ssh-keygen');
  const file = path.join(dir, name);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file]);
  return { file, publicKey: fs.readFileSync(`${file}.pub`, 'utf8').trim() };
}

/** The SSH server over the test server's database and settings, on a free port of 127.0.0.1. */
export async function startSsh(t: TestDb, srv: TestServer): Promise<RunningSsh> {
  const config = srv.config;
  const log = pino({ level: process.env.TEST_LOG ?? 'silent' });
  return startSshServer(
    { config, orm: t.db.orm, services: { log, secrets: new SecretBox(secretKey(config)), repoPath: repoPathFor(config) } },
    0,
    '127.0.0.1',
  );
}

/** ssh's options for the server: this key only, no agent, no config file, no prompt. */
export function sshOptions(key: KeyPair, port: number): string[] {
  return [
    '-F',
    '/dev/null',
    '-i',
    key.file,
    '-p',
    String(port),
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    'IdentityAgent=none',
    '-o',
    'BatchMode=yes',
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'LogLevel=ERROR',
  ];
}

/** GIT_SSH_COMMAND for git (a command line git hands to the shell: the paths are temporary directories without spaces). */
export const gitSshCommand = (key: KeyPair, port: number) => ['ssh', ...sshOptions(key, port)].join(' ');

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program with argv, never throwing for a non-zero exit. */
export function run(file: string, args: string[], opts: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      { cwd: opts.cwd, env: { ...process.env, ...IDENTITY, ...opts.env }, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') return reject(err);
        resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
      },
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
    else child.stdin?.end();
  });
}

/** git with GIT_SSH_COMMAND set for `key`. */
export const gitOverSsh = (key: KeyPair, port: number, args: string[], cwd?: string, env: Record<string, string> = {}) =>
  run('git', args, { cwd, env: { GIT_SSH_COMMAND: gitSshCommand(key, port), GIT_TERMINAL_PROMPT: '0', ...env } });

/** `git@127.0.0.1:owner/repo.git`, the scp-like form of ssh_url (the port comes from GIT_SSH_COMMAND). */
export const scpUrl = (owner: string, repo: string) => `git@127.0.0.1:${owner}/${repo}.git`;
