// Label colours (Forgejo's modules/label NormalizeColor): `#rgb`, `rgb`, `#rrggbb` or `rrggbb` in,
// `#rrggbb` stored, case kept as sent.
import { unprocessable } from '../http/errors.ts';

export function normalizeLabelColor(input: string): string {
  const color = input.trim();
  if (!/^#?(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/.test(color)) throw unprocessable(`bad color code: ${color}`);
  const hex = color.replace(/^#/, '');
  return `#${hex.length === 3 ? [...hex].map((ch) => ch + ch).join('') : hex}`;
}
