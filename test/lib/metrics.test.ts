// GET /metrics as Forgejo serves it under [metrics] (lib/runtime/metrics.ts): 404 while off (the
// default); Prometheus's text format when on, with Forgejo's instance gauges counting what the API
// made, per-row request counters labelled by the table's spelling of the row, kept-answer lookups and
// the process's own metrics; with TOKEN set, 401 unless `Authorization: Bearer <TOKEN>`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../config.ts';
import { call } from '../helpers/client.ts';
import { makeRepo, makeUser, uniq } from '../helpers/fixtures.ts';
import { openTestDb, startServer, type TestDb } from '../helpers/server.ts';

let t: TestDb;
test.before(async () => {
  t = await openTestDb();
});
test.after(async () => {
  await t.close();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Prometheus's text exposition format (0.0.4), read strictly: every line is empty, a `# HELP`, a `# TYPE` or a
 * sample `name{label="value",...} number`, and every sample belongs to a family whose TYPE came first.
 */
function parseExposition(text: string): Sample[] {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const lines = text.split('\n');
  assert.is(lines.pop(), '', 'the text ends with a newline');
  for (const line of lines) {
    // The format ignores empty lines (prom-client puts one between families).
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (meta) {
      if (meta[1] === 'TYPE') {
        assert.ok(['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(meta[3]!), line);
        types.set(meta[2]!, meta[3]!);
      }
      continue;
    }
    // Values as Go's ParseFloat reads them, which Prometheus uses: NaN and Inf in any case (prom-client writes `Nan`).
    const m =
      /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? ([-+]?(?:\d+(?:\.\d*)?(?:e[-+]?\d+)?|[nN][aA][nN]|[-+]?[iI][nN][fF]))(?: -?\d+)?$/.exec(
        line,
      );
    assert.ok(m, `not a sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    const body = m![2] ?? '';
    const pair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
    let at = 0;
    for (let p = pair.exec(body); p; p = pair.exec(body)) {
      labels[p[1]!] = p[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      at = pair.lastIndex;
    }
    assert.is(at, body.length, `labels of ${line}`);
    const name = m![1]!;
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count|total|created)$/, '');
    assert.ok(types.has(family) || types.has(name), `sample ${name} has no TYPE`);
    const raw = m![3]!.toLowerCase();
    samples.push({
      name,
      labels,
      value: raw === 'nan' ? Number.NaN : raw.endsWith('inf') ? (raw.startsWith('-') ? -Infinity : Infinity) : Number(raw),
    });
  }
  return samples;
}

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

test('off by default: GET /metrics is 404', async () => {
  const srv = await startServer(t);
  try {
    const r = await call(srv.url, 'GET', '/metrics');
    assert.is(r.status, 404);
  } finally {
    await srv.close();
  }
});

test("on: Prometheus's text format, Forgejo's gauges count what the API made, a row's counter moves", async () => {
  const srv = await startServer(t, {
    METRICS__ENABLED: 'true',
    METRICS__ENABLED_ISSUE_BY_LABEL: 'true',
    METRICS__ENABLED_ISSUE_BY_REPOSITORY: 'true',
  });
  try {
    const first = await call(srv.url, 'GET', '/metrics');
    assert.is(first.status, 200, first.text);
    assert.match(first.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const before = parseExposition(first.text);
    const users0 = value(before, 'gitea_users')!;
    const repos0 = value(before, 'gitea_repositories')!;
    assert.type(users0, 'number');

    const a = await makeUser(t, srv.api);
    const b = await makeUser(t, srv.api);
    const org = uniq('org');
    assert.is((await call(srv.api, 'POST', '/orgs', { token: a.token, body: { username: org } })).status, 201);
    const repo = await makeRepo(srv.api, a, { name: uniq('r') });
    await makeRepo(srv.api, b, { name: uniq('r') });
    const label = await call(srv.api, 'POST', `/repos/${repo.full_name}/labels`, {
      token: a.token,
      body: { name: 'bug', color: '#ee0701' },
    });
    assert.is(label.status, 201, label.text);
    const numbers: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await call(srv.api, 'POST', `/repos/${repo.full_name}/issues`, {
        token: a.token,
        body: { title: `issue ${i}`, labels: [label.json.id] },
      });
      assert.is(r.status, 201, r.text);
      numbers.push(r.json.number);
    }
    const closed = await call(srv.api, 'PATCH', `/repos/${repo.full_name}/issues/${numbers[0]}`, {
      token: a.token,
      body: { state: 'closed' },
    });
    assert.is(closed.status, 201, closed.text);
    assert.is((await call(srv.api, 'PUT', `/user/starred/${repo.full_name}`, { token: b.token })).status, 204);
    // A table row: its counter is labelled with the row's spelling, not with the path asked for.
    for (let i = 0; i < 2; i++)
      assert.is((await call(srv.api, 'GET', `/repos/${repo.full_name}/issues/${numbers[1]}`, { token: a.token })).status, 200);
    assert.is((await call(srv.api, 'GET', '/no/such/route')).status, 404);

    const r = await call(srv.url, 'GET', '/metrics');
    assert.is(r.status, 200);
    const after = parseExposition(r.text);
    assert.is(value(after, 'gitea_users'), users0 + 2);
    assert.is(value(after, 'gitea_organizations'), value(before, 'gitea_organizations')! + 1);
    assert.is(value(after, 'gitea_repositories'), repos0 + 2);
    assert.is(value(after, 'gitea_issues'), value(before, 'gitea_issues')! + 3);
    assert.is(value(after, 'gitea_issues_open'), value(before, 'gitea_issues_open')! + 2);
    assert.is(value(after, 'gitea_issues_closed'), value(before, 'gitea_issues_closed')! + 1);
    assert.is(value(after, 'gitea_labels'), value(before, 'gitea_labels')! + 1);
    assert.is(value(after, 'gitea_stars'), value(before, 'gitea_stars')! + 1);
    assert.is(value(after, 'gitea_issues_by_label', { label: 'bug' }), 3);
    assert.is(value(after, 'gitea_issues_by_repository', { repository: repo.full_name }), 3);
    assert.is(value(after, 'cairn_instance_stats_up'), 1);
    for (const name of [
      'gitea_accesses',
      'gitea_comments',
      'gitea_milestones',
      'gitea_releases',
      'gitea_watches',
      'gitea_webhooks',
      'gitea_hooktasks',
      'gitea_mirrors',
      'gitea_publickeys',
      'gitea_follows',
      'gitea_oauths',
      'gitea_teams',
      'gitea_updatetasks',
      'gitea_projects',
    ])
      assert.type(value(after, name), 'number', name);
    assert.is(value(after, 'gitea_build_info', { goos: process.platform }), 1);

    const row = { method: 'GET', route: '/repos/{username}/{reponame}/issues/{index}' };
    assert.is(value(after, 'cairn_http_requests_total', { ...row, status: '200' }), 2);
    assert.is(value(after, 'cairn_http_request_duration_seconds_count', row), 2);
    assert.ok(value(after, 'cairn_http_request_duration_seconds_bucket', { ...row, le: '+Inf' }) === 2);
    assert.is(
      value(after, 'cairn_http_requests_total', { method: 'POST', route: '/repos/{username}/{reponame}/issues', status: '201' }),
      3,
    );
    assert.ok(value(after, 'cairn_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })! >= 1);
    assert.not.ok(
      after.some((s) => Object.values(s.labels).some((v) => v.includes(repo.full_name) && s.name.startsWith('cairn_http'))),
      'no raw path in a label',
    );
    // The process's own metrics.
    assert.type(value(after, 'process_cpu_user_seconds_total'), 'number');
    assert.type(value(after, 'nodejs_heap_size_used_bytes'), 'number');
  } finally {
    await srv.close();
  }
});

test('kept answers: a lookup that sends the kept answer again is a hit, one that makes it a miss', async () => {
  const srv = await startServer(t, { METRICS__ENABLED: 'true' });
  try {
    const u = await makeUser(t, srv.api);
    const before = parseExposition((await call(srv.url, 'GET', '/metrics')).text);
    const hits0 = value(before, 'cairn_kept_answers_total', { result: 'hit' }) ?? 0;
    const misses0 = value(before, 'cairn_kept_answers_total', { result: 'miss' }) ?? 0;
    for (let i = 0; i < 3; i++) assert.is((await call(srv.api, 'GET', `/users/${u.name}`)).status, 200);
    const after = parseExposition((await call(srv.url, 'GET', '/metrics')).text);
    assert.is(value(after, 'cairn_kept_answers_total', { result: 'miss' }), misses0 + 1);
    assert.is(value(after, 'cairn_kept_answers_total', { result: 'hit' }), hits0 + 2);
    // A kept answer is still its row's answer.
    assert.is(value(after, 'cairn_http_requests_total', { method: 'GET', route: '/users/{username}', status: '200' }), 3);
  } finally {
    await srv.close();
  }
});

test('TOKEN set: 401 without the bearer token or with a wrong one, 200 with it; outside API authentication', async () => {
  const srv = await startServer(t, { METRICS__ENABLED: 'true', METRICS__TOKEN: 'scrape-secret', SERVICE__REQUIRE_SIGNIN_VIEW: 'true' });
  try {
    assert.is((await call(srv.url, 'GET', '/metrics')).status, 401);
    assert.is((await call(srv.url, 'GET', '/metrics', { headers: { Authorization: 'Bearer wrong' } })).status, 401);
    assert.is((await call(srv.url, 'GET', '/metrics', { headers: { Authorization: 'token scrape-secret' } })).status, 401);
    const ok = await call(srv.url, 'GET', '/metrics', { headers: { Authorization: 'Bearer scrape-secret' } });
    assert.is(ok.status, 200, ok.text);
    assert.ok(parseExposition(ok.text).length > 0);
    assert.is(ok.headers.get('x-ratelimit-limit'), null);
  } finally {
    await srv.close();
  }
});

test("the database pool is measured (and its size on PostgreSQL: the embedded database's is one connection)", async () => {
  const srv = await startServer(t, { METRICS__ENABLED: 'true' });
  try {
    const samples = parseExposition((await call(srv.url, 'GET', '/metrics')).text);
    if (t.url) assert.ok(value(samples, 'cairn_db_pool_max')! >= 1);
    assert.type(value(samples, 'cairn_db_pool_connections_used'), 'number');
    assert.type(value(samples, 'cairn_db_pool_pending_acquires'), 'number');
  } finally {
    await srv.close();
  }
});

test("settings: app.ini's [metrics] and CAIRN__METRICS__*, the variable winning", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-metrics-ini-'));
  try {
    const file = path.join(dir, 'app.ini');
    fs.writeFileSync(file, '[metrics]\nENABLED = true\nTOKEN = from-the-file\nENABLED_ISSUE_BY_LABEL = true\n');
    const cfg = loadConfig({}, {}, file);
    assert.is(cfg.METRICS.ENABLED, true);
    assert.is(cfg.METRICS.TOKEN, 'from-the-file');
    assert.is(cfg.METRICS.ENABLED_ISSUE_BY_LABEL, true);
    assert.is(cfg.METRICS.ENABLED_ISSUE_BY_REPOSITORY, false);
    assert.equal(cfg.fileNotices, []);
    assert.is(loadConfig({ CAIRN__METRICS__TOKEN: 'from-env' }, {}, file).METRICS.TOKEN, 'from-env');
    assert.is(loadConfig({}).METRICS.ENABLED, false, 'off by default');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
