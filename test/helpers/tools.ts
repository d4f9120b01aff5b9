// The system tools the tests drive as real clients, each with the Debian packages that provide it:
// one list for the tests (`requireTools`, which makes a test whose tool is missing fail at once,
// naming the tool and the command that installs it) and for `npm run test:tools` (test/tools.ts),
// which installs what is missing. test/tools.test.ts checks that every test driving a tool asks for it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

type Env = Record<string, string | undefined>;

interface Part {
  pkg: string;
  present: (env: Env) => boolean;
}

const onPath = (program: string) => (env: Env) =>
  (env.PATH ?? '').split(path.delimiter).some((dir) => {
    if (dir === '') return false;
    try {
      fs.accessSync(path.join(dir, program), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
const runs = (program: string, args: string[]) => (env: Env) =>
  spawnSync(program, args, { env: env as NodeJS.ProcessEnv, stdio: 'ignore', timeout: 30_000 }).status === 0;
/** Debian's Maven plugins resolve offline from its own repository. */
const mavenRepo = (dir: string) => () => fs.existsSync(path.join('/usr/share/maven-repo', dir));

export const TOOLS = {
  /** OpenSSH's client, against the built-in SSH server (git over SSH, git-lfs-authenticate). */
  ssh: [{ pkg: 'openssh-client', present: onPath('ssh') }],
  'ssh-keygen': [{ pkg: 'openssh-client', present: onPath('ssh-keygen') }],
  /** The Git LFS client. */
  'git-lfs': [{ pkg: 'git-lfs', present: onPath('git-lfs') }],
  /** pip, against the PyPI registry (python3 builds the wheels). */
  pip: [{ pkg: 'python3-pip', present: runs('python3', ['-m', 'pip', '--version']) }],
  /** The container registry's client. */
  skopeo: [{ pkg: 'skopeo', present: onPath('skopeo') }],
  /** The Cargo registry's client (its sparse index needs Cargo 1.68 or later). */
  cargo: [{ pkg: 'cargo', present: onPath('cargo') }],
  /** Maven with Debian's deploy and dependency plugins (the dependency plugin's POM names junit4). */
  mvn: [
    { pkg: 'maven', present: onPath('mvn') },
    { pkg: 'libmaven-deploy-plugin-java', present: mavenRepo('org/apache/maven/plugins/maven-deploy-plugin') },
    { pkg: 'libmaven-dependency-plugin-java', present: mavenRepo('org/apache/maven/plugins/maven-dependency-plugin') },
    { pkg: 'junit4', present: mavenRepo('junit/junit') },
  ],
  /** Debian's chromium, driven through playwright-core (which downloads no browser); CHROMIUM_PATH names another. */
  chromium: [{ pkg: 'chromium', present: (env: Env) => fs.existsSync(env.CHROMIUM_PATH || '/usr/bin/chromium') }],
  /** PostgreSQL's client programs: `cairn admin dump` and `restore` on PostgreSQL. */
  pg_dump: [{ pkg: 'postgresql-client', present: (env: Env) => onPath('pg_dump')(env) && onPath('psql')(env) }],
} as const satisfies Record<string, readonly Part[]>;

export type ToolName = keyof typeof TOOLS;

export const INSTALL_COMMAND = 'npm run test:tools';

/** The Debian packages missing for these tools (all of them by default), each once. */
export function missingPackages(names: readonly ToolName[] = Object.keys(TOOLS) as ToolName[], env: Env = process.env): string[] {
  const out = new Set<string>();
  for (const name of names) for (const part of TOOLS[name] as readonly Part[]) if (!part.present(env)) out.add(part.pkg);
  return [...out];
}

export class MissingToolError extends Error {}

/** Throws, naming the missing tools and how to install them, unless every one is installed. */
export function requireTools(...names: ToolName[]): void {
  checkTools(names, process.env);
}

/** `requireTools` with another environment (for its own test). */
export function checkTools(names: readonly ToolName[], env: Env): void {
  const missing = names.filter((name) => missingPackages([name], env).length > 0);
  if (missing.length === 0) return;
  const packages = missingPackages(missing, env);
  throw new MissingToolError(
    `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed, and this test drives ${missing.length === 1 ? 'it' : 'them'}: run \`${INSTALL_COMMAND}\` (it runs \`apt-get install ${packages.join(' ')}\`)`,
  );
}
