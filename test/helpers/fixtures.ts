// Fixtures built through the real stack: users are created like the CLI does, everything else
// through the API.
import type { TestDb } from './server.ts';
import { runAdminCommand } from './admin.ts';
import { call } from './client.ts';

let seq = 0;
export const uniq = (prefix: string) => `${prefix}${process.pid % 1000}x${++seq}`;

export interface TestUser {
  name: string;
  password: string;
  token: string;
  id: number;
}

/** A user with an all-scopes token (`admin: true` for a site admin). */
export async function makeUser(t: TestDb, api: string, opts: { admin?: boolean; name?: string } = {}): Promise<TestUser> {
  const name = opts.name ?? uniq('u');
  const password = 'Passw0rd!x';
  const args = ['user', 'create', '--username', name, '--password', password, '--email', `${name}@example.com`, '--access-token'];
  if (opts.admin) args.push('--admin');
  const out = await runAdminCommand(t, args);
  const token = out.lines[out.lines.length - 1];
  const me = await call(api, 'GET', '/user', { token });
  if (me.status !== 200) throw new Error(`fixture user ${name}: GET /user answered ${me.status}`);
  return { name, password, token, id: me.json.id };
}

export async function makeToken(api: string, u: TestUser, scopes: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const r = await call(api, 'POST', `/users/${u.name}/tokens`, {
    basic: [u.name, u.password],
    body: { name: uniq('tok'), scopes, ...extra },
  });
  if (r.status !== 201) throw new Error(`token for ${u.name}: ${r.status} ${r.text}`);
  return r.json.sha1;
}

export async function makeRepo(api: string, u: TestUser, body: Record<string, unknown>): Promise<any> {
  const r = await call(api, 'POST', '/user/repos', { token: u.token, body });
  if (r.status !== 201) throw new Error(`repo ${String(body.name)}: ${r.status} ${r.text}`);
  return r.json;
}
