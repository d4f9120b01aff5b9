// The admin commands of the CLI, run against an open database: by `npm run cli -- admin ...` directly,
// or inside a running server that received them over its admin socket.
import path from 'node:path';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { Config } from './config.ts';
import type { Orm } from './model/db.ts';
import { secretKey } from './server.ts';
import { createUser } from './lib/users/accounts.ts';
import { User } from './model/user.ts';
import { AccessToken } from './model/token.ts';
import { hashToken, newSalt, newTokenValue } from './lib/auth/tokens.ts';
import { normalizeScopes } from './lib/auth/scopes.ts';
import { newTotpSecret, totpFor } from './lib/auth/totp.ts';
import { SecretBox } from './lib/auth/secretbox.ts';
import type { DatabaseFormat } from './lib/maintenance/dump.ts';
import { hostKeyFile, hostKeyFingerprint, readHostKey } from './lib/transport/ssh-host-key.ts';

export interface Output {
  lines: string[];
  code: number;
}

/** One command of the CLI: its words, its usage lines as USAGE prints them, and the options it reads. */
export interface CommandSpec {
  words: string[];
  usage: string[];
  options: ParseArgsOptionsConfig;
  /** Words after the command that it reads (`migration create <Name>`); more are refused when set. */
  positionals?: number;
}

const NO_OPTIONS: ParseArgsOptionsConfig = {};

/** Every command and subcommand, in USAGE's order (`npm run cli -- <words> --help` prints its lines). */
export const COMMANDS: readonly CommandSpec[] = [
  { words: ['serve'], usage: ['  serve                         start the HTTP server (npm start)'], options: NO_OPTIONS },
  { words: ['migrate'], usage: ['  migrate                       apply database migrations and exit'], options: NO_OPTIONS },
  { words: ['routes'], usage: ['  routes [--json]               print the route matrix'], options: { json: { type: 'boolean' } } },
  {
    words: ['admin', 'user', 'create'],
    usage: [
      '  admin user create --username NAME --password PW --email E [--admin] [--must-change-password]',
      '                    [--access-token] [--access-token-name NAME] [--access-token-scopes all]',
    ],
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      email: { type: 'string' },
      admin: { type: 'boolean' },
      'must-change-password': { type: 'boolean' },
      'access-token': { type: 'boolean' },
      'access-token-name': { type: 'string' },
      'access-token-scopes': { type: 'string' },
    },
    positionals: 0,
  },
  {
    words: ['admin', 'user', '2fa', 'enroll'],
    usage: ['  admin user 2fa enroll --username NAME     enable TOTP two-factor sign-in; prints the secret'],
    options: { username: { type: 'string' } },
    positionals: 0,
  },
  {
    words: ['admin', 'user', '2fa', 'disable'],
    usage: ['  admin user 2fa disable --username NAME'],
    options: { username: { type: 'string' } },
    positionals: 0,
  },
  { words: ['admin', 'user', 'list'], usage: ['  admin user list'], options: NO_OPTIONS },
  {
    words: ['admin', 'dump'],
    usage: [
      '  admin dump [--file FILE.tar.gz] [--database-format pg_dump|json]',
      '                                the database, repositories and data files in one archive, while the',
      '                                server runs (default file: cairn-dump-<unix time>.tar.gz)',
    ],
    options: { file: { type: 'string', short: 'f' }, 'database-format': { type: 'string' } },
    positionals: 0,
  },
  {
    words: ['admin', 'restore'],
    usage: [
      '  admin restore --file FILE.tar.gz',
      '                                a dump into an empty data directory and an empty database (no server running)',
    ],
    options: { file: { type: 'string', short: 'f' } },
    positionals: 0,
  },
  {
    words: ['admin', 'ssh', 'fingerprint'],
    usage: ["  admin ssh fingerprint         print the built-in SSH server's host key fingerprint (ssh-keygen -lf)"],
    options: NO_OPTIONS,
  },
  {
    words: ['migration', 'create'],
    usage: ['  migration create <Name>       write a migration for entity changes (maintainers)'],
    options: NO_OPTIONS,
    positionals: 1,
  },
];

const USAGE_HEAD = 'usage: npm run cli -- [--config app.ini]';

export const USAGE = [`${USAGE_HEAD} <command>`, ...COMMANDS.flatMap((c) => c.usage)].join('\n');

