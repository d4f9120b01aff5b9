// Rendering markdown to HTML (POST /markdown, /markdown/raw, /markup and the repository variants).
// Raw HTML in the source is escaped, so the output is safe to embed.
import MarkdownIt from 'markdown-it';
import type { Handler } from '../lib/http/handler.ts';
import type { MarkdownOption, MarkupOption } from '../model/schemas/index.ts';
import { unprocessable } from '../lib/http/errors.ts';
import type { RequestState } from '../lib/http/request.ts';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });
const comment = new MarkdownIt({ html: false, linkify: true, breaks: true });
const MODES = new Set(['', 'markdown', 'gfm', 'comment', 'wiki', 'file']);

/** Relative links resolve against the given context, or the repository in the path. */
function render(s: RequestState, text: string, mode: string, context: string): string {
  if (!MODES.has(mode)) throw unprocessable(`unknown mode: ${mode}`);
  const base = context || (s.repo ? `${s.config.appUrl}${s.repo.owner.name}/${s.repo.repo.name}` : '');
  const engine = mode === 'comment' ? comment : md;
  const env = {};
  const tokens = engine.parse(text, env);
  if (base && mode !== 'markdown') {
    for (const t of tokens) {
      for (const child of t.children ?? []) {
        const attr = child.type === 'link_open' ? 'href' : child.type === 'image' ? 'src' : null;
        const value = attr ? String(child.attrGet(attr) ?? '') : '';
        if (attr && value && !/^([a-z][a-z0-9+.-]*:|#|\/)/i.test(value)) child.attrSet(attr, `${base.replace(/\/$/, '')}/${value}`);
      }
    }
  }
  return engine.renderer.render(tokens, engine.options, env);
}

const html = (body: string) => ({ status: 200, body, type: 'text/html; charset=utf-8' });

export const markdown: Handler<MarkdownOption> = async (c) => html(render(c, c.body.Text ?? '', c.body.Mode ?? '', c.body.Context ?? ''));
export const markup: Handler<MarkupOption> = async (c) => html(render(c, c.body.Text ?? '', c.body.Mode ?? '', c.body.Context ?? ''));
export const markdownRaw: Handler<string> = async (c) => html(render(c, c.body, 'markdown', ''));

/** This family's handlers; `routes.table.ts` names each `markup.<key>`. */
export const handlers = {
  markup,
  markdown,
  markdownRaw,
  createMarkup: markup,
  createMarkdown: markdown,
  createMarkdownRaw: markdownRaw,
} satisfies Record<string, Handler<never, never>>;
