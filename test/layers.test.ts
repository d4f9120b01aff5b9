// Imports point down only: the layers of README's "How it fits together", from the top:
//   entry      cli.ts, cli-admin.ts, server.ts
//   table      routes.table.ts, table/ (the table's types, matrix and OpenAPI), interpreter.ts
//   guards     guards/
//   handlers   handlers/, and transports/ (git over HTTP and SSH, LFS, the package registries' HTTP side)
//   lib        lib/ (one folder per domain; lib/<domain>/api/: its converters to Forgejo's API types)
//   model      model/, config.ts
//   git        git/
// A module may import its own layer or any layer below. The one arrow upwards the design wants: the
// table machinery names the handlers (handlers/index.ts), which only it and the entry points import.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ts from 'typescript';
import { routes } from '../routes.table.ts';
import { routerPath } from '../interpreter.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const LAYERS = ['entry', 'table', 'guards', 'handlers', 'lib', 'model', 'git'] as const;
type Layer = (typeof LAYERS)[number];

function layerOf(file: string): Layer | null {
  if (['cli.ts', 'cli-admin.ts', 'server.ts'].includes(file)) return 'entry';
  if (file === 'routes.table.ts' || file === 'interpreter.ts' || file.startsWith('table/')) return 'table';
  if (file.startsWith('guards/')) return 'guards';
  if (file.startsWith('handlers/') || file.startsWith('transports/')) return 'handlers';
  if (file.startsWith('lib/')) return 'lib';
  if (file.startsWith('model/') || file === 'config.ts') return 'model';
  if (file.startsWith('git/')) return 'git';
  return null;
}

