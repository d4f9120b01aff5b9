// The shape of one run's results (written as JSON next to the Markdown report), and the ratios every
// figure is judged by: throughput at 64 connections against the ceilings measured in the same run.
import type { LoadResult } from './load-gen.ts';
import type { Options } from './options.ts';

export interface Pair {
  c64: LoadResult;
  c1: LoadResult;
}
export interface CeilingRun extends Pair {
  when: 'before' | 'after';
}
export interface RouteResult extends Pair {
  name: string;
  label: string;
}
export interface ListScaling {
  list: string;
  small: { rows: number; p50: number };
  large: { rows: number; p50: number };
}
export interface GitTiming {
  http: number[];
  disk: number[];
  httpMedian: number;
  diskMedian: number;
}

export interface RunResult {
  startedAt: string;
  finishedAt: string;
  options: Options;
  machine: { node: string; git: string; cpus: number; commit: string; uptimeBefore: string; uptimeAfter: string };
  data: {
    commits: number;
    issues: number;
    issuesSmall: number;
    repos: number;
    reposSmall: number;
    reposLarge: number;
    repoBodyBytes: number;
    copied: Record<string, number>;
  };
  startup: { freshMs: number; withDataMs: number | null };
  memory: { idle: { rss: number; peak: number } | null; afterLoad: { rss: number; peak: number } | null };
  ceilings: { A: CeilingRun[]; B: CeilingRun[] };
  routes: RouteResult[];
  lists: ListScaling[];
  git: { clone: GitTiming | null; push: GitTiming | null };
  targets: TargetResult[];
}

export interface TargetResult {
  target: string;
  measured: string;
  limit: string;
  pass: boolean | null;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The reference throughput of a ceiling: the mean of its runs before and after the routes. */
export function ceilingRps(runs: CeilingRun[]): number {
  return runs.length ? mean(runs.map((r) => r.c64.rps)) : NaN;
}

export function ratio(route: Pair, ceiling: CeilingRun[]): number {
  return route.c64.rps / ceilingRps(ceiling);
}
