// Talking to other repositories: fetching from a remote URL or a local repository (migrations,
// mirrors, forks, templates, fork sync) and pushing to a push-mirror remote. Every such git call goes
// through `runRemote`, so none can forget its two rules: credentials never reach argv or a config
// file (they travel as an HTTP header in git's command-scoped config environment, which other local
// users cannot read), and HTTP redirects are refused. The allow and block lists were checked for the
// address git is given; a redirect would hand the request to a host nobody checked.
import { assertSafeArg, runGit, type RunOptions, type RunResult } from './exec.ts';

export const REMOTE_TIMEOUT_MS = 10 * 60_000;

export interface RemoteAuth {
  username: string;
  password: string;
}

/**
 * The command-scoped configuration of every remote call: no redirects (an error, not a silent
 * follow), and an `Authorization: Basic` header for HTTP remotes when there are credentials.
 */
function remoteEnv(auth: RemoteAuth | null): Record<string, string> {
  const config: [string, string][] = [['http.followRedirects', 'false']];
  if (auth && (auth.username !== '' || auth.password !== '')) {
    const basic = Buffer.from(`${auth.username}:${auth.password}`).toString('base64');
    config.push(['http.extraHeader', `Authorization: Basic ${basic}`]);
  }
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(config.length) };
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** The one way this module runs git against a remote. */
function runRemote(
  repoPath: string | null,
  args: string[],
  auth: RemoteAuth | null,
  opts: Pick<RunOptions, 'okCodes'> = {},
): Promise<RunResult> {
  return runGit(repoPath, args, { ...opts, env: remoteEnv(auth), timeoutMs: REMOTE_TIMEOUT_MS });
}

export const ALL_BRANCHES_AND_TAGS = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];

/** `git fetch <url> <refspecs>` into a bare repository. */
export async function fetchFrom(
  repoPath: string,
  url: string,
  refspecs: string[],
  opts: { auth?: RemoteAuth | null; prune?: boolean } = {},
): Promise<void> {
  assertSafeArg(url, 'remote URL');
  for (const r of refspecs) assertSafeArg(r, 'refspec');
  const args = ['fetch', '--quiet', '--no-write-fetch-head'];
  if (opts.prune) args.push('--prune');
  await runRemote(repoPath, [...args, url, ...refspecs], opts.auth ?? null);
}

/**
 * Fetches every `refs/pull/<n>/head` of the remote under the same name. A remote without such refs
 * is no error: a glob refspec that matches nothing fetches nothing.
 */
export async function fetchPullHeads(repoPath: string, url: string, auth: RemoteAuth | null): Promise<void> {
  assertSafeArg(url, 'remote URL');
  await runRemote(repoPath, ['fetch', '--quiet', '--no-write-fetch-head', '--no-tags', url, '+refs/pull/*/head:refs/pull/*/head'], auth);
}

/** Fetches from the repository's configured `origin` (a pull mirror). */
export async function fetchOrigin(repoPath: string, opts: { auth?: RemoteAuth | null; prune?: boolean } = {}): Promise<void> {
  const args = ['fetch', '--quiet', '--no-write-fetch-head', '--tags'];
  if (opts.prune) args.push('--prune');
  await runRemote(repoPath, [...args, 'origin'], opts.auth ?? null);
}

/** The branch a remote's HEAD points at, or null (an empty remote, or a server that does not say). */
export async function remoteHeadBranch(url: string, auth: RemoteAuth | null): Promise<string | null> {
  assertSafeArg(url, 'remote URL');
  const { stdout } = await runRemote(null, ['ls-remote', '--symref', url, 'HEAD'], auth);
  const m = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(stdout.toString('utf8'));
  return m ? m[1] : null;
}

/** Whether a remote answers at all (used to probe for a wiki next to a migrated repository). */
export async function remoteExists(url: string, auth: RemoteAuth | null): Promise<boolean> {
  assertSafeArg(url, 'remote URL');
  const { code } = await runRemote(null, ['ls-remote', '--quiet', url, 'HEAD'], auth, { okCodes: [0, 1, 2, 128] });
  return code === 0;
}

/** Makes `origin` point at `url` with mirror refspecs, so later syncs need no arguments. */
export async function configureMirrorOrigin(repoPath: string, url: string): Promise<void> {
  assertSafeArg(url, 'remote URL');
  await runGit(repoPath, ['config', 'remote.origin.url', url]);
  await runGit(repoPath, ['config', '--replace-all', 'remote.origin.fetch', ALL_BRANCHES_AND_TAGS[0]]);
  await runGit(repoPath, ['config', '--add', 'remote.origin.fetch', ALL_BRANCHES_AND_TAGS[1]]);
  await runGit(repoPath, ['config', 'remote.origin.mirror', 'true']);
}

export async function removeOrigin(repoPath: string): Promise<void> {
  await runGit(repoPath, ['remote', 'remove', 'origin'], { okCodes: [0, 2] });
}

/** Pushes branches and tags to a push mirror; `branches` limits the pushed branches (empty: all, with prune). */
export async function pushTo(repoPath: string, url: string, auth: RemoteAuth | null, branches: string[] = []): Promise<void> {
  assertSafeArg(url, 'remote URL');
  const refspecs = branches.length
    ? [...branches.map((b) => `+refs/heads/${b}:refs/heads/${b}`), '+refs/tags/*:refs/tags/*']
    : ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];
  for (const r of refspecs) assertSafeArg(r, 'refspec');
  const args = ['push', '--quiet', ...(branches.length ? [] : ['--prune']), url, ...refspecs];
  await runRemote(repoPath, args, auth);
}
