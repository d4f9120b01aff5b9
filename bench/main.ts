// `npm run bench`: cairn in its own process on a database of its own, driven by a load
// generator in another process, against two ceilings measured in the same run: A, a bare Koa 3 +
// @koa/router app answering the same repository object, and B, the same app with one primary-key
// lookup per request. Loopback only; every process is stopped and the database and data directory
// removed at the end, and the run stops itself past a time limit.
//
//   npm run bench -- [--db postgres|pglite] [--quick] [--only name,...] [--profile [name]] [--no-kept]
//
// PostgreSQL is the server of CAIRN__DATABASE__URL (default postgresql://postgres@127.0.0.1:5432/test),
// where the run creates and drops its own database. Results: a Markdown table on stdout and in
// bench/results/<time>.md, the same figures in <time>.json, the processes' output in <time>.log.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runGit } from '../git/exec.ts';
import { api, startCairn, type Cairn, type CairnSetup } from './cairn.ts';
import { DEFAULT_BASE_URL, createDatabase, openSql, type BenchDatabase, type Sql } from './database.ts';
import { basicAuth, makeHistory, median, push, timeClones, timePushes, type Timing } from './git-ops.ts';
import { runLoad, specOf, type LoadResult, type Target } from './load.ts';
import { parseOptions, wants, type Options, type RouteName } from './options.ts';
import { NODE, ROOT, freePort, memoryMB, runToEnd, start, stopAll, waitFor200, childEnv } from './procs.ts';
import { markdown } from './report.ts';
import type { CeilingRun, GitTiming, ListScaling, Pair, RouteResult, RunResult } from './results.ts';
import { count, fillIssues, fillRepositories, type Copied } from './seed-rows.ts';
import { OWNER, seedThroughApi, type Seeded } from './seed.ts';
import { fillScale, vocabularyWord } from './seed-scale.ts';
import { createUser } from './cairn.ts';
import { summarise, summaryMarkdown, type CpuProfile } from './profile-summary.ts';
import { judge } from './targets.ts';
import { measureMixed, mixedMarkdown, seedMixed, WRITE_RATES, type MixedRow } from './mixed.ts';

const ISSUES = 10_000;
const ISSUES_SMALL = 100;
const REPOS = 1_000;
const REPOS_SMALL = 100;
const REPOS_LARGE = 10_000;

const RESULTS = path.join(ROOT, 'bench', 'results');
const t0 = Date.now();
const say = (s: string) => process.stderr.write(`bench [${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${s}\n`);

interface Run {
  opt: Options;
  setup: CairnSetup;
  cairn: Cairn;
  seeded: Seeded;
  work: string;
}

/** Runs `fn` on cairn's database. The embedded database is one process's alone: cairn stops meanwhile. */
async function withSql<T>(run: Run, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const embedded = !run.setup.dbUrl;
  if (embedded) await run.cairn.proc.stop();
  const sql = await openSql(run.setup.dbUrl, run.setup.dataPath);
  try {
    return await fn(sql);
  } finally {
    await sql.close();
    if (embedded) run.cairn = await startCairn(run.setup);
  }
}

