// Glob patterns as Forgejo compiles them with gobwas/glob: `*` (no separator), `**` (anything),
// `?`, `[abc]`, `[!a-z]`, `{a,b}` and `\` escapes. Separators are the characters `*` and `?` never
// cross: `/` for branch rules, `.` and `/` for protected file patterns, none for tag patterns.

export class GlobError extends Error {}

const SPECIAL = /[*?[\]{}\\]/;

/** Whether a rule name uses glob syntax (Forgejo's IsRuleNameSpecial); plain names match exactly. */
export const isGlobPattern = (s: string) => SPECIAL.test(s);

const escapeRe = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

export function compileGlob(pattern: string, separators = ''): RegExp {
  const sep = separators === '' ? '' : `[^${escapeRe(separators)}]`;
  const any = sep === '' ? '[\\s\\S]' : sep;
  let i = 0;
  let depth = 0;
  let out = '';
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') {
      if (i + 1 >= pattern.length) throw new GlobError(`unexpected end of pattern: ${pattern}`);
      out += escapeRe(pattern[i + 1]);
      i += 2;
    } else if (c === '*') {
      if (pattern[i + 1] === '*') {
        out += '[\\s\\S]*';
        i += 2;
      } else {
        out += `${any}*`;
        i += 1;
      }
    } else if (c === '?') {
      out += any;
      i += 1;
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) throw new GlobError(`unclosed [ in pattern: ${pattern}`);
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      if (body === '') throw new GlobError(`empty [] in pattern: ${pattern}`);
      out += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end + 1;
    } else if (c === '{') {
      out += '(?:';
      depth += 1;
      i += 1;
    } else if (c === '}' && depth > 0) {
      out += ')';
      depth -= 1;
      i += 1;
    } else if (c === ',' && depth > 0) {
      out += '|';
      i += 1;
    } else {
      out += escapeRe(c);
      i += 1;
    }
  }
  if (depth !== 0) throw new GlobError(`unclosed { in pattern: ${pattern}`);
  return new RegExp(`^${out}$`);
}

/** Like compileGlob, but a pattern that does not compile matches itself literally (Forgejo's fallback). */
export function compileGlobOrLiteral(pattern: string, separators = ''): RegExp {
  try {
    return compileGlob(pattern, separators);
  } catch (e) {
    if (!(e instanceof GlobError)) throw e;
    return new RegExp(`^${escapeRe(pattern)}$`);
  }
}
