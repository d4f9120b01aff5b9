// Facts derived from a repository's files: languages, EditorConfig, issue templates and issue config;
// and the instance signing keys (Forgejo routers/api/v1/repo/{repo,file,issue_templates}.go,
// routers/api/v1/misc/signing.go).
import path from 'node:path';
import * as yaml from 'js-yaml';
import type { Handler } from '../lib/http/handler.ts';
import { json } from '../lib/http/handler.ts';
import { readObject } from '../git/cat-file.ts';
import { lookupRef, readTree } from '../git/lookup.ts';
import { Lru } from '../git/lru.ts';
import { lsTree } from '../git/trees.ts';
import { notFound } from '../lib/http/errors.ts';
import { definitionFor } from '../lib/repos/editorconfig.ts';
import { gitCtx, type GitCtx } from '../lib/repos/git.ts';
import type { RequestState } from '../lib/http/request.ts';
import { refQuery } from '../lib/http/query-params.ts';

async function headCommit(g: GitCtx, s: RequestState, useRefQuery = false): Promise<string | null> {
  if (g.repo.isEmpty) return null;
  const ref = (useRefQuery ? refQuery(s)?.trim() : '') || g.repo.defaultBranch;
  return (await lookupRef(g.path, ref))?.commit ?? null;
}

// --- languages ----------------------------------------------------------------------------------

interface Lang {
  name: string;
  type: string;
  extensions?: readonly string[];
  filenames?: readonly string[];
}
interface LangTables {
  byExtension: Map<string, Lang[]>;
  byFilename: Map<string, Lang>;
}

// linguist-languages (some 25 MB in memory) is loaded when a repository's languages are first asked
// for, not by every process at start.
let tables: Promise<LangTables> | undefined;
function languageTables(): Promise<LangTables> {
  tables ??= import('linguist-languages').then((linguist) => {
    const byExtension = new Map<string, Lang[]>();
    const byFilename = new Map<string, Lang>();
    for (const l of Object.values(linguist as unknown as Record<string, Lang>)) {
      if (!l || typeof l.name !== 'string') continue;
      for (const e of l.extensions ?? []) byExtension.set(e.toLowerCase(), [...(byExtension.get(e.toLowerCase()) ?? []), l]);
      for (const f of l.filenames ?? []) if (!byFilename.has(f)) byFilename.set(f, l);
    }
    return { byExtension, byFilename };
  });
  return tables;
}

// Extensions several languages claim, settled as linguist's classifier settles them for most files.
const PREFERRED: Record<string, string> = {
  '.md': 'Markdown',
  '.h': 'C',
  '.m': 'Objective-C',
  '.pl': 'Perl',
  '.t': 'Perl',
  '.rs': 'Rust',
  '.cs': 'C#',
  '.fs': 'F#',
  '.sql': 'SQL',
  '.inc': 'PHP',
  '.v': 'Verilog',
  '.d': 'D',
  '.r': 'R',
  '.cls': 'TeX',
  '.ts': 'TypeScript',
  '.tsx': 'TSX',
};

/** A file's language: by exact file name, else by extension, preferring the language whose first extension it is. */
function languageOf({ byExtension, byFilename }: LangTables, file: string): Lang | null {
  const base = path.posix.basename(file);
  const named = byFilename.get(base);
  if (named) return named;
  const ext = path.posix.extname(base).toLowerCase();
  const candidates = ext ? byExtension.get(ext) : undefined;
  if (!candidates) return null;
  const preferred = candidates.find((l) => l.name === PREFERRED[ext]);
  if (preferred) return preferred;
  return candidates.find((l) => l.extensions?.[0]?.toLowerCase() === ext) ?? candidates[0];
}

// Like enry's filters: dot-files, vendored and documentation trees do not count.
const EXCLUDED = /(^|\/)(\.[^/]+|node_modules|vendor|bower_components|third_party|docs?|Documentation)(\/|$)/;
const languageCache = new Lru<string, Record<string, number>>(1_000);