/** Every import of the application's sources (not tests, benchmarks or tools), resolved to a file. */
function imports(): { from: string; to: string }[] {
  const files = execFileSync('git', ['ls-files', '*.ts'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && layerOf(f) !== null && fs.existsSync(path.join(root, f)));
  const out: { from: string; to: string }[] = [];
  for (const from of files) {
    const text = fs.readFileSync(path.join(root, from), 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      out.push({ from, to: path.normalize(path.join(path.dirname(from), m[1]!)) });
    }
  }
  return out;
}

test('every import points to its own layer or one below', () => {
  const rank = (f: string) => LAYERS.indexOf(layerOf(f)!);
  const upwards = imports()
    .filter(({ from, to }) => layerOf(to) !== null && rank(to) < rank(from))
    .filter(({ from, to }) => !(layerOf(from) === 'table' && to === 'handlers/index.ts'))
    .map(({ from, to }) => `${from} -> ${to}`);
  assert.equal(upwards, []);
});

/** The files of the root: the entry points, the table and its interpreter, the configuration; every other module sits in its layer's folder. */
const ROOT_FILES = ['cli.ts', 'cli-admin.ts', 'server.ts', 'interpreter.ts', 'routes.table.ts', 'config.ts'];

test('no .ts file sits at the root but the entry points, the table, its interpreter and config.ts', () => {
  const atRoot = execFileSync('git', ['ls-files', '*.ts'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.includes('/') && fs.existsSync(path.join(root, f)));
  assert.ok(atRoot.includes('server.ts'));
  assert.equal(
    atRoot.filter((f) => !ROOT_FILES.includes(f)),
    [],
  );
});

test('handlers/index.ts is imported by the table machinery and the entry points only', () => {
  const importers = imports()
    .filter(({ to }) => to === 'handlers/index.ts')
    .map(({ from }) => from);
  assert.ok(importers.length > 0);
  assert.equal(
    importers.filter((f) => !['table', 'entry'].includes(layerOf(f)!)),
    [],
  );
});

/** Folders of lib/ that every domain may use directly and that never use a domain. */
const PLUMBING = new Set(['http', 'auth', 'db', 'runtime']);

/**
 * Imports that break lib/'s domain rule: a domain reaches another domain only through that domain's
 * index.ts, and plumbing never imports a domain.
 */
function domainBreaches(edges: { from: string; to: string }[]): string[] {
  const folder = (f: string) => (/^lib\/[a-z-]+\//.test(f) ? f.split('/')[1]! : null);
  return edges.flatMap(({ from, to }) => {
    const a = folder(from);
    const b = folder(to);
    if (a === null || b === null || a === b || PLUMBING.has(b)) return [];
    if (PLUMBING.has(a)) return [`${from} -> ${to} (plumbing imports a domain)`];
    return to === `lib/${b}/index.ts` ? [] : [`${from} -> ${to} (not through lib/${b}/index.ts)`];
  });
}

test('a domain of lib/ imports another only through its index.ts; plumbing imports no domain', () => {
  assert.equal(domainBreaches(imports()), []);
});

test('the domain rule sees a breach when there is one', () => {
  assert.equal(
    domainBreaches([
      { from: 'lib/issues/edit.ts', to: 'lib/repos/repos.ts' },
      { from: 'lib/issues/edit.ts', to: 'lib/repos/index.ts' },
      { from: 'lib/issues/edit.ts', to: 'lib/http/errors.ts' },
      { from: 'lib/http/request-body.ts', to: 'lib/attachments/index.ts' },
      { from: 'lib/issues/edit.ts', to: 'lib/issues/query.ts' },
      { from: 'handlers/issues.ts', to: 'lib/repos/repos.ts' },
    ]),
    [
      'lib/issues/edit.ts -> lib/repos/repos.ts (not through lib/repos/index.ts)',
      'lib/http/request-body.ts -> lib/attachments/index.ts (plumbing imports a domain)',
    ],
  );
});

test('the check sees an arrow upwards when there is one', () => {
  // The rank order itself, so that a broken classification cannot pass silently.
  assert.ok(LAYERS.indexOf('lib') > LAYERS.indexOf('guards'));
  assert.is(layerOf('lib/repos/api/repo.ts'), 'lib');
  assert.is(layerOf('model/issue.ts'), 'model');
  assert.is(layerOf('test/layers.test.ts'), null);
  assert.is(layerOf('transports/registries/npm.ts'), 'handlers');
  assert.ok(LAYERS.indexOf('handlers') < LAYERS.indexOf('lib'), 'lib/ may not import transports/');
  assert.ok(imports().some(({ from, to }) => from === 'lib/repos/api/repo-json.ts' && to === 'lib/repos/api/repo.ts'));
});

/**
 * The converters of lib/<domain>/api/: every exported function declares its return type,
 * and none is the untyped `Record<string, unknown>`, so that tsc checks each field against the
 * schema type of model/schemas/ the converter returns.
 */
function untypedConverters(files: { name: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { name, text } of files) {
    const src = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionDeclaration(node) && node.name && node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
        if (!node.type) out.push(`${name}: ${node.name.text} declares no return type`);
        else if (/Record<\s*string\s*,\s*unknown\s*>/.test(node.type.getText(src)))
          out.push(`${name}: ${node.name.text} returns Record<string, unknown>`);
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
    if (/Record<\s*string\s*,\s*unknown\s*>/.test(text)) out.push(`${name}: names Record<string, unknown>`);
  }
  return out;
}

const apiFiles = () =>
  fs
    .readdirSync(path.join(root, 'lib'), { recursive: true, encoding: 'utf8' })
    .filter((f) => /^[a-z-]+\/api\/[a-z-]+\.ts$/.test(f))
    .map((f) => ({ name: `lib/${f}`, text: fs.readFileSync(path.join(root, 'lib', f), 'utf8') }));

test('every converter in lib/<domain>/api declares its return type, never Record<string, unknown>', () => {
  const files = apiFiles();
  assert.ok(files.length > 10);
  assert.equal(untypedConverters(files), []);
});

test('the converter check sees an untyped converter when there is one', () => {
  const bad = [
    { name: 'a.ts', text: 'export function toApiX(x: number): Record<string, unknown> { return { x }; }' },
    { name: 'b.ts', text: 'export async function xsToApi(xs: number[]) { return xs; }' },
    { name: 'c.ts', text: 'const m = new Map<number, Record<string, unknown>>();' },
    { name: 'd.ts', text: 'export function toApiY(y: number): Wire<Y> { return { y }; }' },
  ];
  assert.equal(untypedConverters(bad), [
    'a.ts: toApiX returns Record<string, unknown>',
    'a.ts: names Record<string, unknown>',
    'b.ts: xsToApi declares no return type',
    'c.ts: names Record<string, unknown>',
  ]);
});

/**
 * The two row shapes: a row model/raw.ts reads for an answer without the ORM is declared `Plain<T>`
 * (read-only, never flushed), so its type tells it from a managed entity `T`. Every exported function
 * of the file named `plain…` declares a return type that names `Plain<`.
 */
function plainShapeBreaches(name: string, text: string): string[] {
  const out: string[] = [];
  const src = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  for (const node of src.statements) {
    if (!ts.isFunctionDeclaration(node) || !node.name?.text.startsWith('plain')) continue;
    if (!node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (!node.type || !/\bPlain</.test(node.type.getText(src))) out.push(`${name}: ${node.name.text} is not declared to return Plain<T>`);
  }
  return out;
}

test('model/raw.ts declares its plain rows Plain<T>, the type that tells them from managed entities', () => {
  const text = fs.readFileSync(path.join(root, 'model/raw.ts'), 'utf8');
  assert.match(text, /^export type Plain<T> = Readonly<T>;$/m);
  for (const f of ['plainRows', 'plainPrefixed']) assert.match(text, new RegExp(`export function ${f}\\b`));
  assert.equal(plainShapeBreaches('model/raw.ts', text), []);
});

test('the row-shape check sees a plain row typed as the entity when there is one', () => {
  const text = `export function plainRows<T>(rows: unknown[]): T[] { return rows as T[]; }
export function plainOne<T>(row: unknown) { return row as T; }
export function plainPrefixed<T>(row: unknown): Plain<T> | null { return row as Plain<T>; }
function plainInner<T>(row: unknown): T { return row as T; }`;
  assert.equal(plainShapeBreaches('x.ts', text), [
    'x.ts: plainRows is not declared to return Plain<T>',
    'x.ts: plainOne is not declared to return Plain<T>',
  ]);
});

/**
 * Module-level maps keyed by an EntityManager: state of one request kept beside the request instead of
 * in it. What a request reads ahead or carries between steps lives in its RequestState (`ahead`,
 * lib/http/read-ahead.ts), made and dropped with the request. lib/db/counters.ts is left to the change
 * that removes its queues.
 */
function requestStateOutside(files: { name: string; text: string }[]): string[] {
  return files.flatMap(({ name, text }) =>
    [...text.matchAll(/\b(?:Weak)?Map\s*<\s*(?:EntityManager|SqlEntityManager|RequestState\[['"]em['"]\])\b/g)].map(
      (m) => `${name}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`,
    ),
  );
}

const sourceFiles = () =>
  execFileSync('git', ['ls-files', '*.ts'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && layerOf(f) !== null && fs.existsSync(path.join(root, f)))
    .map((f) => ({ name: f, text: fs.readFileSync(path.join(root, f), 'utf8') }));

test('no module keeps request state in a map keyed by EntityManager (it lives in RequestState)', () => {
  const files = sourceFiles();
  assert.ok(files.length > 100);
  assert.equal(requestStateOutside(files), []);
});

test('the request-state check sees a map keyed by EntityManager when there is one', () => {
  assert.equal(
    requestStateOutside([
      { name: 'a.ts', text: 'const kept = new WeakMap<EntityManager, Map<string, unknown>>();' },
      { name: 'b.ts', text: '\nconst m = new Map<EntityManager, number>();\nconst ok = new WeakMap<Context, number>();' },
      { name: 'c.ts', text: 'const ok = new WeakMap<Orm, Clock>();' },
    ]),
    ['a.ts:1: WeakMap<EntityManager', 'b.ts:2: Map<EntityManager'],
  );
});

/**
 * Routing knowledge outside the table: a row's path as the spec or the router spells it, a literal API
 * path naming a row's first segment ('/api/v1/user', '/api/v1/repos/'), or a regular expression
 * anchored on one of the table's path segments (`/^\/issues\/?$/`), in the code (not the comments) of
 * `files`. A template that builds a URL from values (a link in an answer) is not a pattern. What authentication or a transaction reads ahead for a route is declared by its row.
 */
function routingOutsideTable(files: { name: string; text: string }[], table: readonly { path: string }[]): string[] {
  const spellings = new Set<string>();
  const firsts = new Set<string>();
  const segments = new Set<string>();
  for (const { path: p } of table) {
    if (p.includes('{')) spellings.add(p).add(routerPath(p));
    const segs = p.split('/').slice(1);
    if (segs[0] && /^[a-z][a-z_-]*$/.test(segs[0])) firsts.add(segs[0]);
    for (const seg of segs) if (/^[a-z][a-z_-]*$/.test(seg)) segments.add(seg);
  }
  const out: string[] = [];
  for (const { name, text } of files) {
    const src = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node) => `${name}:${src.getLineAndCharacterOfPosition(node.getStart(src)).line + 1}`;
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
        const value = node.text;
        for (const p of spellings) if (value.includes(p)) out.push(`${where(node)}: ${p}`);
        // A whole literal only: a template that builds a URL from values (a link, web-raw's rewrite) matches nothing.
        const api = ts.isStringLiteralLike(node) ? /^\/api\/v1\/([a-z][a-z_-]*)/.exec(value) : null;
        if (api && firsts.has(api[1]!)) out.push(`${where(node)}: ${value}`);
      } else if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const re = node.getText(src);
        const anchored = /^\/\^\\\/([a-z][a-z_-]*)/.exec(re);
        if (anchored && segments.has(anchored[1]!)) out.push(`${where(node)}: ${re}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  return out;
}

test('no path pattern of the table appears in server.ts or lib/', () => {
  const files = sourceFiles().filter((f) => f.name === 'server.ts' || f.name.startsWith('lib/'));
  assert.ok(files.length > 100);
  assert.equal(routingOutsideTable(files, routes), []);
});

test('the routing check sees a path pattern when there is one', () => {
  const table = [{ path: '/user' }, { path: '/repos/{username}/{reponame}/issues' }, { path: '/version' }];
  assert.equal(
    routingOutsideTable(
      [
        { name: 'a.ts', text: 'const NEW_ISSUE = /^\\/issues\\/?$/;\nconst ok = /^\\/refs\\//;' },
        {
          name: 'b.ts',
          text: "if (path.startsWith('/api/v1/repos/')) x();\n// '/api/v1/user' in a comment\nconst u = path === '/api/v1/user';",
        },
        { name: 'c.ts', text: "const r = '/repos/:username/:reponame/issues';\nconst url = `${base}/repos/${o}/${n}/issues`;" },
      ],
      table,
    ),
    ['a.ts:1: /^\\/issues\\/?$/', 'b.ts:1: /api/v1/repos/', 'b.ts:3: /api/v1/user', 'c.ts:1: /repos/:username/:reponame/issues'],
  );
});

/** The application's sources (not tests, benchmarks or tools), with their text. */
const appFiles = () =>
  execFileSync('git', ['ls-files', '*.ts'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && layerOf(f) !== null && fs.existsSync(path.join(root, f)))
    .map((name) => ({ name, text: fs.readFileSync(path.join(root, name), 'utf8') }));

/**
 * Underscore-prefixed member names our code may use: fields of documents on the wire (npm's `_id` and
 * `_attachments`, Forgejo's `_links`) and the methods Node's stream classes document for implementers.
 */
const OWN_UNDERSCORE_MEMBERS = new Set([
  '_id',
  '_attachments',
  '_links',
  '_write',
  '_writev',
  '_final',
  '_destroy',
  '_read',
  '_transform',
  '_flush',
]);
/** Classes of the platform our classes may extend. */
const GLOBAL_BASES = new Set(['Error', 'TypeError', 'RangeError', 'Map', 'Set', 'EventTarget']);

const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
const isPackage = (spec: string) => !spec.startsWith('.') && !spec.startsWith('/') && !spec.startsWith('node:');
/** A module path inside a package's build or sources rather than one of its entry points. */
const INSIDE = /^(?:@[^/]+\/)?[^/]+\/(?:.+\/)?(?:lib|dist|src|build|internal|cjs|esm)(?:\/|$)/;
const insidePackage = (spec: string) => isPackage(spec) && INSIDE.test(spec);

/**
 * References of our code to a dependency's private parts: underscore-prefixed members (read, written,
 * declared in a type that mirrors another package's object, or destructured), prototypes reached or
 * patched, classes extending something other than a named import, a class of ours or a platform class,
 * `require`/`createRequire` of a file inside a package, and imports of a package's lib/ or dist/ files.
 */
function privateReferences(files: { name: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { name, text } of files) {
    const src = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
    const line = (n: ts.Node) => src.getLineAndCharacterOfPosition(n.getStart(src)).line + 1;
    const at = (n: ts.Node, what: string) => out.push(`${name}:${line(n)}: ${what}`);
    const classes = new Set<string>();
    const named = new Set<string>();
    const underscored = (n: ts.Node | undefined) => {
      if (!n) return null;
      const id = ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) ? n.text : null;
      return id?.startsWith('_') && id !== '_' && !OWN_UNDERSCORE_MEMBERS.has(id) ? id : null;
    };
    const required = (call: ts.CallExpression) => {
      const arg = call.arguments[0];
      if (arg && ts.isStringLiteralLike(arg) && insidePackage(arg.text)) at(call, `requires ${arg.text}, a file inside a package`);
    };
    const isRequire = (e: ts.Expression): boolean =>
      (ts.isIdentifier(e) && e.text === 'require') ||
      (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'createRequire') ||
      (ts.isPropertyAccessExpression(e) && e.name.text === 'resolve' && isRequire(e.expression));
    const collect = (node: ts.Node) => {
      if (ts.isClassDeclaration(node) && node.name) classes.add(node.name.text);
      if (ts.isImportDeclaration(node) && node.importClause) {
        if (node.importClause.name) named.add(node.importClause.name.text);
        const b = node.importClause.namedBindings;
        if (b && ts.isNamedImports(b)) for (const e of b.elements) named.add(e.name.text);
      }
      ts.forEachChild(node, collect);
    };
    collect(src);
    const visit = (node: ts.Node) => {
      let member: string | null = null;
      if (ts.isPropertyAccessExpression(node)) member = underscored(node.name);
      else if (ts.isElementAccessExpression(node)) member = underscored(node.argumentExpression);
      else if (ts.isPropertySignature(node) || ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node) || ts.isMethodSignature(node))
        member = underscored(node.name);
      else if (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) member = underscored(node.name);
      else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) member = underscored(node.propertyName ?? node.name);
      if (member) at(node, `private member ${member}`);
      if (ts.isPropertyAccessExpression(node) && node.name.text === 'prototype') at(node, 'reaches a prototype');
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const m = node.expression.name.text;
        if (['getPrototypeOf', 'setPrototypeOf', '__proto__'].includes(m)) at(node, `reaches a prototype (${m})`);
      }
      if (ts.isCallExpression(node) && isRequire(node.expression)) required(node);
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        if (insidePackage(node.moduleSpecifier.text)) at(node, `imports ${node.moduleSpecifier.text}, a file inside a package`);
      }
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const arg = node.arguments[0];
        if (arg && ts.isStringLiteralLike(arg) && insidePackage(arg.text)) at(node, `imports ${arg.text}, a file inside a package`);
      }
      if (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ExtendsKeyword && ts.isClassLike(node.parent)) {
        const base = node.types[0]!.expression;
        const ok = ts.isIdentifier(base) && (classes.has(base.text) || named.has(base.text) || GLOBAL_BASES.has(base.text));
        if (!ok) at(node, `extends ${base.getText(src)}, which is neither a named import nor a class of ours`);
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  return [...new Set(out)];
}

test('no code of ours reaches a private member, a prototype or an inner file of a dependency', () => {
  const files = appFiles();
  assert.ok(files.length > 100);
  assert.equal(privateReferences(files), []);
});

test('the private-reference check sees each kind of reference when there is one', () => {
  const bad = [
    { name: 'a.ts', text: 'const r = query._result; em._schema = x;' },
    { name: 'b.ts', text: "const { _parsers, fields } = r; const p = r['_getRows'];" },
    { name: 'c.ts', text: 'interface Shape { _prebuiltEmptyResultObject: unknown }' },
    { name: 'd.ts', text: 'const proto = Object.getPrototypeOf(knex.client); proto.x = 1; Foo.prototype.y = 2;' },
    { name: 'e.ts', text: "import { createRequire } from 'node:module';\nconst u = createRequire(import.meta.url)('pg/lib/utils.js');" },
    { name: 'f.ts', text: "import x from 'knex/lib/dialects/postgres/index.js';\nconst y = await import('pg/lib/query.js');" },
    {
      name: 'g.ts',
      text: 'import pg from "pg";\nconst Query = pg.Query as unknown as new () => object;\nclass Named extends Query {}\nclass Other extends pg.Query {}',
    },
  ];
  assert.equal(privateReferences(bad), [
    'a.ts:1: private member _result',
    'a.ts:1: private member _schema',
    'b.ts:1: private member _parsers',
    'b.ts:1: private member _getRows',
    'c.ts:1: private member _prebuiltEmptyResultObject',
    'd.ts:1: reaches a prototype (getPrototypeOf)',
    'd.ts:1: reaches a prototype',
    'e.ts:2: requires pg/lib/utils.js, a file inside a package',
    'f.ts:1: imports knex/lib/dialects/postgres/index.js, a file inside a package',
    'f.ts:2: imports pg/lib/query.js, a file inside a package',
    'g.ts:3: extends Query, which is neither a named import nor a class of ours',
    'g.ts:4: extends pg.Query, which is neither a named import nor a class of ours',
  ]);
  const fine = [
    { name: 'h.ts', text: "const { id: _id, ...rest } = row; onEvent('x', (em, _ctx) => 1); const doc = { _id: 'a', _links: {} };" },
    {
      name: 'i.ts',
      text: "import { Writable } from 'node:stream';\nclass W extends Writable { override _write() {} }\nclass E extends Error {}",
    },
    {
      name: 'j.ts',
      text: "import { createRequire } from 'node:module';\ncreateRequire(import.meta.url).resolve('swagger-ui-dist/package.json');",
    },
  ];
  assert.equal(privateReferences(fine), []);
});

/**
 * Calls that reach the database's connection or knex directly (`getConnection(`, `getKnex(`), in the
 * code (not the comments) of `files`: besides entities, a statement goes through model/sql.ts, and the
 * pool's plumbing lives in model/connection.ts, so only model/ calls them.
 */
function connectionCalls(files: { name: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { name, text } of files) {
    const src = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const m = node.expression.name.text;
        if (m === 'getConnection' || m === 'getKnex')
          out.push(`${name}:${src.getLineAndCharacterOfPosition(node.expression.name.getStart(src)).line + 1}: ${m}(`);
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  return out.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

test('no file outside model/ calls getConnection( or getKnex( (statements go through model/sql.ts)', () => {
  const files = appFiles();
  assert.ok(files.length > 100);
  assert.equal(connectionCalls(files.filter((f) => !f.name.startsWith('model/'))), []);
});

test('the connection check sees a direct call when there is one', () => {
  assert.equal(
    connectionCalls([
      { name: 'a.ts', text: "await em.getConnection().execute('select 1');" },
      {
        name: 'b.ts',
        text: "// em.getConnection() in a comment\nconst k = orm.em\n  .getConnection()\n  .getKnex();\nconst s = 'getKnex()';",
      },
      { name: 'c.ts', text: 'await executeSql(em, sql`select 1`);' },
    ]),
    ['a.ts:1: getConnection(', 'b.ts:3: getConnection(', 'b.ts:4: getKnex('],
  );
});

/** A comment that cites an issue by its number, the word followed by digits: a comment states the invariant instead. */
const ISSUE_CITATION = /\(?\b[Ii]ssues? [0-9]+/;

/** Comments of `files` that cite an issue number, found by the scanner (strings and code are not comments). */
function issueCitations(files: { name: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { name, text } of files) {
    const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
    for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
      // A template's middle and tail are only scanned as such when asked, after its `}`.
      if (kind === ts.SyntaxKind.CloseBraceToken) kind = scanner.reScanTemplateToken(false);
      if (kind !== ts.SyntaxKind.SingleLineCommentTrivia && kind !== ts.SyntaxKind.MultiLineCommentTrivia) continue;
      const comment = scanner.getTokenText();
      const m = ISSUE_CITATION.exec(comment);
      if (m) out.push(`${name}:${text.slice(0, scanner.getTokenStart() + m.index).split('\n').length}: ${m[0]}`);
    }
  }
  return out;
}

test('no comment cites an issue number (it states the invariant), in sources, tests, benchmarks and tools', () => {
  const files = execFileSync('git', ['ls-files', '*.ts'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && fs.existsSync(path.join(root, f)))
    .map((name) => ({ name, text: fs.readFileSync(path.join(root, name), 'utf8') }));
  assert.ok(files.some((f) => f.name.startsWith('test/')) && files.some((f) => f.name.startsWith('bench/')));
  assert.equal(issueCitations(files), []);
});

test('the citation check sees an issue number in a comment, and only there', () => {
  assert.equal(
    issueCitations([
      { name: 'a.ts', text: '// Kept answers (issue 10): fresh.\nconst x = 1;' },
      { name: 'b.ts', text: "const t = 'Issue 1';\n/**\n * Issues 9 and 10 asked for it.\n */\nconst u = `${t} issue 404`;" },
      { name: 'c.ts', text: 'const s = `a ${b} c`; // see (issue 3, item 2)\nconst r = /issue 5/;' },
      { name: 'd.ts', text: '// an issue and its 3 comments; issue numbers are per repository' },
    ]),
    ['a.ts:1: (issue 10', 'b.ts:3: Issues 9', 'c.ts:1: (issue 3'],
  );
});

/** Packages the application's sources load at run time (`import type` is erased; `import { type X }` is not). */
function runtimePackages(files: { name: string; text: string }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { name, text } of files) {
    const src = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      let spec: string | null = null;
      if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier))
        spec = node.moduleSpecifier.text;
      if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
        spec = node.moduleSpecifier.text;
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const arg = node.arguments[0];
        if (arg && ts.isStringLiteralLike(arg)) spec = arg.text;
      }
      if (spec !== null && isPackage(spec) && !out.has(packageOf(spec))) out.set(packageOf(spec), name);
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  return out;
}

test('every package the application loads at run time is in dependencies', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const used = runtimePackages(appFiles());
  assert.ok(used.has('koa') && used.has('@mikro-orm/core'));
  const missing = [...used].filter(([p]) => !(p in pkg.dependencies)).map(([p, from]) => `${p} (${from})`);
  assert.equal(missing, []);
  assert.equal(
    [
      ...runtimePackages([
        {
          name: 'k.ts',
          text: "import type { X } from 'a';\nimport { type Y } from 'b';\nimport c from '@s/c/sub';\nexport * from 'd';\nawait import('e');",
        },
      ]).keys(),
    ],
    ['b', '@s/c', 'd', 'e'],
  );
});

test.run();
