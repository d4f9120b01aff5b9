// Git over SSH: the built-in SSH server (Forgejo's START_SSH_SERVER, modules/ssh/ssh.go with
// cmd/serv.go), on the `ssh2` package. Clients sign in as [server] SSH_USER with a public key that is
// a user's key (`/user/keys`) or a deploy key; password and keyboard-interactive logins are refused.
// A session may run one command: `git-upload-pack`, `git-receive-pack` or `git-upload-archive` on
// `owner/repo[.git]` (or its `.wiki`), or `git-lfs-authenticate owner/repo upload|download`; anything
// else is refused with a message on stderr and exit status 1. Access and the push path are the ones
// git over HTTP uses (lib/transport/git-access.ts, lib/transport/git-push.ts). Pack data is piped, never buffered.
import type { AddressInfo } from 'node:net';
import type { EntityManager } from '@mikro-orm/core';
import ssh2, { type AuthContext, type Connection, type ServerChannel, type Session } from 'ssh2';
import type { Config } from '../config.ts';
import type { Orm } from '../model/db.ts';
import type { Services } from '../lib/http/services.ts';
import { isDenial, isMoved, resolveGitAccess, type GitAccess, type GitAccessResult, type GitMode } from '../lib/transport/git-access.ts';
import { startPush, ensurePushTarget, PUSH_NOT_ANNOUNCED, type PushRun } from '../lib/transport/git-push.ts';
import { ReportGate } from '../lib/transport/push-report.ts';
import { installHooks, type HookDirs } from '../lib/transport/push-hook.ts';
import { hostKeyFingerprint, loadOrCreateHostKey } from '../lib/transport/ssh-host-key.ts';
import { parseSshCommand, SshCommandError, type GitVerb, type SshCommand } from '../lib/transport/ssh-command.ts';
import {
  accountDisabled,
  fingerprintOfBlob,
  identityForKey,
  isKnownKey,
  principalOf,
  touchKey,
  type SshIdentity,
} from '../lib/transport/ssh-identity.ts';
import { signLfsToken } from '../lib/transport/lfs-token.ts';
import { spawnGit } from '../git/exec.ts';
import { isDatabaseUnavailable, OUTAGE_MESSAGE, outageLog } from '../lib/db/outage.ts';

export interface SshServerDeps {
  config: Config;
  orm: Orm;
  services: Services;
}

export interface RunningSsh {
  port: number;
  /** The host key's fingerprint (lib/transport/ssh-host-key.ts hostKeyFingerprint). */
  fingerprint: string;
  /**
   * Stops accepting connections; resolves once every connection has ended. Open connections are ended
   * at once, or with `graceMs`, left that long to finish their git commands first (graceful shutdown).
   */
  close(graceMs?: number): Promise<void>;
}

const SUBCOMMAND: Record<GitVerb, string> = {
  'git-upload-pack': 'upload-pack',
  'git-receive-pack': 'receive-pack',
  'git-upload-archive': 'upload-archive',
};
// The same limit as the Git-Protocol header over HTTP (git/http.ts).
const GIT_PROTOCOL = /^[A-Za-z0-9=:._-]*$/;

