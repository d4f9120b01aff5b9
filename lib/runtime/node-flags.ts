// The Node.js flags `cli.ts serve` runs under (memory). V8 sizes the young generation from
// the machine's memory: on a machine of 24 GB each of its two semi-spaces grows to 64 MB under load, so
// 128 MB of a server whose live heap is about 80 MB is young-generation room, resident once touched
// (RSS 722 MB after the bench's load). 32 MB semi-spaces halve that room and keep the process under
// 300 MB. Smaller is worse on both counts: at 16 MB, objects of requests still in flight survive two
// scavenges and are promoted, so the old space grew (RSS 372 against 262 MB after the same load) and
// collection took 60 % more time (measured with 32 connections on GET {R}, /user and contents).
//
// The size is fixed when V8 starts, so `serve` started without the flag starts itself again with it
// (process.execve: the same process id, so supervisors and pid files see no change). `npm start`
// passes the flags, so the usual start pays for no second start. A flag the operator gives (in the
// command line or NODE_OPTIONS), with any value, is kept.
//
// The old generation: V8 lets it grow to a multiple of the live heap after each full collection, and
// on a machine of 24 GB (a heap limit of 4 GB) that multiple is 4: the old space of a server whose
// live heap is 70 MB reached 176 MB under the bench's load before its first full collection, and V8
// kept the pages (RSS 404-425 MB after load, measured per space with v8.getHeapSpaceStatistics()).
// `--heap-growing-percent=20` makes the multiple 1.2 without a hard limit (`--max-old-space-size`
// caps the heap, and a server near its cap collects again and again, then dies). Quick bench, same
// machine: RSS after load 425 MB (V8's multiple), 338 MB (1.5), 307 MB (1.2); req/s within the noise.
export const SERVE_NODE_FLAGS = ['--max-semi-space-size=32', '--heap-growing-percent=20'] as const;

/**
 * The process's own flags for starting `serve` again, without tsx's loader (memory): Node 24
 * runs our sources itself (built-in type stripping; tsconfig's `erasableSyntaxOnly` keeps them
 * strippable), and tsx's module hooks, its compiled copies and their source maps stayed resident: the
 * old space of an idle server was 66 MB under tsx against 51 MB without, and its start took 1.5 times
 * the CPU. `npm start` runs without it; `node --import tsx cli.ts serve` keeps working, and loses the
 * loader when it starts itself again with the flags below.
 */
export function withoutTsx(execArgv: readonly string[]): string[] {
  return execArgv.filter(
    (a, i) => a !== '--import=tsx' && !(a === '--import' && execArgv[i + 1] === 'tsx') && !(a === 'tsx' && execArgv[i - 1] === '--import'),
  );
}

/** The serve flags the process was not started with: those whose name appears in neither place. */
export function missingServeFlags(execArgv: readonly string[], nodeOptions = ''): string[] {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((a) => a.split('=')[0]!.replaceAll('_', '-'));
  return SERVE_NODE_FLAGS.filter((f) => !given.includes(f.split('=')[0]!));
}
