// What a request string must be before it may reach the database or git.
// PostgreSQL text cannot hold U+0000 (the driver's error is a 500), and a lone UTF-16 surrogate has
// no UTF-8 form: the driver silently writes U+FFFD instead, so what is stored differs from what was
// sent. Neither can name anything that exists, so callers answer 404 (path) or 422 (body, query).

// `isWellFormed` (ES2024, not in our target's lib) is false exactly when the string holds a lone
// surrogate; it is native, where the lookbehind pattern it replaces ran on every path parameter and
// query value of every request.
type Wellformed = string & { isWellFormed(): boolean };

export function isStorableText(s: string): boolean {
  return !s.includes('\u0000') && (s as Wellformed).isWellFormed();
}
