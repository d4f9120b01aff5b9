// The pre-receive hook of pushes over HTTP. receive-pack runs it after the pack is received into
// quarantine and before any ref moves; the hook hands the ref updates and the quarantine environment
// to the server process that spawned receive-pack, over a private unix socket, and exits with the
// verdict. The decision itself (lib/transport/push-rules.ts) stays in the server, with the request's user and
// database, and sees the pushed objects through the quarantine environment.
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { RefUpdate } from './push-rules.ts';

const HOOK_SCRIPT = `'use strict';
// Written by cairn: forwards this pre-receive call to the server that started receive-pack.
const net = require('node:net');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const updates = Buffer.concat(chunks).toString('utf8').split('\\n').filter(Boolean).map((l) => {
    const [o, n, ref] = l.split(' ');
    return { old: o, new: n, ref };
  });
  const env = {};
  for (const k of ['GIT_QUARANTINE_PATH', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES']) if (process.env[k]) env[k] = process.env[k];
  const sock = net.connect(process.env.CAIRN_HOOK_SOCKET);
  let answer = '';
  sock.on('connect', () => sock.end(JSON.stringify({ updates, env }) + '\\n'));
  sock.on('data', (d) => { answer += d; });
  sock.on('error', (e) => { process.stderr.write('cairn: hook failed: ' + e.message + '\\n'); process.exit(1); });
  sock.on('close', () => {
    let verdict;
    try { verdict = JSON.parse(answer); } catch { verdict = { ok: false, message: 'cairn: no verdict from the server' }; }
    if (verdict.message) process.stderr.write(verdict.message + '\\n');
    process.exit(verdict.ok ? 0 : 1);
  });
});
`;

export interface HookDirs {
  /** core.hooksPath holding only the forwarding pre-receive hook. */
  check: string;
  /** An empty core.hooksPath: no hook runs (and no hook a repository carries). */
  none: string;
}

function writeAtomically(file: string, content: string, mode: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content, { mode });
  fs.renameSync(tmp, file);
}

/** Writes the hook scripts under the data directory (idempotent; processes sharing it write the same files). */
export function installHooks(dataPath: string): HookDirs {
  const check = path.join(dataPath, 'git-hooks', 'check');
  const none = path.join(dataPath, 'git-hooks', 'none');
  fs.mkdirSync(check, { recursive: true });
  fs.mkdirSync(none, { recursive: true });
  writeAtomically(path.join(check, 'pre-receive.cjs'), HOOK_SCRIPT, 0o644);
  const quote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
  const shell = `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(path.join(check, 'pre-receive.cjs'))}\n`;
  writeAtomically(path.join(check, 'pre-receive'), shell, 0o755);
  return { check, none };
}

export interface HookSession {
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Listens for the hook of one push. `decide` gets the updates and the quarantine environment and
 * returns the refusal message, or null to let the push through.
 */
export async function openHookSession(
  decide: (updates: RefUpdate[], env: Record<string, string>) => Promise<string | null>,
  onError: (e: unknown) => void,
): Promise<HookSession> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cairn-push-'));
  const socket = path.join(dir, 's');
  // Half-open: the hook ends its side after the request and still reads the verdict.
  const server = net.createServer({ allowHalfOpen: true }, (conn) => {
    let input = '';
    conn.setEncoding('utf8');
    conn.on('data', (d: string) => {
      input += d;
    });
    conn.on('error', onError);
    conn.on('end', () => {
      void (async () => {
        let verdict: { ok: boolean; message: string };
        try {
          const req = JSON.parse(input) as { updates: RefUpdate[]; env: Record<string, string> };
          const refused = await decide(req.updates, req.env);
          verdict = refused ? { ok: false, message: refused } : { ok: true, message: '' };
        } catch (e) {
          // The push must not go through unchecked; the cause is logged, the client sees a refusal.
          onError(e);
          verdict = { ok: false, message: 'cairn: the push could not be checked' };
        }
        conn.end(JSON.stringify(verdict));
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  return {
    env: { CAIRN_HOOK_SOCKET: socket },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
