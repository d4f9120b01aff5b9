// JSON rendered the way Forgejo's encoder does (forgejo-facts 1.1): `<`, `>` and `&` escaped as
// \u003c and friends, and a trailing newline.
export function renderJson(value: unknown): string {
  return `${value instanceof RenderedJson ? value.text : jsonText(value)}\n`;
}

/** A value's JSON text as renderJson renders it, without the newline (escaping is per character, so texts may be joined). */
export function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** An answer's JSON already rendered (joined from `jsonText` parts): renderJson sends the text as it is. */
export class RenderedJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}
export const JSON_TYPE = 'application/json;charset=utf-8';
