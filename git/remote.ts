// Talking to other repositories: fetching from a remote URL or a local repository (migrations,
// mirrors, forks, templates, fork sync) and pushing to a push-mirror remote. Credentials never
// reach argv or a config file: they travel as an HTTP header in git's command-scoped config
// environment, which other local users cannot read.
import { assertSafeArg, runGit } from './exec.ts';

export const REMOTE_TIMEOUT_MS = 10 * 60_000;

export interface RemoteAuth { username: string; password: string }

/** Environment that hands git an `Authorization: Basic` header for HTTP remotes. */
export function authEnv(auth: RemoteAuth | null): Record<string, string> {
  if (!auth || (auth.username === '' && auth.password === '')) return {};
  const basic = Buffer.from(`${auth.username}:${auth.password}`).toString('base64');
  return { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}` };
}

export const ALL_BRANCHES_AND_TAGS = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];

/** `git fetch <url> <refspecs>` into a bare repository. */
export async function fetchFrom(repoPath: string, url: string, refspecs: string[], opts: { auth?: RemoteAuth | null; prune?: boolean } = {}): Promise<void> {
  assertSafeArg(url, 'remote URL');
  for (const r of refspecs) assertSafeArg(r, 'refspec');
  const args = ['fetch', '--quiet', '--no-write-fetch-head'];
  if (opts.prune) args.push('--prune');
  await runGit(repoPath, [...args, url, ...refspecs], { env: authEnv(opts.auth ?? null), timeoutMs: REMOTE_TIMEOUT_MS });
}

/** Fetches from the repository's configured `origin` (a pull mirror). */
export async function fetchOrigin(repoPath: string, opts: { auth?: RemoteAuth | null; prune?: boolean } = {}): Promise<void> {
  const args = ['fetch', '--quiet', '--no-write-fetch-head', '--tags'];
  if (opts.prune) args.push('--prune');
  await runGit(repoPath, [...args, 'origin'], { env: authEnv(opts.auth ?? null), timeoutMs: REMOTE_TIMEOUT_MS });
}

/** The branch a remote's HEAD points at, or null (an empty remote, or a server that does not say). */
export async function remoteHeadBranch(url: string, auth: RemoteAuth | null): Promise<string | null> {
  assertSafeArg(url, 'remote URL');
  const { stdout } = await runGit(null, ['ls-remote', '--symref', url, 'HEAD'], { env: authEnv(auth), timeoutMs: REMOTE_TIMEOUT_MS });
  const m = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(stdout.toString('utf8'));
  return m ? m[1] : null;
}

/** Whether a remote answers at all (used to probe for a wiki next to a migrated repository). */
export async function remoteExists(url: string, auth: RemoteAuth | null): Promise<boolean> {
  assertSafeArg(url, 'remote URL');
  const { code } = await runGit(null, ['ls-remote', '--quiet', url, 'HEAD'], { env: authEnv(auth), timeoutMs: REMOTE_TIMEOUT_MS, okCodes: [0, 1, 2, 128] });
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
  await runGit(repoPath, args, { env: authEnv(auth), timeoutMs: REMOTE_TIMEOUT_MS });
}
