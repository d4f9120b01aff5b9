// `npm run bench -- [--db postgres|pglite] [--quick] [--only name,name] [--profile [name]]`
import { parseArgs } from 'node:util';

export const ROUTE_NAMES = [
  'repo-token',
  'repo-anon',
  'user',
  'contents',
  'commits',
  'issues',
  'search',
  'post-issue',
  'post-comment',
] as const;
/** Parts of the run besides the routes that `--only` can name. */
export const PART_NAMES = ['lists', 'git'] as const;
export type RouteName = (typeof ROUTE_NAMES)[number];
type Part = RouteName | (typeof PART_NAMES)[number];

export interface Options {
  db: 'postgres' | 'pglite';
  quick: boolean;
  /**
   * `--hold`: seed as a full run does (routes' data, 1,000 repositories, the history), print where
   * everything is (URLs, token, database, pid) as one JSON line, and keep cairn running until
   * interrupted, to measure or profile by hand. Nothing is loaded or reported.
   */
  hold: boolean;
  /**
   * `--scale <issues>`: keyword search and the lists at size (bench/seed-scale.ts): the figures at
   * 10,000 issues and repositories, then at `<issues>` issues over a tenth as many repositories.
   * Nothing else is measured. Null: not asked.
   */
  scale: number | null;
  /**
   * `--mixed`: reads while a writer creates issues and comments at 0, 10, 50 and 200 a second, with kept
   * answers on and off (bench/mixed.ts). Nothing else is measured.
   */
  mixed: boolean;
  /** `--no-kept`: cairn runs with kept answers off (CAIRN__CACHE__ANSWERS=false), so every read does its own work. */
  kept: boolean;
  /**
   * `--workers N`: cairn's [server] WORKERS (lib/runtime/workers.ts); 1, one process, unless given, so the
   * figures stay comparable; 0 is cairn's default, one worker per core. CPU per answer sums the workers.
   */
  workers: number;
  /** `--profile [name]`: the route to profile under load (`repo-token` when no name is given), else null. */
  profile: RouteName | null;
  /** Null: everything. */
  only: Set<Part> | null;
  /** Seconds of discarded warm-up, and of each measured window. */
  warmup: number;
  window: number;
  /** Commits of the history repository. */
  commits: number;
  /** Timed clones and pushes of each kind (the median is reported). */
  gitRuns: number;
  /** Whether the ceilings are measured again after the routes (their mean is the reference). */
  ceilingsAfter: boolean;
  /**
   * The whole run is stopped past this, whatever happens: by default about three times what it takes
   * on a quiet machine; `--max-minutes` for a machine others are loading.
   */
  limitMinutes: number;
}

export const USAGE =
  'usage: npm run bench -- [--db postgres|pglite] [--quick] [--only <name>[,<name>...]] [--profile [<name>]] [--hold] [--mixed] [--no-kept] [--scale <issues>] [--workers N] [--max-minutes N]\n' +
  `  names: ${[...ROUTE_NAMES, ...PART_NAMES].join(', ')}`;

const isRouteName = (s: string): s is RouteName => (ROUTE_NAMES as readonly string[]).includes(s);

export function parseOptions(argv: string[]): Options {
  // A bare `--profile` (followed by nothing or by another option) profiles `GET {R}` with a token.
  const args = argv.map((a, i) =>
    a === '--profile' && (argv[i + 1] === undefined || argv[i + 1].startsWith('-')) ? '--profile=repo-token' : a,
  );
  const { values } = parseArgs({
    args,
    options: {
      db: { type: 'string', default: 'postgres' },
      quick: { type: 'boolean', default: false },
      hold: { type: 'boolean', default: false },
      'no-kept': { type: 'boolean', default: false },
      mixed: { type: 'boolean', default: false },
      workers: { type: 'string', default: '1' },
      only: { type: 'string' },
      profile: { type: 'string' },
      'max-minutes': { type: 'string' },
      scale: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) throw new Error(USAGE);
  if (values.db !== 'postgres' && values.db !== 'pglite') throw new Error(`--db must be postgres or pglite\n${USAGE}`);
  let only: Set<Part> | null = null;
  if (values.only !== undefined) {
    const known: readonly string[] = [...ROUTE_NAMES, ...PART_NAMES];
    const names = values.only
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    for (const n of names) if (!known.includes(n)) throw new Error(`--only: unknown name ${n}\n${USAGE}`);
    only = new Set(names as Part[]);
  }
  const profile = values.profile ?? null;
  if (profile !== null && !isRouteName(profile)) throw new Error(`--profile: unknown route ${profile}\n${USAGE}`);
  const quick = values.quick;
  const max = values['max-minutes'] === undefined ? null : Number(values['max-minutes']);
  if (max !== null && !(max > 0)) throw new Error(`--max-minutes must be a positive number\n${USAGE}`);
  const scale = values.scale === undefined ? null : Number(values.scale.replaceAll('_', ''));
  if (scale !== null && !(Number.isSafeInteger(scale) && scale >= 10_000))
    throw new Error(`--scale must be a number of issues, at least 10000\n${USAGE}`);
  const workers = Number(values.workers);
  if (!Number.isInteger(workers) || workers < 0) throw new Error(`--workers must be 0 (one per core) or a number of processes\n${USAGE}`);
  return {
    db: values.db,
    scale,
    quick,
    hold: values.hold,
    mixed: values.mixed,
    kept: !values['no-kept'],
    workers,
    profile,
    only,
    warmup: quick ? 1 : 3,
    window: quick ? 2 : 10,
    commits: quick ? 1_000 : 10_000,
    gitRuns: quick ? 1 : 3,
    ceilingsAfter: !quick,
    limitMinutes: max ?? (values.hold ? 24 * 60 : scale !== null ? 180 : quick ? 15 : 45),
  };
}

export const wants = (o: Options, part: Part) => o.only === null || o.only.has(part);