/** The groups of commands (`admin`, `admin user`, ...): every proper prefix of a command's words. */
const GROUPS = new Set(COMMANDS.flatMap((c) => c.words.slice(0, -1).map((_, i) => c.words.slice(0, i + 1).join(' '))));

const isHelp = (arg: string) => arg === '--help' || arg === '-h';

/**
 * What the command line answers before any command runs (`--config` already taken out): the usage
 * of a command or group asked with `--help` or `-h` (exit 0, on stdout), or one line for an option
 * the command does not take, a value missing or a word too many (exit 2, on stderr). Null when the
 * command runs; words that name no command are left to it (it prints USAGE, exit 2).
 */
export function commandLine(argv: readonly string[]): Output | null {
  // The longest run of leading words that names a group or a command.
  let words: string[] = [];
  for (const arg of argv) {
    const next = [...words, arg];
    if (!GROUPS.has(next.join(' ')) && !COMMANDS.some((c) => c.words.join(' ') === next.join(' '))) break;
    words = next;
  }
  const name = words.join(' ');
  const command = COMMANDS.find((c) => c.words.join(' ') === name);
  const rest = argv.slice(words.length);
  const asked = rest.slice(0, Math.max(0, rest.indexOf('--')) || rest.length);
  if (asked.some(isHelp)) {
    if (command) return { lines: [`${USAGE_HEAD} ${command.usage.join('\n').trimStart()}`], code: 0 };
    const below = COMMANDS.filter((c) => name === '' || c.words.join(' ').startsWith(`${name} `));
    return { lines: [`${USAGE_HEAD} ${name ? `${name} ` : ''}<command>`, ...below.flatMap((c) => c.usage)], code: 0 };
  }
  const where = name || 'cairn';
  if (!command) {
    // A group (or nothing) followed by an option: no group takes one.
    const option = rest[0];
    if (option?.startsWith('-') && option !== '-') return refused(`unknown option '${option}' for '${where}'`, name);
    return null;
  }
  try {
    const { positionals } = parseArgs({ args: [...rest], options: command.options, allowPositionals: true, strict: true });
    if (command.positionals !== undefined && positionals.length > command.positionals)
      return refused(`unexpected argument '${positionals[command.positionals]}' for '${where}'`, name);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = rest.find((a) => a.startsWith('-') && !knownOption(command, a)) ?? '';
      return refused(`unknown option '${option}' for '${where}'`, name);
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return refused(firstLine((e as Error).message), name);
    throw e;
  }
  return null;
}

/** Whether `arg` (`--name`, `--name=value`, `-f`) is one of the command's options. */
function knownOption(command: CommandSpec, arg: string): boolean {
  if (arg === '--') return true;
  if (arg.startsWith('--')) return Object.hasOwn(command.options, arg.slice(2).split('=')[0]!);
  return Object.values(command.options).some((o) => o.short !== undefined && arg.slice(1).startsWith(o.short));
}

const firstLine = (s: string) => s.split('\n')[0]!;

const refused = (message: string, name: string): Output => ({
  lines: [`cairn: ${message} (see: npm run cli -- ${name ? `${name} ` : ''}--help)`],
  code: 2,
});

/**
 * `admin ssh fingerprint`: the host key's fingerprint, read from the data path (the key is never made
 * here: the SSH server makes it on its first start).
 */
export function runSshAdmin(cfg: Config, argv: string[]): Output {
  if (argv.length !== 1 || argv[0] !== 'fingerprint') return { lines: [USAGE], code: 2 };
  const key = readHostKey(cfg.dataPath);
  if (key === null) {
    return {
      lines: [
        `no SSH host key at ${hostKeyFile(cfg.dataPath)}: the built-in SSH server makes it on its first start (CAIRN__SERVER__SSH_LISTEN_PORT)`,
      ],
      code: 1,
    };
  }
  return { lines: [hostKeyFingerprint(key)], code: 0 };
}

