// Crash injection for tests of recovery (test/lib/merge-crash.test.ts): with CAIRN_FAILPOINT=<name>
// in its environment, the process kills itself (SIGKILL, as `kill -9` does) when it reaches the point
// of that name. Unset, a failpoint is one comparison. Named points: `merge-moved` (lib/pulls/merge.ts,
// right after git moved a base branch for a merge, before the database records it).
const armed = process.env.CAIRN_FAILPOINT ?? '';

export function failpoint(name: string): void {
  if (armed === name) process.kill(process.pid, 'SIGKILL');
}
