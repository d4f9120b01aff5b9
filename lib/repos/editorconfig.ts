// The EditorConfig definition for one file (what Forgejo returns from editorconfig-core-go): the
// sections of the root .editorconfig whose glob matches, later ones overriding earlier ones.
import { compileGlobOrLiteral } from './glob.ts';

export interface Definition {
  charset?: string;
  indent_style?: string;
  indent_size?: string;
  tab_width?: number;
  end_of_line?: string;
  trim_trailing_whitespace?: boolean;
  insert_final_newline?: boolean;
}

/** `{1..3}` number ranges become alternatives; a glob without `/` is matched against the file's base name. */
function sectionMatches(glob: string, file: string): boolean {
  const expanded = glob.replace(/\{(-?\d+)\.\.(-?\d+)\}/g, (_, a: string, b: string) => {
    const [lo, hi] = [Number(a), Number(b)].sort((x, y) => x - y);
    return hi - lo > 1000 ? `{${a}..${b}}` : `{${Array.from({ length: hi - lo + 1 }, (_x, i) => lo + i).join(',')}}`;
  });
  if (!expanded.includes('/')) return compileGlobOrLiteral(expanded, '/').test(file.slice(file.lastIndexOf('/') + 1));
  return compileGlobOrLiteral(expanded.replace(/^\//, ''), '/').test(file);
}

export function parseEditorconfig(text: string): { glob: string; props: Record<string, string> }[] {
  const sections: { glob: string; props: Record<string, string> }[] = [];
  let current: { glob: string; props: Record<string, string> } | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const sec = /^\[(.*)\]$/.exec(line);
    if (sec) {
      current = { glob: sec[1], props: {} };
      sections.push(current);
      continue;
    }
    const kv = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(line);
    if (kv && current) current.props[kv[1].toLowerCase()] = kv[2].trim();
  }
  return sections;
}

export function definitionFor(text: string, file: string): Definition {
  const props: Record<string, string> = {};
  const path = file.replace(/^\/+/, '');
  for (const s of parseEditorconfig(text)) if (sectionMatches(s.glob, path)) Object.assign(props, s.props);
  const lower = (k: string) => props[k]?.toLowerCase();
  const bool = (k: string) => (lower(k) === 'true' ? true : lower(k) === 'false' ? false : undefined);
  const def: Definition = {};
  if (props.charset) def.charset = lower('charset');
  if (props.indent_style) def.indent_style = lower('indent_style');
  if (props.indent_size) def.indent_size = lower('indent_size');
  if (props.tab_width && /^\d+$/.test(props.tab_width)) def.tab_width = Number(props.tab_width);
  if (props.end_of_line) def.end_of_line = lower('end_of_line');
  const trim = bool('trim_trailing_whitespace');
  if (trim !== undefined) def.trim_trailing_whitespace = trim;
  const final = bool('insert_final_newline');
  if (final !== undefined) def.insert_final_newline = final;
  // editorconfig-core's defaults: tab_width follows a numeric indent_size; indent_size follows tabs.
  if (def.tab_width === undefined && def.indent_size && /^\d+$/.test(def.indent_size)) def.tab_width = Number(def.indent_size);
  if (def.indent_style === 'tab' && def.indent_size === undefined) def.indent_size = 'tab';
  if (def.indent_size === 'tab' && def.tab_width !== undefined) def.indent_size = String(def.tab_width);
  return def;
}
