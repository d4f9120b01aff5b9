// The admin commands of the CLI, run against an open database: by `npm run cli -- admin ...` directly,
// or inside a running server that received them over its admin socket.
import { parseArgs } from 'node:util';
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
import { hostKeyFile, hostKeyFingerprint, readHostKey } from './lib/transport/ssh-host-key.ts';

export interface Output {
  lines: string[];
  code: number;
}

export const USAGE = `usage: npm run cli -- <command>
  serve                         start the HTTP server (npm start)
  migrate                       apply database migrations and exit
  routes [--json]               print the route matrix
  admin user create --username NAME --password PW --email E [--admin] [--must-change-password]
                    [--access-token] [--access-token-name NAME] [--access-token-scopes all]
  admin user 2fa enroll --username NAME     enable TOTP two-factor sign-in; prints the secret
  admin user 2fa disable --username NAME
  admin user list
  admin ssh fingerprint         print the built-in SSH server's host key fingerprint (ssh-keygen -lf)
  migration create <Name>       write a migration for entity changes (maintainers)`;

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
