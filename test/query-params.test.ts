// Query parameters are data. The parser reads a row's declaration the way Forgejo's
// form helpers read the query (lenient where they are, an error where Forgejo answers one), the API
// description lists every declared parameter, and no handler parses the query by hand any more.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseQuery } from '../lib/http/query-params.ts';
import { QuerySchemas } from '../model/schemas/query.ts';
import { routes as table } from '../routes.table.ts';
import type { RouteSpec } from '../table/route-spec.ts';
import { openApiDocument } from '../table/openapi.ts';
import { loadConfig } from '../config.ts';

const routes: readonly RouteSpec[] = table;
const parse = (name: keyof typeof QuerySchemas, qs: string) => parseQuery(QuerySchemas[name], new URLSearchParams(qs));

test("integers read as Go's Atoi: garbage is 0, absent is the default, unknown names are ignored", () => {
  assert.equal(parse('Paged', 'page=abc&limit=0&bogus=1').value, { page: 0, limit: 0 });
  assert.equal(parse('Paged', '').value, { page: 1, limit: undefined });
  assert.equal(parse('Paged', 'page=3&limit=9999').value, { page: 3, limit: 9999 });
  assert.is(parse('Paged', 'page=abc').deny, null);
});

test('booleans read as FormBool (default when absent) or FormOptionalBool', () => {
  assert.is(parse('CommitFlags', '').value.stat, true);
  assert.is(parse('CommitFlags', 'stat=False').value.stat, false);
  assert.is(parse('CommitFlags', 'stat=maybe').value.stat, false);
  assert.is(parse('Releases', 'draft=maybe').value.draft, undefined);
  assert.is(parse('Releases', 'draft=0').value.draft, false);
  assert.is(parse('Releases', 'draft=T').value.draft, true);
});

test("enums: an unknown value is the default, or Forgejo's 422 where it answers one", () => {
  assert.is(parse('IssueList', 'state=bogus').value.state, 'open');
  assert.is(parse('IssueList', 'state=all').value.state, 'all');
  assert.equal(parse('MyRepos', 'order_by=sideways').deny, { status: 422, message: 'Invalid order_by: "sideways"' });
  assert.equal(parse('RepoSearch', 'mode=weird').deny, { status: 422, message: 'Invalid search mode: "weird"' });
  // `order` is only checked together with `sort`, by the handler.
  assert.is(parse('RepoSearch', 'order=up').deny, null);
});

test('lists: repeated values, comma lists where declared, items checked where Forgejo does', () => {
  assert.equal(parse('Notifications', 'status-types=unread&status-types=pinned').value['status-types'], ['unread', 'pinned']);
  assert.equal(parse('Pulls', 'labels=1,2&labels=3').value.labels, ['1', '2', '3']);
  assert.equal(parse('Runs', 'status=running&status=nope').deny, { status: 400, message: 'unknown status: nope' });
});

test("times: RFC 3339 or Go's parse error (422, or 400 for last_read_at)", () => {
  const ok = parse('Comments', 'since=2024-01-02T03:04:05Z');
  assert.ok(ok.value.since instanceof Date);
  assert.is(ok.deny, null);
  assert.equal(parse('Comments', 'since=yesterday').deny, {
    status: 422,
    message: 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
  });
  assert.is(parse('NotificationsRead', 'last_read_at=x').deny?.status, 400);
});

test('every row names a declared schema, and the API description lists each of its parameters', () => {
  const doc = openApiDocument(routes, loadConfig({}, {})) as {
    paths: Record<string, Record<string, { parameters: { name: string; in: string }[] }>>;
  };
  let checked = 0;
  for (const r of routes) {
    if (!r.query) continue;
    assert.ok(Object.hasOwn(QuerySchemas, r.query), `${r.method} ${r.path}: ${r.query}`);
    const op = doc.paths[r.path.replace(/\*$/, '{path}')][r.method.toLowerCase()];
    const documented = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    assert.equal(documented, Object.keys(parse(r.query, '').value), `${r.method} ${r.path}`);
    checked++;
  }
  assert.ok(checked > 100);
});

test("representative operations carry Forgejo's query parameter names", () => {
  const names = (method: string, p: string) => {
    const r = routes.find((x) => x.method === method && x.path === p)!;
    return Object.keys(parse(r.query!, '').value).sort();
  };
  assert.equal(names('GET', '/repos/{username}/{reponame}/issues'), [
    'assigned_by',
    'before',
    'created_by',
    'labels',
    'limit',
    'mentioned_by',
    'milestones',
    'page',
    'q',
    'since',
    'sort',
    'state',
    'type',
  ]);
  assert.equal(names('GET', '/repos/{username}/{reponame}/pulls'), [
    'base',
    'head',
    'labels',
    'limit',
    'milestone',
    'page',
    'poster',
    'sort',
    'state',
  ]);
  assert.equal(names('GET', '/notifications'), ['all', 'before', 'limit', 'page', 'since', 'status-types', 'subject-type']);
  assert.equal(names('GET', '/user/repos'), ['limit', 'order_by', 'page']);
});

// Hand parses of the query left in application code. It can only shrink: authentication reads
// `token`, `access_token` and `sudo` before any row is chosen; the parser itself reads the rest.
const ALLOWED = ['lib/auth/auth.ts', 'lib/http/query-params.ts'];
test('no handler, guard or lib module parses the query by hand', () => {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const found: string[] = [];
  for (const dir of ['handlers', 'guards', 'lib']) {
    for (const f of fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })) {
      if (!f.endsWith('.ts') || ALLOWED.includes(`${dir}/${f}`)) continue;
      const text = fs.readFileSync(path.join(root, dir, f), 'utf8');
      if (/\bquery\.(get|getAll|has)\(/.test(text)) found.push(`${dir}/${f}`);
    }
  }
  assert.equal(found, []);
});

test.run();
