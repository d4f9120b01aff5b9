// Shared set-up of the repository-record tests: a real server and database, users, and checks that
// every JSON answer matches its schema (errors included).
import fs from 'node:fs';
import * as assert from 'uvu/assert';
import { ApiSchemas, validateResponse, type ApiSchemaName } from '../../model/schemas/index.ts';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call, type Call, type Res } from '../helpers/client.ts';
import { makeUser, uniq, type TestUser } from '../helpers/fixtures.ts';

export interface Env {
  db: TestDb;
  srv: TestServer;
  admin: TestUser;
  alice: TestUser;
  bob: TestUser;
  carol: TestUser;
  api(method: string, path: string, o?: Call): Promise<Res>;
  as(u: TestUser | string | undefined, method: string, path: string, body?: unknown): Promise<Res>;
  close(): Promise<void>;
}

export function valid(name: ApiSchemaName, value: unknown): void {
  const r = validateResponse(ApiSchemas[name], value);
  assert.ok(r.ok, `${name}: ${JSON.stringify(r)} ${JSON.stringify(value).slice(0, 400)}`);
}

export function validList(name: ApiSchemaName, res: Res): void {
  assert.ok(Array.isArray(res.json), res.text);
  for (const v of res.json) valid(name, v);
}

const ERROR_SCHEMA: Record<number, ApiSchemaName> = {
  401: 'APIUnauthorizedError',
  403: 'APIForbiddenError',
  404: 'APINotFound',
  422: 'APIValidationError',
  423: 'APIRepoArchivedError',
};

/** Error answers are JSON too, each checked against its error schema and carrying a message. */
export function checked(r: Res): Res {
  if (r.status >= 400 && r.json !== null) {
    if (!(r.status === 422 && r.json && 'invalidTopics' in r.json)) valid(ERROR_SCHEMA[r.status] ?? 'APIError', r.json);
    assert.type(r.json?.message, 'string', r.text);
  }
  return r;
}

export async function setup(overrides: Record<string, string> = {}): Promise<Env> {
  const db = await openTestDb();
  const srv = await startServer(db, overrides);
  const env: Env = {
    db,
    srv,
    admin: await makeUser(db, srv.api, { admin: true }),
    alice: await makeUser(db, srv.api),
    bob: await makeUser(db, srv.api),
    carol: await makeUser(db, srv.api),
    api: async (method, p, o = {}) => checked(await call(srv.api, method, p, o)),
    as: (u, method, p, body) => env.api(method, p, { token: typeof u === 'string' ? u : u?.token, body }),
    close: async () => {
      await srv.close();
      await db.close();
    },
  };
  return env;
}

export async function newRepo(env: Env, u: TestUser, body: Record<string, unknown> = {}) {
  const r = await env.as(u, 'POST', '/user/repos', { name: uniq('r'), ...body });
  assert.is(r.status, 201, r.text);
  valid('Repository', r.json);
  return r.json as { id: number; name: string; full_name: string; owner: { login: string }; default_branch: string; [k: string]: unknown };
}

export async function newOrg(env: Env, u: TestUser, extra: Record<string, unknown> = {}) {
  const r = await env.as(u, 'POST', '/orgs', { username: uniq('org'), ...extra });
  assert.is(r.status, 201, r.text);
  return r.json as { id: number; name: string };
}

/** The bare repository directory of owner/name under the test data path. */
export const gitDir = (env: Env, owner: string, name: string) =>
  `${env.srv.config.repoRoot}/${owner.toLowerCase()}/${name.toLowerCase()}.git`;
export const exists = (p: string) => fs.existsSync(p);
export { uniq };
