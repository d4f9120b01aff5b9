// Worker processes (node:cluster): on PostgreSQL `cairn serve` runs [server] WORKERS processes (0: one
// per available core) that serve one HTTP port, and one SSH port, between them; the embedded database
// admits one process, so there it is always one.
//
// Invariants:
// - The primary opens the database, applies migrations, holds the serving lock, removes leftovers and
//   records interrupted merges (cli.ts serve) once, before the first worker starts; it serves the
//   admin socket and no HTTP. Workers do none of that start-up work.
// - Every worker listens on the shared ports (node:cluster hands each connection to one worker) and runs
//   the background loops, which claim their work in the database (lib/maintenance/cron.ts, mirror
//   schedule, webhook delivery) exactly as separate cairn processes on one database do.
// - A worker that exits before it said it is ready is a failed start: the primary stops the others and
//   exits 1, as a single process that cannot listen does. A worker that dies later is replaced (logged);
//   its in-flight requests are lost, its data is not (every write is a committed transaction).
// - Shutdown: the primary asks each worker to drain by a message, not a signal, so that a terminal's
//   Ctrl-C, which reaches every process of the group, is not taken by the workers as a second signal.
//   A second signal to the primary is passed on as a signal (the workers' hammer). Once every worker
//   exited, or grace + WORKER_EXIT_SLACK_MS passed (then the rest are killed), the primary exits 0; its
//   log says whether every worker drained (each worker's exit code: 0, or WORKER_CUT when it was cut).
// - GET /metrics in a worker covers every worker: the worker asks the primary, which collects each
//   worker's process registry through prom-client's AggregatorRegistry (cluster mode) and answers.
import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import type { Logger } from 'pino';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { Config } from '../../config.ts';

const STOP = 'cairn:stop';
const READY = 'cairn:ready';
const METRICS_REQ = 'cairn:metrics-req';
const METRICS_RES = 'cairn:metrics-res';
/** How long past the grace period the primary waits for workers before it kills them. */
const WORKER_EXIT_SLACK_MS = 2000;

interface Message {
  type?: string;
  id?: number;
  text?: string;
  error?: string;
}

/** How many processes serve: 1 on the embedded database, else [server] WORKERS or one per core. */
export function workerCount(cfg: Config): number {
  if (!cfg.DATABASE.URL) return 1;
  return cfg.SERVER.WORKERS || os.availableParallelism();
}

export const isWorker = (): boolean => cluster.isWorker;

export interface Workers {
  /**
   * Asks every worker to drain; resolves true once all exited having finished what was in flight (exit
   * code 0), false when one was cut (WORKER_CUT) or had to be killed.
   */
  stop(graceMs: number): Promise<boolean>;
  /** Passes a second stop signal on to the workers. */
  hammer(signal: NodeJS.Signals): void;
}

/**
 * Forks `count` workers (this process's argv and flags) and resolves once every one is ready; rejects
 * when one exits before that (having stopped the others).
 */
export function startWorkers(count: number, log: Logger): Promise<Workers> {
  let stopping = false;
  let started = false;
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker: Worker, msg: Message) => {
    if (msg?.type !== METRICS_REQ) return;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: METRICS_RES, id: msg.id, text }),
      (e: unknown) => worker.isConnected() && worker.send({ type: METRICS_RES, id: msg.id, error: String(e) }),
    );
  });
  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  return new Promise<Workers>((resolve, reject) => {
    const ready = new Set<number>();
    const fork = () => {
      const worker = cluster.fork();
      worker.on('message', (msg: Message) => {
        if (msg?.type !== READY) return;
        ready.add(worker.id);
        log.info({ worker: worker.id, workerPid: worker.process.pid }, 'worker ready');
        if (!started && ready.size === count) {
          started = true;
          resolve(workers);
        }
      });
    };
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) return;
      const wasReady = ready.delete(worker.id);
      if (!wasReady) {
        stopping = true;
        log.error({ worker: worker.id, workerPid: worker.process.pid, code, signal }, 'a worker exited before it was ready: stopping');
        for (const w of live()) w.process.kill('SIGKILL');
        reject(new Error('a worker exited before it was ready'));
        return;
      }
      log.warn(
        { worker: worker.id, workerPid: worker.process.pid, code, signal },
        'a worker died: its requests in flight are lost; starting another',
      );
      fork();
    });
    const workers: Workers = {
      stop(graceMs) {
        stopping = true;
        const all = live();
        const exited = Promise.all(
          all.map((w) => new Promise<boolean>((r) => (w.isDead() ? r(w.process.exitCode === 0) : w.once('exit', (code) => r(code === 0))))),
        );
        for (const w of all) if (w.isConnected()) w.send({ type: STOP });
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<boolean>((r) => {
          timer = setTimeout(() => {
            for (const w of live()) w.process.kill('SIGKILL');
            r(false);
          }, graceMs + WORKER_EXIT_SLACK_MS);
        });
        return Promise.race([exited.then((codes) => codes.every(Boolean)), late]).finally(() => clearTimeout(timer));
      },
      hammer(signal) {
        for (const w of live()) w.process.kill(signal);
      },
    };
    for (let i = 0; i < count; i++) fork();
  });
}

/** A worker's exit code when its grace period ran out and work in flight was cut. */
export const WORKER_CUT = 3;

/** In a worker: tells the primary this worker serves. */
export function tellReady(): void {
  process.send?.({ type: READY });
}

/** In a worker: runs `stop` when the primary asks this worker to drain. */
export function onStopMessage(stop: () => void): void {
  process.on('message', (msg: Message) => {
    if (msg?.type === STOP) stop();
  });
}

let nextRequest = 0;
const pending = new Map<number, { resolve(text: string): void; reject(e: Error): void }>();
let answering = false;

/**
 * The text of `registry` for GET /metrics: in a worker, every worker's registry aggregated by the
 * primary (prom-client's aggregators: counters and histograms summed, per-process gauges as each
 * declares); elsewhere this process's own.
 */
export function processMetrics(registry: Registry): Promise<string> {
  if (!cluster.isWorker) return registry.metrics();
  if (!answering) {
    answering = true;
    process.on('message', (msg: Message) => {
      if (msg?.type !== METRICS_RES || msg.id === undefined) return;
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error !== undefined) p?.reject(new Error(msg.error));
      else p?.resolve(msg.text ?? '');
    });
  }
  const id = nextRequest++;
  return new Promise<string>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    process.send?.({ type: METRICS_REQ, id });
  });
}

/** In a worker: the registry the primary collects from this process (prom-client's cluster mode). */
export function shareMetrics(registry: Registry): void {
  if (!cluster.isWorker) return;
  // Constructing one installs prom-client's worker-side answer to the primary's requests.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
}
