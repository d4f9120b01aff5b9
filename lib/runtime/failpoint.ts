// Crash injection for tests of recovery (test/lib/merge-crash.test.ts): with CAIRN_FAILPOINT=<name>
// in its environment, the process kills itself (SIGKILL, as `kill -9` does) when it reaches the point
// of that name. Unset, a failpoint is one comparison. Named points: `merge-moved` (lib/pulls/merge.ts,
// right after git moved a base branch for a merge, before the database records it).
const armed = process.env.CAIRN_FAILPOINT ?? '';

export function failpoint(name: string): void {
  if (armed === name) process.kill(process.pid, 'SIGKILL');
}

// Pauses for tests of graceful shutdown (test/graceful-shutdown.test.ts): with
// CAIRN_PAUSEPOINT=<name>=<ms>, the process waits that long when it reaches the point of that name,
// after saying so on stderr (`pausepoint <name>`), so a test can signal it while work is in flight.
// Named points: `push-finish` (lib/transport/git-push.ts, after git's receive-pack ended and before
// the push is recorded and answered).
const pause = /^([\w-]+)=(\d+)$/.exec(process.env.CAIRN_PAUSEPOINT ?? '');

export async function pausepoint(name: string): Promise<void> {
  if (pause === null || pause[1] !== name) return;
  process.stderr.write(`pausepoint ${name}\n`);
  await new Promise((resolve) => setTimeout(resolve, Number(pause[2])));
}
