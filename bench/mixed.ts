// `npm run bench -- --mixed`: reads while others write (bench/mixed-gen.ts). 1,000 repositories of the
// bench user (SQL copies of one, bench/seed-rows.ts; a tenth made private through the API), 100 users
// with tokens made through the admin API, three collaborators on each private repository. Reads at
// 64 connections, Zipf-skewed over users, repositories and kept routes, a tenth anonymous; at the same
// time a writer process creates issues and comments at 0, 10, 50 and 200 a second. Each write rate is
// measured with kept answers on and then off (cairn started again with CAIRN__CACHE__ANSWERS=false).
import { NODE, childEnv, runToEnd } from './procs.ts';
import type { MixedReadResult, MixedReadSpec, MixedRepo, MixedWriteResult, MixedWriteSpec } from './mixed-gen.ts';

export const WRITE_RATES = [0, 10, 50, 200] as const;
const USERS = 100;
const PASSWORD = 'bench-Mixed-Passw0rd';

export interface MixedWorld {
  repos: MixedRepo[];
  users: { name: string; token: string }[];
}

export interface MixedRow {
  kept: boolean;
  rate: number;
  reads: MixedReadResult;
  writes: MixedWriteResult;
}

async function call(base: string, method: string, path: string, auth: string, body: unknown, expect: number): Promise<unknown> {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: auth, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (r.status !== expect) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** `fn` over `items`, `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

/** Users, tokens, private repositories and collaborators through the API; `names` are the owner's repositories. */
export async function seedMixed(api: string, owner: string, ownerToken: string, adminToken: string, names: string[]): Promise<MixedWorld> {
  const users: { name: string; token: string }[] = [];
  await pool(
    Array.from({ length: USERS }, (_, i) => `mixed${String(i).padStart(3, '0')}`),
    8,
    async (name, i) => {
      await call(
        api,
        'POST',
        '/admin/users',
        `token ${adminToken}`,
        { username: name, email: `${name}@example.com`, password: PASSWORD, must_change_password: false },
        201,
      );
      const basic = `Basic ${Buffer.from(`${name}:${PASSWORD}`).toString('base64')}`;
      const t = (await call(api, 'POST', `/users/${name}/tokens`, basic, { name: 'mixed', scopes: ['all'] }, 201)) as { sha1: string };
      users[i] = { name, token: t.sha1 };
    },
  );
  const repos: MixedRepo[] = names.map((name, i) => ({ name, private: i % 10 === 9, readers: [] }));
  await pool(repos, 8, async (r, i) => {
    if (!r.private) return;
    await call(api, 'PATCH', `/repos/${owner}/${r.name}`, `token ${ownerToken}`, { private: true }, 200);
    // Three collaborators, one of them among the users the reads pick most.
    for (const u of [i % 5, (i * 7) % USERS, (i * 13 + 1) % USERS]) {
      if (r.readers.includes(u)) continue;
      await call(
        api,
        'PUT',
        `/repos/${owner}/${r.name}/collaborators/${users[u]!.name}`,
        `token ${ownerToken}`,
        { permission: 'read' },
        204,
      );
      r.readers.push(u);
    }
  });
  return { repos, users };
}

/** One write rate: the reads and the writer in two processes at the same time. */
export async function measureMixed(
  api: string,
  owner: string,
  ownerToken: string,
  world: MixedWorld,
  rate: number,
  warmupSeconds: number,
  seconds: number,
): Promise<{ reads: MixedReadResult; writes: MixedWriteResult }> {
  const readSpec: MixedReadSpec = { api, owner, repos: world.repos, users: world.users, connections: 64, warmupSeconds, seconds };
  const writeSpec: MixedWriteSpec = {
    api,
    owner,
    token: ownerToken,
    repos: world.repos.filter((r) => !r.private).map((r) => r.name),
    perSecond: rate,
    seconds: warmupSeconds + seconds,
  };
  const run = async <T>(mode: string, spec: unknown): Promise<T> => {
    const out = await runToEnd([NODE, '--import', 'tsx', 'bench/mixed-gen.ts', mode, JSON.stringify(spec)], {
      env: childEnv({}),
      timeoutMs: (warmupSeconds + seconds + 120) * 1000,
    });
    const r = JSON.parse(out.trim().split('\n').pop() ?? '') as Record<string, unknown>;
    // JSON has no NaN: the percentiles of a window without an answer come back as null.
    for (const k of ['p50', 'p99']) r[k] ??= Number.NaN;
    return r as T;
  };
  const [reads, writes] = await Promise.all([run<MixedReadResult>('read', readSpec), run<MixedWriteResult>('write', writeSpec)]);
  return { reads, writes };
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '–');

export function mixedMarkdown(
  rows: MixedRow[],
  meta: { stamp: string; uptimeBefore: string; uptimeAfter: string; ceilingA: number | null; window: number },
): string {
  const lines = [
    `# cairn: reads while others write ${meta.stamp}`,
    '',
    `1,000 repositories (a tenth private), ${USERS} users with tokens; reads at 64 connections, Zipf-skewed over users, repositories and`,
    '`GET {R}` (45 %), `GET {R}/issues?state=open&limit=10` (25 %), `GET /user` (20 %), `GET /users/{name}` (10 %), a tenth anonymous;',
    `a writer process creating issues and comments (alternately) in random public repositories, open loop. ${meta.window} s windows.`,
    `Load before: ${meta.uptimeBefore}. After: ${meta.uptimeAfter}.`,
    meta.ceilingA === null ? '' : `Ceiling A (bare Koa, \`GET {R}\`, 64 connections) in the same run: ${meta.ceilingA.toFixed(0)} req/s.`,
    '',
    '| kept answers | writes/s asked (made) | reads req/s | p50 ms | p99 ms | reads from kept answers | write p50 / p99 ms | other statuses |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    const other = Object.entries(r.reads.statuses).filter(([s]) => !s.startsWith('2'));
    const wOther = Object.entries(r.writes.statuses).filter(([s]) => s !== '201');
    lines.push(
      `| ${r.kept ? 'on' : 'off'} | ${r.rate} (${r.writes.perSecond.toFixed(0)}) | ${r.reads.rps.toFixed(0)} | ${ms(r.reads.p50)} | ${ms(r.reads.p99)} | ${
        r.reads.keptShare === null ? '–' : `${(r.reads.keptShare * 100).toFixed(0)} %`
      } | ${r.rate ? `${ms(r.writes.p50)} / ${ms(r.writes.p99)}` : '–'} | ${[
        ...other.map(([s, n]) => `reads ${s}: ${n}`),
        ...wOther.map(([s, n]) => `writes ${s}: ${n}`),
        ...(r.reads.errors ? [`read errors: ${r.reads.errors}`] : []),
      ].join(', ')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
