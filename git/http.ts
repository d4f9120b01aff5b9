import path from 'node:path';
import type { Readable } from 'node:stream';
import { GitArgError } from './errors.ts';
import { assertSafeArg, gitStream, runGit } from './exec.ts';

// Smart HTTP, as git http-backend does it, over plain streams. A gzip-encoded request body must
// be decompressed by the caller before it is passed in.

export type GitService = 'git-upload-pack' | 'git-receive-pack';

export interface RpcOptions {
  /** The client's `Git-Protocol` header (e.g. "version=2"), passed to git as GIT_PROTOCOL. */
  gitProtocol?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** `-c key=value` settings for this invocation (e.g. core.hooksPath). */
  config?: Record<string, string>;
}

const GIT_PROTOCOL = /^[A-Za-z0-9=:._-]*$/;

export function pktLine(payload: string): string {
  return (Buffer.byteLength(payload) + 4).toString(16).padStart(4, '0') + payload;
}

function subcommand(service: GitService): string {
  return service === 'git-upload-pack' ? 'upload-pack' : 'receive-pack';
}

function serviceEnv(opts: RpcOptions): Record<string, string> {
  const env = { ...opts.env };
  if (opts.gitProtocol !== undefined && opts.gitProtocol !== '') {
    if (!GIT_PROTOCOL.test(opts.gitProtocol)) throw new GitArgError('invalid Git-Protocol header');
    env.GIT_PROTOCOL = opts.gitProtocol;
  }
  return env;
}

function repoArg(repoPath: string): string {
  const abs = path.resolve(repoPath);
  assertSafeArg(abs, 'repository path');
  return abs;
}

/** Whether the client asked for protocol v2 (only upload-pack speaks it; receive-pack falls back to v0). */
export function wantsV2(service: GitService, gitProtocol?: string): boolean {
  return service === 'git-upload-pack' && (gitProtocol ?? '').split(':').includes('version=2');
}

/** The body of `GET info/refs?service=<service>`. */
export async function advertiseRefs(repoPath: string, service: GitService, opts: RpcOptions = {}): Promise<Buffer> {
  const { stdout } = await runGit(null, [subcommand(service), '--stateless-rpc', '--advertise-refs', repoArg(repoPath)], {
    env: serviceEnv(opts),
    timeoutMs: opts.timeoutMs,
  });
  // http-backend omits the "# service" preamble for protocol v2, whose answer is a capability list.
  if (wantsV2(service, opts.gitProtocol)) return stdout;
  return Buffer.concat([Buffer.from(`${pktLine(`# service=${service}\n`)}0000`), stdout]);
}

/** The response body of `POST <service>`: git's output for the request body piped to it. */
export function serviceRpc(repoPath: string, service: GitService, request: Readable, opts: RpcOptions = {}): Readable {
  const config = Object.entries(opts.config ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  return gitStream(null, [...config, subcommand(service), '--stateless-rpc', repoArg(repoPath)], {
    input: request,
    env: serviceEnv(opts),
    timeoutMs: opts.timeoutMs,
  });
}

export function contentType(service: GitService, kind: 'advertisement' | 'result'): string {
  return `application/x-${service}-${kind}`;
}
