import { etagOf } from './conditional-get.ts';

// JSON rendered the way Forgejo's encoder does (forgejo-facts 1.1): `<`, `>` and `&` escaped as
// \u003c and friends, and a trailing newline.
export function renderJson(value: unknown): string {
  if (value instanceof RenderedBytes) return value.bytes.toString('utf8');
  return `${value instanceof RenderedJson ? value.text : jsonText(value)}\n`;
}

/** renderJson's text as bytes; an answer rendered as bytes is sent as it is. */
export function renderJsonBytes(value: unknown): Buffer {
  return value instanceof RenderedBytes ? value.bytes : Buffer.from(renderJson(value));
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
/**
 * An answer's bytes as renderJson renders it, newline included (a large answer joined from
 * kept bytes is not joined as text and encoded again on every request).
 */
export class RenderedBytes {
  readonly bytes: Buffer;
  private tag: string | undefined;
  constructor(bytes: Buffer) {
    this.bytes = bytes;
  }

  /** etagOf the bytes, computed once: a kept answer sent again is not hashed again. */
  get etag(): string {
    return (this.tag ??= etagOf(this.bytes));
  }
}
export const JSON_TYPE = 'application/json;charset=utf-8';