export const languages: Handler = async (c) => {
  const g = gitCtx(c);
  const commit = await headCommit(g, c);
  if (!commit) return json(200, {});
  const stats = await languageCache.getOr(`${g.path}\0${commit}`, async () => {
    const bytes = new Map<string, number>();
    const langs = await languageTables();
    for (const e of (await lsTree(g.path, commit, { recursive: true })) ?? []) {
      if (e.type !== 'blob' || e.mode === '120000' || EXCLUDED.test(e.path)) continue;
      const lang = languageOf(langs, e.path);
      if (!lang || (lang.type !== 'programming' && lang.type !== 'markup')) continue;
      bytes.set(lang.name, (bytes.get(lang.name) ?? 0) + (e.size ?? 0));
    }
    // Go encodes map keys sorted.
    return Object.fromEntries([...bytes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
  return json(200, stats);
};

// --- editorconfig -------------------------------------------------------------------------------

export const editorconfig: Handler = async (c) => {
  const g = gitCtx(c);
  if (g.repo.isEmpty) throw notFound(undefined, ['repository is empty']);
  const commit = await headCommit(g, c, true);
  const file = commit ? await readObject(g.path, `${commit}:.editorconfig`) : null;
  if (!file || file.type !== 'blob') throw notFound(undefined, ['.editorconfig does not exist']);
  return json(200, definitionFor(file.content.toString('utf8'), c.params.filename ?? ''));
};

// --- issue templates and config -----------------------------------------------------------------

const TEMPLATE_DIRS = [
  '.forgejo/ISSUE_TEMPLATE',
  '.forgejo/issue_template',
  '.gitea/ISSUE_TEMPLATE',
  '.gitea/issue_template',
  '.github/ISSUE_TEMPLATE',
  '.github/issue_template',
  '.gitlab/ISSUE_TEMPLATE',
  '.gitlab/issue_template',
];
const CONFIG_FILES = TEMPLATE_DIRS.filter((d) => !d.startsWith('.gitlab')).flatMap((d) => [`${d}/config.yaml`, `${d}/config.yml`]);
const FIELD_TYPES = new Set(['markdown', 'textarea', 'input', 'dropdown', 'checkboxes']);

type Yaml = Record<string, unknown>;
const isObj = (v: unknown): v is Yaml => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

function labelsOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(str).filter((s) => s !== '');
  return str(v)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A template file as Forgejo's issue_template.Unmarshal reads it; null when invalid (skipped). */
function parseTemplate(fileName: string, text: string) {
  let meta: Yaml;
  let content = '';
  let fields: unknown[] | null = null;
  try {
    if (/\.md$/i.test(fileName)) {
      const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
      if (!m) return null;
      const parsed = yaml.load(m[1]);
      if (!isObj(parsed)) return null;
      meta = parsed;
      content = m[2];
    } else {
      const parsed = yaml.load(text);
      if (!isObj(parsed)) return null;
      meta = parsed;
      if (!Array.isArray(meta.body) || meta.body.length === 0) return null;
      fields = meta.body.map((f) => {
        if (!isObj(f) || !FIELD_TYPES.has(str(f.type))) throw new TypeError('invalid field');
        return {
          type: str(f.type),
          id: str(f.id),
          attributes: isObj(f.attributes) ? f.attributes : {},
          validations: isObj(f.validations) ? f.validations : {},
          visible: Array.isArray(f.visible) ? f.visible.map(str) : null,
        };
      });
    }
  } catch (e) {
    if (e instanceof yaml.YAMLException || e instanceof TypeError) return null;
    throw e;
  }
  const about = str(meta.about) || str(meta.description);
  if (str(meta.name) === '' || about === '') return null;
  return {
    name: str(meta.name),
    title: str(meta.title),
    about,
    labels: labelsOf(meta.labels),
    ref: str(meta.ref),
    content,
    body: fields,
    file_name: fileName,
  };
}

export const issueTemplates: Handler = async (c) => {
  const g = gitCtx(c);
  const commit = await headCommit(g, c);
  const out = [];
  if (commit) {
    for (const dir of TEMPLATE_DIRS) {
      const tree = await readObject(g.path, `${commit}:${dir}`);
      if (tree?.type !== 'tree') continue;
      for (const e of (await readTree(g.path, tree.oid)) ?? []) {
        if (e.type !== 'blob' || !/\.(md|ya?ml)$/i.test(e.name) || /^config\.ya?ml$/i.test(e.name)) continue;
        const blob = await readObject(g.path, e.oid);
        const t = blob && parseTemplate(e.name, blob.content.toString('utf8'));
        if (t) out.push(t);
      }
    }
  }
  return json(200, out);
};

const DEFAULT_CONFIG = { blank_issues_enabled: true, contact_links: [] as { name: string; url: string; about: string }[] };

/** The first config file found, parsed and validated; Forgejo's messages for what is wrong. */
async function issueConfig(c: RequestState): Promise<{ config: typeof DEFAULT_CONFIG; error: string | null }> {
  const g = gitCtx(c);
  const commit = await headCommit(g, c);
  if (!commit) return { config: DEFAULT_CONFIG, error: null };
  for (const file of CONFIG_FILES) {
    const blob = await readObject(g.path, `${commit}:${file}`);
    if (blob?.type !== 'blob') continue;
    let parsed: unknown;
    try {
      parsed = yaml.load(blob.content.toString('utf8'));
    } catch (e) {
      if (e instanceof yaml.YAMLException) return { config: DEFAULT_CONFIG, error: e.message };
      throw e;
    }
    const doc = isObj(parsed) ? parsed : {};
    const links = Array.isArray(doc.contact_links)
      ? doc.contact_links.map((l) =>
          isObj(l) ? { name: str(l.name), url: str(l.url), about: str(l.about) } : { name: '', url: '', about: '' },
        )
      : [];
    const config = {
      blank_issues_enabled: typeof doc.blank_issues_enabled === 'boolean' ? doc.blank_issues_enabled : true,
      contact_links: links,
    };
    for (const [i, l] of links.entries()) {
      for (const key of ['name', 'url', 'about'] as const)
        if (l[key] === '') return { config: DEFAULT_CONFIG, error: `contact_link at position ${i + 1} is missing ${key} key` };
      if (!URL.canParse(l.url)) return { config: DEFAULT_CONFIG, error: `${l.url} is not a valid URL` };
    }
    return { config, error: null };
  }
  return { config: DEFAULT_CONFIG, error: null };
}

export const getIssueConfig: Handler = async (c) => json(200, (await issueConfig(c)).config);

export const validateIssueConfig: Handler = async (c) => {
  const { error } = await issueConfig(c);
  return json(200, { valid: error === null, message: error ?? '' });
};

// --- signing keys -------------------------------------------------------------------------------

/** No signing key is configured: Forgejo writes an empty body for the GPG key ... */
export const signingKeyGpg: Handler = async () => ({ status: 200, body: '', type: 'text/plain; charset=utf-8' });

/** ... and answers 404 for the SSH key. */
export const signingKeySsh: Handler = async () => {
  throw notFound();
};

/** This family's handlers; `routes.table.ts` names each `repoMeta.<key>`. */
export const handlers = {
  languages,
  editorconfig,
  issueTemplates,
  getIssueConfig,
  validateIssueConfig,
  signingKeyGpg,
  getSigningKeyGpg: signingKeyGpg,
  signingKeySsh,
} satisfies Record<string, Handler<never, never>>;