/** Admin commands, run against an open database (here, or inside the running server). */
export async function runAdmin(orm: Orm, cfg: Config, argv: string[]): Promise<Output> {
  const lines: string[] = [];
  const [group, sub, ...rest] = argv;
  if (group === 'dump') return dump(orm, cfg, argv.slice(1));
  if (group === 'restore') return { lines: ['restore runs from the command line, with no server running on the data directory'], code: 1 };
  if (group === 'ssh') return runSshAdmin(cfg, argv.slice(1));
  if (group !== 'user') return { lines: [USAGE], code: 2 };
  const em = orm.em.fork();
  if (sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: {
        username: { type: 'string' },
        password: { type: 'string' },
        email: { type: 'string' },
        admin: { type: 'boolean' },
        'must-change-password': { type: 'boolean' },
        'access-token': { type: 'boolean' },
        'access-token-name': { type: 'string' },
        'access-token-scopes': { type: 'string' },
      },
    });
    if (!values.username || !values.password || !values.email)
      return { lines: ['--username, --password and --email are required'], code: 2 };
    const user = await em.transactional(async (tx) => {
      const u = await createUser(tx, {
        name: values.username!,
        email: values.email!,
        password: values.password!,
        isAdmin: !!values.admin,
        mustChangePassword: !!values['must-change-password'],
      });
      lines.push(`New user '${u.name}' has been successfully created!`);
      if (values['access-token']) {
        const value = newTokenValue();
        const salt = newSalt();
        const scopes = normalizeScopes((values['access-token-scopes'] ?? 'all').split(','));
        tx.create(AccessToken, {
          uid: u.id,
          name: values['access-token-name'] ?? 'gitea-admin',
          tokenHash: hashToken(value, salt),
          tokenSalt: salt,
          tokenLastEight: value.slice(-8),
          scope: scopes.join(','),
        });
        lines.push(value);
      }
      return u;
    });
    return { lines, code: user ? 0 : 1 };
  }
  if (sub === '2fa') {
    const [action, ...more] = rest;
    const { values } = parseArgs({ args: more, options: { username: { type: 'string' } } });
    const user = await em.findOne(User, { lowerName: (values.username ?? '').toLowerCase(), type: 0 }, { populate: ['totpSecret'] });
    if (!user) return { lines: [`user does not exist [name: ${values.username ?? ''}]`], code: 1 };
    const box = new SecretBox(secretKey(cfg));
    if (action === 'enroll') {
      const secret = newTotpSecret();
      user.totpSecret = box.seal(secret);
      user.totpLastUsed = '';
      await em.flush();
      lines.push(`otpauth: ${totpFor(secret, user.name).toString()}`, secret);
      return { lines, code: 0 };
    }
    if (action === 'disable') {
      user.totpSecret = '';
      await em.flush();
      return { lines: [`two-factor authentication disabled for '${user.name}'`], code: 0 };
    }
    return { lines: [USAGE], code: 2 };
  }
  if (sub === 'list') {
    for (const u of await em.find(User, { type: 0 }, { orderBy: { id: 'asc' } }))
      lines.push(`${u.id}\t${u.name}\t${u.email}\t${u.isAdmin ? 'admin' : ''}`);
    return { lines, code: 0 };
  }
  return { lines: [USAGE], code: 2 };
}

/**
 * `admin dump`'s arguments with the archive's path made absolute against `cwd` (the command line's
 * directory, which the server that may run the dump does not share); by default Forgejo's name.
 */
export function dumpArgs(argv: readonly string[], cwd: string, now = Date.now()): string[] {
  const { values } = parseArgs({
    args: [...argv],
    options: { file: { type: 'string', short: 'f' }, 'database-format': { type: 'string' } },
    strict: false,
  });
  const file = path.resolve(cwd, typeof values.file === 'string' ? values.file : `cairn-dump-${Math.floor(now / 1000)}.tar.gz`);
  const out = ['--file', file];
  if (typeof values['database-format'] === 'string') out.push('--database-format', values['database-format']);
  return out;
}

async function dump(orm: Orm, cfg: Config, argv: string[]): Promise<Output> {
  const { values } = parseArgs({ args: argv, options: { file: { type: 'string', short: 'f' }, 'database-format': { type: 'string' } } });
  const format = values['database-format'];
  if (!values.file || !path.isAbsolute(values.file)) return { lines: ['--file must name the archive by an absolute path'], code: 2 };
  if (format !== undefined && format !== 'pg_dump' && format !== 'json')
    return { lines: ['--database-format is pg_dump or json'], code: 2 };
  // Loaded by the first dump: a server does not hold the archive code otherwise.
  const { dumpInstance, DumpError } = await import('./lib/maintenance/dump.ts');
  try {
    return { lines: await dumpInstance(orm, cfg, { file: values.file, databaseFormat: format as DatabaseFormat | undefined }), code: 0 };
  } catch (e) {
    if (e instanceof DumpError) return { lines: [e.message], code: 1 };
    throw e;
  }
}
