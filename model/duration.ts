// Go's time.Duration text form, which Forgejo uses for mirror intervals (`8h0m0s`).
const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds of a Go duration string (`1h30m`, `90s`, `1.5h`), or null when it does not parse. */
export function parseDuration(s: string): number | null {
  const m = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(s);
  if (s === '0') return 0;
  if (!m) return null;
  let total = 0;
  for (const part of s.replace(/^[-+]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g))
    total += Number(part[1]) * UNITS[part[2]];
  return m[1] === '-' ? -total : total;
}

/** Go's Duration.String() for whole seconds: `8h0m0s`, `10m0s`, `45s`, `0s`. */
export function formatDuration(ms: number): string {
  const secs = Math.round(ms / 1000);
  if (secs === 0) return '0s';
  const h = Math.floor(secs / 3600);
  const m = Math.floor((secs % 3600) / 60);
  const s = secs % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

export const MIN_MIRROR_INTERVAL_MS = 10 * 60_000;
export const DEFAULT_MIRROR_INTERVAL = '8h0m0s';

/** A mirror interval as Forgejo accepts it: a Go duration, 0 (no periodic sync) or at least 10 minutes. */
export function checkMirrorInterval(s: string): { ms: number; text: string } | { error: string } {
  const ms = parseDuration(s);
  if (ms === null) return { error: `time: invalid duration "${s}"` };
  if (ms < 0 || (ms !== 0 && ms < MIN_MIRROR_INTERVAL_MS))
    return { error: `invalid mirror interval: ${formatDuration(ms)} is below minimum interval: 10m0s` };
  return { ms, text: formatDuration(ms) };
}

/** Forgejo's util.SecToTime: the two largest non-zero units, e.g. `1 hour 5 minutes`. */
export function secToTime(total: number): string {
  // Months are a twelfth of a year, in integer arithmetic as in Go.
  let rest = Math.floor(total / 86400);
  const years = Math.floor(rest / 365);
  rest -= years * 365;
  const months = Math.floor((rest * 12) / 365);
  rest -= Math.floor((months * 365) / 12);
  const weeks = Math.floor(rest / 7);
  rest -= weeks * 7;
  const hours = Math.floor(total / 3600) % 24;
  const minutes = Math.floor(total / 60) % 60;
  const seconds = total % 60;
  const pairs: [number, string][][] = [
    [
      [years, 'year'],
      [months, 'month'],
    ],
    [
      [months, 'month'],
      [weeks, 'week'],
    ],
    [
      [weeks, 'week'],
      [rest, 'day'],
    ],
    [
      [rest, 'day'],
      [hours, 'hour'],
    ],
    [
      [hours, 'hour'],
      [minutes, 'minute'],
    ],
    [
      [minutes, 'minute'],
      [seconds, 'second'],
    ],
  ];
  const pair = pairs.find(([[lead]]) => lead > 0) ?? pairs[pairs.length - 1];
  return pair
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`)
    .join(' ');
}
