// The bench's targets, judged on one run's results. A target whose figures were not
// measured in this run (`--only`) is reported as such, neither passed nor failed.
import { ratio, type RunResult, type TargetResult } from './results.ts';

// A figure that could not be measured (no 2xx answer in its window) is NaN, and fails its target.
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : 'no answer');
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)} ms` : 'no answer');
const times = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : 'no answer');

export function judge(r: Omit<RunResult, 'targets'>): TargetResult[] {
  const out: TargetResult[] = [];
  const route = (name: string) => r.routes.find((x) => x.name === name);
  const missing = (target: string, limit: string) => out.push({ target, measured: 'not measured', limit, pass: null });

  const share = (name: string, target: string, min: number) => {
    const x = route(name);
    if (!x || r.ceilings.A.length === 0) return missing(target, `≥ ${pct(min)} of A`);
    const v = ratio(x, r.ceilings.A);
    out.push({ target, measured: pct(v), limit: `≥ ${pct(min)} of A`, pass: v >= min });
  };
  const latency = (name: string, target: string, maxMs: number) => {
    const x = route(name);
    if (!x) return missing(target, `p50 @1 < ${maxMs} ms`);
    out.push({ target, measured: ms(x.c1.p50), limit: `p50 @1 < ${maxMs} ms`, pass: x.c1.p50 < maxMs });
  };

  share('repo-token', '`GET {R}` with a token', 0.25);
  share('repo-anon', '`GET {R}` anonymous', 0.25);
  share('user', '`GET /user`', 0.3);
  share('contents', '`GET {R}/contents/README.md`', 0.15);
  share('commits', `\`GET {R}/commits?limit=30\` (${r.data.commits.toLocaleString('en')} commits)`, 0.1);
  latency('issues', `\`GET {R}/issues?state=open\` page 1 (${r.data.issues.toLocaleString('en')} issues)`, 15);
  latency('search', `\`GET /repos/search?limit=50\` (${r.data.repos.toLocaleString('en')} repositories)`, 20);
  for (const l of r.lists) {
    const v = l.large.p50 / l.small.p50;
    out.push({
      target: `${l.list}: p50 @1 at ${l.large.rows.toLocaleString('en')} rows vs ${l.small.rows.toLocaleString('en')}`,
      measured: times(v),
      limit: '≤ 1.5×',
      pass: v <= 1.5,
    });
  }
  if (r.lists.length === 0) missing('lists do not grow with the data', '≤ 1.5×');
  share('post-issue', '`POST {R}/issues`', 0.05);
  share('post-comment', '`POST {R}/issues/{index}/comments`', 0.05);

  if (r.routes.length) {
    const falling = r.routes.filter((x) => x.c64.rps < x.c1.rps).map((x) => x.name);
    out.push({
      target: 'every route: req/s @64 ≥ req/s @1',
      measured: falling.length ? `lower at 64: ${falling.join(', ')}` : `all ${r.routes.length} routes`,
      limit: '@64 ≥ @1',
      pass: falling.length === 0,
    });
  } else missing('every route: req/s @64 ≥ req/s @1', '@64 ≥ @1');

  if (r.git.clone) {
    const v = r.git.clone.httpMedian / r.git.clone.diskMedian;
    out.push({ target: 'clone over HTTP vs `git clone --no-local`', measured: times(v), limit: '≤ 1.3×', pass: v <= 1.3 });
  } else missing('clone over HTTP vs `git clone --no-local`', '≤ 1.3×');

  if (r.memory.afterLoad)
    out.push({
      target: 'RSS after load',
      measured: `${r.memory.afterLoad.rss.toFixed(0)} MB`,
      limit: '< 300 MB',
      pass: r.memory.afterLoad.rss < 300,
    });
  else missing('RSS after load', '< 300 MB');
  return out;
}
