// JSON rendered the way Forgejo's encoder does (forgejo-facts 1.1): `<`, `>` and `&` escaped as
// \u003c and friends, and a trailing newline.
export function renderJson(value: unknown): string {
  return `${JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}
export const JSON_TYPE = 'application/json;charset=utf-8';
