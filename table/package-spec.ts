// The shape of one row of table/packages.ts (the package registries' routes), and its path patterns.
import type { RegistryStep } from '../guards/registry.ts';
import { indexedCrate, packageNameAt } from '../transports/registries/index.ts';

export type RegistryMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RegistryRouteSpec {
  /** Exactly this method: a GET row does not answer HEAD (a registry's HEAD is a row of its own). */
  readonly method: RegistryMethod;
  /**
   * From the root URL: `/api/packages/{owner}/<type>/...` or `/v2/...`, matched against the
   * percent-decoded, non-empty segments of the request's path. A segment is literal text (exact case);
   * `{p}` one segment; `{p+}` one or more segments, as many as the rest of the pattern leaves (joined
   * with `/`); `{p:matcher}` what the named MATCHERS entry takes.
   */
  readonly path: string;
  /** The token scope category the row's access step checks (PKG_ACCESS); none for the container's token and ping. */
  readonly scope: readonly 'package'[];
  /** The steps, in the order they run, before the handler. */
  readonly chain: readonly RegistryStep[];
  /** `<type>.<key>`: an entry of that registry's `handlers` (transports/registries/<type>.ts). */
  readonly handler: string;
}

/** What a named matcher takes from the segment at `i` on: the parameter's value and the next segment, or null. */
export type Matcher = (parts: readonly string[], i: number) => { value: string; next: number } | null;

/** The segment shapes a path pattern may name beyond `{p}` and `{p+}`. */
export const MATCHERS: Readonly<Record<string, Matcher>> = {
  /** npm's package name: `name`, `@scope/name` over two segments, or `@scope%2fname` in one; never `-`. */
  'npm-name': packageNameAt,
  /** Cargo's sparse index path of a crate (`1/a`, `2/ab`, `3/a/abc`, `ab/cd/abcd…`, any case) to the end; the crate's name. */
  'cargo-index': (parts, i) => {
    const name = indexedCrate(parts.slice(i));
    return name === null ? null : { value: name, next: parts.length };
  },
};

type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'one'; name: string }
  | { kind: 'many'; name: string }
  | { kind: 'matcher'; name: string; matcher: Matcher };

/** A path pattern's segments; throws on an unknown matcher or a malformed parameter. */
export function parsePattern(path: string): Segment[] {
  return path
    .split('/')
    .filter((s) => s !== '')
    .map((seg): Segment => {
      const m = /^\{([\w-]+)(\+|:([\w-]+))?\}$/.exec(seg);
      if (!m) {
        if (seg.includes('{') || seg.includes('}')) throw new Error(`malformed segment ${seg}`);
        return { kind: 'text', text: seg };
      }
      if (m[2] === '+') return { kind: 'many', name: m[1]! };
      if (m[3] === undefined) return { kind: 'one', name: m[1]! };
      const matcher = MATCHERS[m[3]];
      if (!matcher) throw new Error(`unknown matcher ${m[3]}`);
      return { kind: 'matcher', name: m[1]!, matcher };
    });
}

/** The parameters of the segments `parts` when the pattern matches them all, else null. */
export function matchPattern(pattern: readonly Segment[], parts: readonly string[]): Record<string, string> | null {
  const go = (pi: number, i: number, out: Record<string, string>): Record<string, string> | null => {
    if (pi === pattern.length) return i === parts.length ? out : null;
    const seg = pattern[pi]!;
    if (seg.kind === 'text') return parts[i] === seg.text ? go(pi + 1, i + 1, out) : null;
    if (seg.kind === 'one') return parts[i] === undefined ? null : go(pi + 1, i + 1, { ...out, [seg.name]: parts[i] });
    if (seg.kind === 'matcher') {
      const m = seg.matcher(parts, i);
      return m ? go(pi + 1, m.next, { ...out, [seg.name]: m.value }) : null;
    }
    // The longest run first: a literal suffix (`.../manifests/{reference}`) anchors at the end, as the clients mean it.
    for (let end = parts.length; end > i; end--) {
      const found = go(pi + 1, end, { ...out, [seg.name]: parts.slice(i, end).join('/') });
      if (found) return found;
    }
    return null;
  };
  return go(0, 0, {});
}