/** Checks a target answers as expected before it is loaded, so a wrong URL fails loudly, not as a fast 404. */
async function check(t: Target, expect: number): Promise<void> {
  const headers: Record<string, string> = t.token ? { Authorization: `token ${t.token}` } : {};
  if (t.body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(t.url, { method: t.method, headers, body: t.body === undefined ? undefined : JSON.stringify(t.body) });
  const text = await r.text();
  if (r.status !== expect) throw new Error(`${t.method} ${t.url}: ${r.status} ${text.slice(0, 300)}`);
}

async function load(opt: Options, label: string, t: Target, connections: number, probe: Target): Promise<LoadResult> {
  const r = await runLoad(specOf(t, connections, opt.warmup, opt.window));
  await settle(probe);
  const bad = r.non2xx + r.errors + r.timeouts;
  // A window with no 2xx answer is reported as such (the route was checked to answer just before).
  const figures = r.ok ? `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms` : 'no 2xx answer';
  say(
    `${label} @${connections}: ${figures}${bad ? `; statuses ${JSON.stringify(r.statuses)}, ${r.errors} errors, ${r.timeouts} timeouts` : ''}`,
  );
  return r;
}

/**
 * Waits until the server has worked off what the last window left queued: when the load generator
 * stops, the requests it had in flight are still being served, and would slow the next window.
 * Two sequential probes through the same queues (event loop, database pool) come back after them.
 */
async function settle(probe: Target): Promise<void> {
  for (let i = 0; i < 2; i++) await check(probe, 200);
}

async function pair(opt: Options, label: string, t: Target, probe: Target): Promise<Pair> {
  return { c64: await load(opt, label, t, 64, probe), c1: await load(opt, label, t, 1, probe) };
}

function routeTargets(run: Run): { name: RouteName; label: string; target: Target; expect: number }[] {
  const { api: base } = run.cairn;
  const R = `${base}/repos/${OWNER}`;
  const token = run.seeded.token;
  const pid = run.cairn.proc.pid;
  const writes = run.seeded.issues.writes.number;
  return [
    { name: 'repo-token', label: '`GET {R}` token', target: { url: `${R}/demo`, method: 'GET', token, pid }, expect: 200 },
    { name: 'repo-anon', label: '`GET {R}` anonymous', target: { url: `${R}/demo`, method: 'GET', token: null, pid }, expect: 200 },
    { name: 'user', label: '`GET /user`', target: { url: `${base}/user`, method: 'GET', token, pid }, expect: 200 },
    {
      name: 'contents',
      label: '`GET {R}/contents/README.md`',
      target: { url: `${R}/demo/contents/README.md`, method: 'GET', token, pid },
      expect: 200,
    },
    {
      name: 'commits',
      label: '`GET {R}/commits?limit=30`',
      target: { url: `${R}/big/commits?limit=30`, method: 'GET', token, pid },
      expect: 200,
    },
    {
      name: 'issues',
      label: '`GET {R}/issues?state=open` page 1',
      target: { url: `${R}/issues10k/issues?state=open&page=1`, method: 'GET', token, pid },
      expect: 200,
    },
    {
      name: 'search',
      label: '`GET /repos/search?limit=50`',
      target: { url: `${base}/repos/search?limit=50`, method: 'GET', token, pid },
      expect: 200,
    },
    {
      name: 'post-issue',
      label: '`POST {R}/issues`',
      target: { url: `${R}/writes/issues`, method: 'POST', token, body: { title: 'An issue of the benchmark' }, pid },
      expect: 201,
    },
    {
      name: 'post-comment',
      label: '`POST {R}/issues/{index}/comments`',
      target: { url: `${R}/writes/issues/${writes}/comments`, method: 'POST', token, body: { body: 'A comment of the benchmark.' }, pid },
      expect: 201,
    },
  ];
}

/**
 * What `settle` sends to cairn: a read with the token that goes through the database pool (a row whose
 * answer is never kept, lib/http/answer-cache.ts: `GET {R}` itself would be answered from a kept answer).
 */
const cairnProbe = (run: Run): Target => ({ url: `${run.cairn.api}/repos/${OWNER}/demo/topics`, method: 'GET', token: run.seeded.token });
const searchTarget = (run: Run): Target => ({ url: `${run.cairn.api}/repos/search?limit=50`, method: 'GET', token: run.seeded.token });
const issuesTarget = (run: Run, repo: string): Target => ({
  url: `${run.cairn.api}/repos/${OWNER}/${repo}/issues?state=open&page=1`,
  method: 'GET',
  token: run.seeded.token,
});

async function p50At1(run: Run, label: string, t: Target): Promise<number> {
  await check(t, 200);
  return (await load(run.opt, label, t, 1, cairnProbe(run))).p50;
}

/** Ceiling A and B as their own processes, answering the repository object cairn answered. */
async function startCeilings(run: Run, bodyFile: string): Promise<{ a: Target; b: Target; stop: () => Promise<void> }> {
  const log = path.join(run.work, 'ceilings.log');
  const [pa, pb] = [await freePort(), await freePort()];
  const env = childEnv({});
  const lookup = run.setup.dbUrl ? ['--pg', run.setup.dbUrl, String(run.seeded.repos.demo)] : ['--pglite'];
  const a = start('ceiling A', [NODE, '--import', 'tsx', 'bench/ceiling-a.ts', String(pa), bodyFile], { env, log });
  const b = start('ceiling B', [NODE, '--import', 'tsx', 'bench/ceiling-b.ts', String(pb), bodyFile, ...lookup], { env, log });
  const path_ = `/api/v1/repos/${OWNER}/demo`;
  await waitFor200(`http://127.0.0.1:${pa}${path_}`, a, performance.now());
  await waitFor200(`http://127.0.0.1:${pb}${path_}`, b, performance.now());
  return {
    a: { url: `http://127.0.0.1:${pa}${path_}`, method: 'GET', token: null, pid: a.pid },
    b: { url: `http://127.0.0.1:${pb}${path_}`, method: 'GET', token: null, pid: b.pid },
    stop: async () => {
      await a.stop();
      await b.stop();
    },
  };
}

const timing = (t: Timing): GitTiming => ({ ...t, httpMedian: median(t.http), diskMedian: median(t.disk) });

async function suite(run: Run, result: Omit<RunResult, 'targets' | 'finishedAt'>): Promise<void> {
  const { opt } = run;
  const copied: Copied = result.data.copied;
  const add = (c: Copied) => {
    for (const [k, v] of Object.entries(c)) copied[k] = (copied[k] ?? 0) + v;
  };

  say(`filling issues (${ISSUES_SMALL}, ${ISSUES}) and repositories (${REPOS_SMALL}) with SQL copies of API-made rows`);
  await withSql(run, async (sql) => {
    add(await fillIssues(sql, run.seeded.repos.issues100, run.seeded.issues.issues100.id, ISSUES_SMALL));
    add(await fillIssues(sql, run.seeded.repos.issues10k, run.seeded.issues.issues10k.id, ISSUES));
    add(await fillRepositories(sql, run.seeded.repos.tmpl, REPOS_SMALL));
    if ((await count(sql, 'repository')) !== REPOS_SMALL) throw new Error('repository count');
  });
  let issuesSmall = NaN;
  let searchSmall = NaN;
  if (wants(opt, 'lists')) {
    issuesSmall = await p50At1(run, `issues (${ISSUES_SMALL})`, issuesTarget(run, 'issues100'));
    searchSmall = await p50At1(run, `search (${REPOS_SMALL} repositories)`, searchTarget(run));
  }

  say(`filling repositories up to ${REPOS}`);
  await withSql(run, async (sql) => {
    add(await fillRepositories(sql, run.seeded.repos.tmpl, REPOS));
  });
  // A fresh process serves the load: its memory at rest, and its start on a seeded database. (On the
  // embedded database withSql has just started one.)
  if (run.setup.dbUrl) {
    await run.cairn.proc.stop();
    run.cairn = await startCairn(run.setup);
  }
  result.startup.withDataMs = run.cairn.startupMs;
  await new Promise((r) => setTimeout(r, 2_000));
  result.memory.idle = memoryMB(run.cairn.proc.pid);

  const bodyFile = path.join(run.work, 'repo.json');
  const body = await api(run.cairn.api, 'GET', `/repos/${OWNER}/demo`, run.seeded.token);
  fs.writeFileSync(bodyFile, JSON.stringify(body));
  result.data.repoBodyBytes = Buffer.byteLength(JSON.stringify(body));
  const ceilings = await startCeilings(run, bodyFile);
  const measureCeilings = async (when: CeilingRun['when']) => {
    result.ceilings.A.push({ when, ...(await pair(opt, `ceiling A (${when})`, ceilings.a, ceilings.a)) });
    result.ceilings.B.push({ when, ...(await pair(opt, `ceiling B (${when})`, ceilings.b, ceilings.b)) });
  };
  await measureCeilings('before');
  for (const r of routeTargets(run)) {
    if (!wants(opt, r.name)) continue;
    await check(r.target, r.expect);
    const measured: RouteResult = { name: r.name, label: r.label, ...(await pair(opt, r.name, r.target, cairnProbe(run))) };
    result.routes.push(measured);
  }
  if (opt.ceilingsAfter) await measureCeilings('after');
  await ceilings.stop();
  result.memory.afterLoad = memoryMB(run.cairn.proc.pid);

  if (wants(opt, 'lists')) {
    say(`filling repositories up to ${REPOS_LARGE}`);
    await withSql(run, async (sql) => {
      add(await fillRepositories(sql, run.seeded.repos.tmpl, REPOS_LARGE));
    });
    const issues =
      result.routes.find((r) => r.name === 'issues')?.c1.p50 ?? (await p50At1(run, `issues (${ISSUES})`, issuesTarget(run, 'issues10k')));
    const searchLarge = await p50At1(run, `search (${REPOS_LARGE} repositories)`, searchTarget(run));
    const lists: ListScaling[] = [
      { list: '`GET {R}/issues?state=open` page 1', small: { rows: ISSUES_SMALL, p50: issuesSmall }, large: { rows: ISSUES, p50: issues } },
      {
        list: '`GET /repos/search?limit=50`',
        small: { rows: REPOS_SMALL, p50: searchSmall },
        large: { rows: REPOS_LARGE, p50: searchLarge },
      },
    ];
    result.lists.push(...lists);
  }

  if (wants(opt, 'git')) {
    say(`git: ${opt.gitRuns} clone(s) and push(es) of ${opt.commits} commits, over HTTP and from disk`);
    const disk = path.join(run.setup.dataPath, 'forgejo-repositories', OWNER, 'big.git');
    if (!fs.existsSync(disk)) throw new Error(`no repository at ${disk}`);
    result.git.clone = timing(await timeClones(run.work, `${run.cairn.url}/${OWNER}/big.git`, disk, opt.gitRuns));
    const targets: string[] = [];
    for (let i = 1; i <= opt.gitRuns; i++) {
      await api(run.cairn.api, 'POST', '/user/repos', run.seeded.token, { name: `push${i}` });
      targets.push(`${run.cairn.url}/${OWNER}/push${i}.git`);
    }
    result.git.push = timing(await timePushes(run.work, path.join(run.work, 'src.git'), targets, basicAuth(OWNER, run.seeded.token)));
  }
}

/**
 * `--profile [name]`: cairn under --cpu-prof, the load of one route (`GET {R}` with a token by default) on
 * the data a full run measures it on, then the summary of the profile.
 */
async function profile(run: Run, stamp: string, route: RouteName): Promise<string> {
  const dir = path.join(RESULTS, 'prof');
  const name = `${stamp}.cpuprofile`;
  await fillRouteData(run);
  await run.cairn.proc.stop();
  const spawned = performance.now();
  run.cairn = await startCairn(run.setup, ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-name', name]);
  const loadStart = performance.now() - spawned;
  const t = routeTargets(run).find((r) => r.name === route)!;
  await check(t.target, t.expect);
  const r = await load(run.opt, `${route} (profiled)`, t.target, 64, cairnProbe(run));
  await run.cairn.proc.stop();
  const file = path.join(dir, name);
  const summary = summarise(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, { skipMs: loadStart, top: 15 });
  return [
    `# cairn profile ${stamp}`,
    '',
    `${t.label}, 64 connections, ${run.opt.warmup} s + ${run.opt.window} s: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms (slower than unprofiled).`,
    `Profile: ${path.relative(ROOT, file)}; samples of the server's start (${loadStart.toFixed(0)} ms) left out.`,
    '',
    summaryMarkdown(summary),
  ].join('\n');
}

/**
 * `--scale <issues>`: p50 at one connection of the lists and keyword searches with 10,000 issues in one
 * repository and 10,000 repositories, then with `<issues>` more issues (bench/seed-scale.ts), as a
 * Markdown table on stdout and in bench/results/<time>-scale.md.
 */
async function scale(run: Run, stamp: string, issues: number): Promise<string> {
  const { api: base } = run.cairn;
  const token = run.seeded.token;
  const R = `${base}/repos/${OWNER}`;
  const otherToken = await createUser(run.setup, 'other', false);
  const other = await api<{ id: number; login: string }>(base, 'GET', '/user', otherToken);
  const comment = await api<{ id: number }>(base, 'POST', `/repos/${OWNER}/issues100/issues/1/comments`, token, { body: 'A comment.' });
  say(`filling issues (${ISSUES}) and repositories (${REPOS_LARGE}) with SQL copies of API-made rows`);
  let w = '';
  await withSql(run, async (sql) => {
    await fillIssues(sql, run.seeded.repos.issues10k, run.seeded.issues.issues10k.id, ISSUES);
    await fillRepositories(sql, run.seeded.repos.tmpl, REPOS_LARGE);
    w = await vocabularyWord(sql, 42);
  });
  const get = (url: string): Target => ({ url, method: 'GET', token, pid: run.cairn.proc.pid });
  const targets: [string, string][] = [
    ['`GET {R}/issues?state=open` page 1 (10,000 issues in R)', `${R}/issues10k/issues?state=open&page=1`],
    ['`GET {R}/issues?state=open&q=<word>` (10,000 issues in R)', `${R}/issues10k/issues?state=open&q=${w}`],
    ['`GET {R}/issues?state=open&q=<word>` (100 issues in R)', `${R}/seed00001/issues?state=open&q=${w}`],
    ['`GET /repos/issues/search`', `${base}/repos/issues/search`],
    ['`GET /repos/issues/search?q=<word>`', `${base}/repos/issues/search?q=${w}`],
    ['`GET /repos/search?limit=50`', `${base}/repos/search?limit=50`],
    ['`GET /repos/search?q=<name part>&limit=50`', `${base}/repos/search?q=seed00004&limit=50`],
    ['`GET /repos/search?q=<word>&limit=50`', `${base}/repos/search?q=${w}&limit=50`],
    ['`GET /users/search?q=<word>`', `${base}/users/search?q=${w}`],
    ['`GET /users/search?q=oth`', `${base}/users/search?q=oth`],
  ];
  const measure = async (when: string): Promise<Map<string, number>> => {
    if (run.setup.dbUrl) {
      await run.cairn.proc.stop();
      run.cairn = await startCairn(run.setup);
    }
    const out = new Map<string, number>();
    for (const [label, url] of targets) {
      // The repository with 100 issues exists only at size.
      if (url.includes('/seed00001/') && when === 'base') continue;
      out.set(label, await p50At1(run, `${label} (${when})`, get(url.replace(base, run.cairn.api))));
    }
    return out;
  };
  const small = await measure('base');
  say(`filling to ${issues} issues by SQL`);
  await withSql(run, async (sql) => {
    await fillScale(
      sql,
      {
        templateRepoId: run.seeded.repos.tmpl,
        templateIssueId: run.seeded.issues.issues100.id,
        templateCommentId: comment.id,
        otherId: other.id,
        otherName: other.login,
      },
      issues,
      say,
    );
  });
  const large = await measure('scale');
  const fmt = (v: number | undefined) => (v === undefined ? '' : `${v.toFixed(1)} ms`);
  return [
    `# cairn at scale ${stamp}`,
    '',
    `p50 at 1 connection (${run.opt.window} s windows), as the bench user, who sees about 1,000 repositories at size; <word> is \`${w}\`,`,
    `a word of the seeded vocabulary. Base: ${ISSUES.toLocaleString('en')} issues in one repository, ${REPOS_LARGE.toLocaleString('en')} repositories.`,
    `At size: ${issues.toLocaleString('en')} more issues (3 comments each) over ${(issues / 100).toLocaleString('en')} repositories, ${(issues / 10).toLocaleString('en')} repositories more in all.`,
    '',
    '| request | base | at size |',
    '|---|---:|---:|',
    ...targets.map(([label]) => `| ${label} | ${fmt(small.get(label))} | ${fmt(large.get(label))} |`),
    '',
  ].join('\n');
}

/** `--mixed`: reads while a writer writes (bench/mixed.ts), kept answers on and then off; the Markdown. */
async function mixed(run: Run, stamp: string, uptimeBefore: string, uptime: () => Promise<string>): Promise<string> {
  say(`filling repositories (${REPOS}) with SQL copies of an API-made one`);
  let names: string[] = [];
  await withSql(run, async (sql) => {
    await fillRepositories(sql, run.seeded.repos.tmpl, REPOS);
    names = (
      await sql.query<{ name: string }>("select name from repository where owner_name = $1 and lower_name like 'seed%' order by id", [
        OWNER,
      ])
    ).map((r) => r.name);
  });
  say(`${names.length} repositories; users, tokens, private repositories and collaborators through the API`);
  const world = await seedMixed(run.cairn.api, OWNER, run.seeded.token, run.seeded.adminToken, names);
  const bodyFile = path.join(run.work, 'repo.json');
  fs.writeFileSync(bodyFile, JSON.stringify(await api(run.cairn.api, 'GET', `/repos/${OWNER}/demo`, run.seeded.token)));
  const ceilings = await startCeilings(run, bodyFile);
  const ceilingA = await load(run.opt, 'ceiling A', ceilings.a, 64, ceilings.a);
  await ceilings.stop();
  const rows: MixedRow[] = [];
  for (const kept of run.opt.kept ? [true, false] : [false]) {
    if (run.setup.kept !== kept) {
      await run.cairn.proc.stop();
      run.setup = { ...run.setup, kept };
      run.cairn = await startCairn(run.setup);
    }
    for (const rate of WRITE_RATES) {
      const m = await measureMixed(run.cairn.api, OWNER, run.seeded.token, world, rate, run.opt.warmup, run.opt.window);
      say(
        `mixed, kept ${kept ? 'on' : 'off'}, ${rate} writes/s (${m.writes.perSecond.toFixed(0)} made): reads ${m.reads.rps.toFixed(0)} req/s, p50 ${m.reads.p50.toFixed(2)} ms, p99 ${m.reads.p99.toFixed(2)} ms, kept ${
          m.reads.keptShare === null ? '–' : (m.reads.keptShare * 100).toFixed(0)
        } %; writes p50 ${m.writes.p50?.toFixed(1)} ms, p99 ${m.writes.p99?.toFixed(1)} ms; ${JSON.stringify(m.reads.statuses)} ${JSON.stringify(m.writes.statuses)}`,
      );
      rows.push({ kept, rate, ...m });
    }
  }
  return mixedMarkdown(rows, { stamp, uptimeBefore, uptimeAfter: await uptime(), ceilingA: ceilingA.rps, window: run.opt.window });
}

/** The routes' data as a full run measures them: the issue list's 10,000 issues and the 1,000 repositories search reads. */
async function fillRouteData(run: Run): Promise<void> {
  say(`filling issues (${ISSUES}) and repositories (${REPOS}) with SQL copies of API-made rows`);
  await withSql(run, async (sql) => {
    await fillIssues(sql, run.seeded.repos.issues10k, run.seeded.issues.issues10k.id, ISSUES);
    await fillRepositories(sql, run.seeded.repos.tmpl, REPOS);
  });
}

/** `--hold`: the routes' data as a full run has it, then cairn serves until the run is interrupted. */
async function hold(run: Run): Promise<void> {
  await fillRouteData(run);
  const targets = Object.fromEntries(
    routeTargets(run).map((r) => [r.name, { method: r.target.method, url: r.target.url, body: r.target.body, token: r.target.token }]),
  );
  process.stdout.write(
    `${JSON.stringify({ pid: run.cairn.proc.pid, api: run.cairn.api, token: run.seeded.token, database: run.setup.dbUrl || run.setup.dataPath, log: run.setup.log, targets })}\n`,
  );
  say('holding: cairn serves until this run is interrupted (Ctrl-C stops it and removes its database)');
  await new Promise(() => undefined);
}

async function main(): Promise<void> {
  let opt: Options;
  try {
    opt = parseOptions(process.argv.slice(2));
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  }
  const startedAt = new Date();
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS, { recursive: true });
  const uptime = async () => (await runToEnd(['uptime'], { env: childEnv({}), timeoutMs: 5_000 })).trim();
  const uptimeBefore = await uptime();
  say(`uptime before: ${uptimeBefore}`);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-'));
  const dataPath = path.join(work, 'data');
  let db: BenchDatabase = { url: '', drop: async () => undefined };
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await stopAll();
      await db.drop().catch((e: unknown) => say(`dropping the database: ${String(e)}`));
      fs.rmSync(work, { recursive: true, force: true });
    })());
  const limit = setTimeout(() => {
    say(`stopped: past the limit of ${opt.limitMinutes} minutes`);
    void cleanup().finally(() => process.exit(3));
  }, opt.limitMinutes * 60_000);
  process.once('SIGINT', () => {
    void cleanup().finally(() => process.exit(130));
  });

  try {
    if (opt.db === 'postgres') db = await createDatabase(process.env.CAIRN__DATABASE__URL || DEFAULT_BASE_URL);
    // At scale every figure is of the uncached path: one URL asked again and again would be a kept answer.
    const setup: CairnSetup = {
      dataPath,
      dbUrl: db.url,
      port: await freePort(),
      log: path.join(RESULTS, `${stamp}.log`),
      kept: opt.kept && opt.scale === null,
      workers: opt.workers,
      metrics: opt.mixed,
    };
    say(`starting cairn (${opt.db}) on port ${setup.port}; logs in ${path.relative(ROOT, setup.log)}`);
    const cairn = await startCairn(setup);
    say(`first 200 after ${cairn.startupMs.toFixed(0)} ms; seeding through the CLI and the API`);
    const seeded = await seedThroughApi(setup, cairn.api);
    const run: Run = { opt, setup, cairn, seeded, work };

    if (opt.scale !== null) {
      const md = await scale(run, stamp, opt.scale);
      fs.writeFileSync(path.join(RESULTS, `${stamp}-scale.md`), md);
      process.stdout.write(md);
      // With --hold, the seeded instance stays up to look into by hand.
      if (opt.hold) {
        process.stdout.write(
          `${JSON.stringify({ pid: run.cairn.proc.pid, api: run.cairn.api, token: run.seeded.token, database: run.setup.dbUrl })}\n`,
        );
        await new Promise(() => undefined);
      }
      return;
    }

    if (opt.mixed) {
      const md = await mixed(run, stamp, uptimeBefore, uptime);
      fs.writeFileSync(path.join(RESULTS, `${stamp}-mixed.md`), md);
      process.stdout.write(md);
      return;
    }

    if (opt.profile === null || opt.profile === 'commits' || opt.hold) {
      say(`building ${opt.commits} commits with git fast-import and pushing them over HTTP`);
      const src = path.join(work, 'src.git');
      await makeHistory(src, opt.commits);
      await push(src, `${cairn.url}/${OWNER}/big.git`, basicAuth(OWNER, seeded.token));
    }

    if (opt.hold) {
      await hold(run);
      return;
    }

    if (opt.profile !== null) {
      const md = await profile(run, stamp, opt.profile);
      fs.writeFileSync(path.join(RESULTS, `${stamp}-profile.md`), md);
      process.stdout.write(md);
      return;
    }

    const result: Omit<RunResult, 'targets' | 'finishedAt'> = {
      startedAt: startedAt.toISOString(),
      options: opt,
      machine: {
        node: process.version,
        git: (await runGit(null, ['version'])).stdout.toString().trim(),
        cpus: os.cpus().length,
        commit: (await runGit(null, ['-C', ROOT, 'rev-parse', '--short', 'HEAD'])).stdout.toString().trim(),
        uptimeBefore,
        uptimeAfter: '',
      },
      data: {
        commits: opt.commits,
        issues: ISSUES,
        issuesSmall: ISSUES_SMALL,
        repos: REPOS,
        reposSmall: REPOS_SMALL,
        reposLarge: REPOS_LARGE,
        repoBodyBytes: 0,
        copied: {},
      },
      startup: { freshMs: cairn.startupMs, withDataMs: null },
      memory: { idle: null, afterLoad: null },
      ceilings: { A: [], B: [] },
      routes: [],
      lists: [],
      git: { clone: null, push: null },
    };
    await suite(run, result);
    result.machine.uptimeAfter = await uptime();
    const finished = { ...result, finishedAt: new Date().toISOString() };
    const done: RunResult = { ...finished, targets: judge(finished) };
    const md = markdown(done);
    fs.writeFileSync(path.join(RESULTS, `${stamp}.md`), md);
    fs.writeFileSync(path.join(RESULTS, `${stamp}.json`), `${JSON.stringify(done, null, 2)}\n`);
    process.stdout.write(md);
    say(
      `results in ${path.relative(ROOT, path.join(RESULTS, stamp))}.md and .json; ${((Date.now() - startedAt.getTime()) / 60_000).toFixed(1)} minutes`,
    );
  } finally {
    clearTimeout(limit);
    await cleanup();
  }
}

main().catch((e: unknown) => {
  console.error(`bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exit(1);
});