export async function startSshServer(deps: SshServerDeps, port: number, host: string): Promise<RunningSsh> {
  const hostKey = loadOrCreateHostKey(deps.config.dataPath);
  const hooks = installHooks(deps.config.dataPath);
  const clients = new Set<Connection>();
  const server = new ssh2.Server({ hostKeys: [hostKey], ident: 'cairn' }, (client) => {
    clients.add(client);
    client.on('close', () => clients.delete(client));
    onClient(deps, hooks, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  server.on('error', (e: Error) => deps.services.log.error({ err: e }, 'ssh server error'));
  return {
    port: (server.address() as AddressInfo).port,
    fingerprint: hostKeyFingerprint(hostKey),
    close: (graceMs = 0) =>
      new Promise<void>((resolve) => {
        const endAll = () => {
          for (const c of clients) c.end();
        };
        const hammer = graceMs > 0 ? setTimeout(endAll, graceMs) : null;
        server.close(() => {
          if (hammer) clearTimeout(hammer);
          resolve();
        });
        // Open sessions end with the server, as HTTP connections do (server.ts listen), unless given time.
        if (!hammer) endAll();
      }),
  };
}

function onClient(deps: SshServerDeps, hooks: HookDirs, client: Connection): void {
  const { log } = deps.services;
  // The fingerprint of the key whose signature was verified: set once, before `ready`.
  let fingerprint: string | null = null;
  client.on('authentication', (ctx) => {
    authenticate(deps, ctx).then(
      (fp) => {
        if (fp === null) return ctx.reject(['publickey']);
        if (ctx.method === 'publickey' && ctx.signature) fingerprint = fp;
        ctx.accept();
      },
      (e: unknown) => {
        // During a database outage (lib/db/outage.ts) the key cannot be checked: refused, logged once.
        if (isDatabaseUnavailable(e)) outageLog(log).failed(e);
        else log.error({ err: e }, 'ssh authentication failed');
        ctx.reject(['publickey']);
      },
    );
  });
  client.on('ready', () => {
    client.on('session', (accept) => onSession(deps, hooks, accept(), () => fingerprint!));
  });
  // A client that goes away mid-handshake is no server error.
  client.on('error', (e: Error) => log.debug({ err: e }, 'ssh connection error'));
}

/**
 * The fingerprint of an acceptable key, or null. Without a signature the client only asks whether
 * the key would do (RFC 4252 7); with one, the signature over the session is verified.
 */
async function authenticate(deps: SshServerDeps, ctx: AuthContext): Promise<string | null> {
  if (ctx.method !== 'publickey' || ctx.username !== deps.config.SERVER.SSH_USER) return null;
  const parsed = fingerprintOfBlob(ctx.key.data);
  if (!parsed || !(await isKnownKey(deps.orm.em.fork(), parsed.fingerprint))) return null;
  if (!ctx.signature || !ctx.blob) return parsed.fingerprint;
  const key = ssh2.utils.parseKey(`${parsed.type} ${ctx.key.data.toString('base64')}`);
  if (key instanceof Error || Array.isArray(key)) return null;
  return key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true ? parsed.fingerprint : null;
}

function onSession(deps: SshServerDeps, hooks: HookDirs, session: Session, fingerprint: () => string): void {
  let gitProtocol: string | undefined;
  // A client that goes away mid-command makes its channel's writes fail; that ends the command, not the server.
  const opened = (channel: ServerChannel) => {
    const quiet = (e: Error) => deps.services.log.debug({ err: e }, 'ssh channel error');
    channel.on('error', quiet);
    channel.stderr.on('error', quiet);
    return channel;
  };
  // git passes GIT_PROTOCOL (protocol v2) as an environment request; no other variable is taken.
  session.on('env', (accept, reject, info) => {
    if (info.key === 'GIT_PROTOCOL' && GIT_PROTOCOL.test(info.val)) {
      gitProtocol = info.val;
      accept?.();
    } else reject?.();
  });
  session.on('pty', (_accept, reject) => reject?.());
  session.on('subsystem', (_accept, reject) => reject?.());
  session.on('shell', (accept) => {
    const channel = opened(accept());
    void greet(deps, channel, fingerprint()).catch((e: unknown) => failed(deps, channel, e));
  });
  session.on('exec', (accept, _reject, info) => {
    const channel = opened(accept());
    void runCommand(deps, hooks, channel, info.command, gitProtocol, fingerprint()).catch((e: unknown) => failed(deps, channel, e));
  });
}

/** Ends a command with a message on stderr and exit status 1 (Forgejo's `fail`). */
function refuse(channel: ServerChannel, message: string, code = 1): void {
  channel.stderr.write(`cairn: ${message}\n`);
  channel.exit(code);
  channel.end();
}

function failed(deps: SshServerDeps, channel: ServerChannel, e: unknown): void {
  if (isDatabaseUnavailable(e)) {
    outageLog(deps.services.log).failed(e);
    return refuse(channel, OUTAGE_MESSAGE);
  }
  deps.services.log.error({ err: e }, 'ssh command failed');
  refuse(channel, 'internal error');
}

/** `ssh -T git@host`: who the key stands for, and that there is no shell (Forgejo's serv with no command). */
async function greet(deps: SshServerDeps, channel: ServerChannel, fingerprint: string): Promise<void> {
  const identity = await identityForKey(deps.orm.em.fork(), fingerprint);
  if (!identity) return refuse(channel, 'Unknown key');
  const who =
    identity.kind === 'user'
      ? `Hi there, ${identity.user.name}! You've successfully authenticated with the key named ${identity.key.name}`
      : `Hi there! You've successfully authenticated with the deploy key named ${identity.keys[0].name}`;
  channel.stderr.write(`${who}, but cairn does not provide shell access.\n`);
  channel.exit(0);
  channel.end();
}

async function runCommand(
  deps: SshServerDeps,
  hooks: HookDirs,
  channel: ServerChannel,
  command: string,
  gitProtocol: string | undefined,
  fingerprint: string,
): Promise<void> {
  const { config, orm, services } = deps;
  let cmd: SshCommand;
  try {
    cmd = parseSshCommand(command);
  } catch (e) {
    if (e instanceof SshCommandError) return refuse(channel, e.message);
    throw e;
  }
  if (cmd.kind === 'lfs' && !config.SERVER.LFS_START_SERVER)
    return refuse(channel, 'LFS authentication request over SSH denied, LFS support is disabled');
  const em = orm.em.fork();
  const identity = await identityForKey(em, fingerprint);
  // The key may have been deleted since the connection was made.
  if (!identity) return refuse(channel, 'Unknown key');
  if (accountDisabled(identity)) return refuse(channel, 'Your account is disabled.');
  const mode: GitMode =
    cmd.kind === 'lfs' ? (cmd.operation === 'upload' ? 'write' : 'read') : cmd.verb === 'git-receive-pack' ? 'write' : 'read';
  const who = principalOf(identity);
  let access: GitAccessResult = await resolveGitAccess(em, { config, services }, who, cmd.owner, cmd.repo, mode);
  // A renamed or transferred repository is served under its new name (Forgejo's LookupRedirect).
  if (isMoved(access)) access = await resolveGitAccess(em, { config, services }, who, access.owner, access.name, mode);
  if (isMoved(access)) return refuse(channel, 'Repository not found');
  if (isDenial(access)) return refuse(channel, access.message);
  await touchKey(em, identity, access);
  if (cmd.kind === 'lfs') return lfsAuthenticate(deps, channel, identity, access, cmd.operation);
  await serveGit(deps, hooks, em, channel, cmd.verb, access, gitProtocol);
}

/** git-lfs-authenticate: where the LFS API is and a short-lived token for it (Forgejo's LFSTokenResponse). */
function lfsAuthenticate(
  deps: SshServerDeps,
  channel: ServerChannel,
  identity: SshIdentity,
  access: GitAccess,
  operation: 'upload' | 'download',
): void {
  const { config, services } = deps;
  if (access.isWiki) return refuse(channel, 'Git LFS is not served for wikis');
  const { token, expiresAt } = signLfsToken(
    services.secrets,
    {
      RepoID: access.repo.id,
      Op: operation,
      UserID: identity.kind === 'user' ? identity.user.id : 0,
      DeployKeyID: access.deployKey?.id ?? 0,
    },
    config.lfsAuthExpiryMs,
  );
  const href = `${config.appUrl}${encodeURIComponent(access.owner.name)}/${encodeURIComponent(access.repo.name)}.git/info/lfs`;
  channel.write(`${JSON.stringify({ header: { Authorization: `Bearer ${token}` }, href, expires_at: expiresAt.toISOString() })}\n`);
  channel.exit(0);
  channel.end();
}

/** `em` is the one `access` was resolved with: the push refreshes the repository entity it holds. */
async function serveGit(
  deps: SshServerDeps,
  hooks: HookDirs,
  em: EntityManager,
  channel: ServerChannel,
  verb: GitVerb,
  access: GitAccess,
  gitProtocol: string | undefined,
): Promise<void> {
  const { config, services } = deps;
  let push: PushRun | null = null;
  if (access.mode === 'write') {
    await ensurePushTarget(config, access);
    push = await startPush(em, { config, services, hooks }, access);
  }
  const settings = Object.entries(push?.config ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  const env: Record<string, string> = { ...push?.env };
  if (gitProtocol) env.GIT_PROTOCOL = gitProtocol;
  const child = spawnGit(null, [...settings, SUBCOMMAND[verb], access.path], { env });
  let channelClosed = false;
  channel.on('close', () => {
    channelClosed = true;
    // The client went away: git stops, and receive-pack drops what it had not yet applied.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  channel.pipe(child.stdin);
  push?.observe(channel);
  // A push's report reaches the client only after the push was announced and the repository record
  // reflects it (lib/transport/push-report.ts); the exit status follows it.
  const output = push
    ? child.stdout.pipe(
        new ReportGate({
          advertisement: true,
          settle: () =>
            push.finish().catch((e: unknown) => {
              services.log.error({ err: e, repo: access.repo.id }, 'push not announced: its report says so');
              throw e;
            }),
          reason: PUSH_NOT_ANNOUNCED,
        }),
      )
    : child.stdout;
  output.pipe(channel, { end: false });
  child.stderr.pipe(channel.stderr, { end: false });
  child.on('error', (e) => services.log.error({ err: e }, 'git failed to start'));
  const outputEnded = new Promise<void>((resolve) => {
    output.once('end', resolve);
    output.once('close', resolve);
  });
  child.on('close', (code) => {
    void (async () => {
      await outputEnded;
      // git's output cut short (a timeout) never reached the gate's end: the push is announced here.
      if (push) await push.abort().catch((e: unknown) => services.log.error({ err: e, repo: access.repo.id }, 'push not announced'));
      if (channelClosed) return;
      channel.exit(code ?? 1);
      channel.end();
    })();
  });
}
