// Token scopes (forgejo-facts 3): vocabulary, normalisation and the check of spec rule "Scope checks".
export const CATEGORIES = [
  'activitypub',
  'admin',
  'misc',
  'notification',
  'organization',
  'package',
  'issue',
  'repository',
  'user',
] as const;
export type Category = (typeof CATEGORIES)[number];
export type Level = 'read' | 'write';

export class ScopeError extends Error {}

export interface ParsedScopes {
  all: boolean;
  publicOnly: boolean;
  /** Highest level held per category. */
  levels: Map<Category, Level>;
}

/** Parses a comma-joined scope list; throws ScopeError on an unknown item (`sudo` and empty items are ignored). */
export function parseScopes(raw: string): ParsedScopes {
  const out: ParsedScopes = { all: false, publicOnly: false, levels: new Map() };
  for (const item of raw.split(',').map((s) => s.trim())) {
    if (item === '' || item === 'sudo') continue;
    if (item === 'all') {
      out.all = true;
      continue;
    }
    if (item === 'public-only') {
      out.publicOnly = true;
      continue;
    }
    const m = /^(read|write):([a-z]+)$/.exec(item);
    if (!m || !(CATEGORIES as readonly string[]).includes(m[2])) throw new ScopeError(`invalid access token scope: ${item}`);
    const cat = m[2] as Category;
    if (m[1] === 'write' || !out.levels.has(cat)) out.levels.set(cat, m[1] as Level);
  }
  if (out.all) for (const c of CATEGORIES) out.levels.set(c, 'write');
  return out;
}

/**
 * parseScopes of a token's stored list, shared: a pure function of the text, so a small process-wide
 * memo is safe (parsed on every request with a token). Callers must not change the answer;
 * an unknown item is remembered as null. Cleared when full.
 */
const storedScopes = new Map<string, ParsedScopes | null>();
export function parseStoredScopes(raw: string): ParsedScopes | null {
  let parsed = storedScopes.get(raw);
  if (parsed === undefined) {
    try {
      parsed = parseScopes(raw);
    } catch (e) {
      if (!(e instanceof ScopeError)) throw e;
      parsed = null;
    }
    if (storedScopes.size >= 1024) storedScopes.clear();
    storedScopes.set(raw, parsed);
  }
  return parsed;
}

/** Forgejo's stored form: deduplicated, read dropped under write, fixed order, nine writes collapse to `all`. */
export function normalizeScopes(items: string[]): string[] {
  const parsed = parseScopes(items.join(','));
  const out: string[] = [];
  if (parsed.publicOnly) out.push('public-only');
  if (CATEGORIES.every((c) => parsed.levels.get(c) === 'write')) return [...out, 'all'];
  for (const c of CATEGORIES) {
    const level = parsed.levels.get(c);
    if (level) out.push(`${level}:${c}`);
  }
  return out;
}

export function hasScope(p: ParsedScopes, category: Category, level: Level): boolean {
  const held = p.levels.get(category);
  return held === 'write' || (held === 'read' && level === 'read');
}
