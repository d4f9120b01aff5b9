// What the Maven registry keeps of a `.pom` (Forgejo modules/packages/maven/metadata.go): coordinates, name,
// description, project URL, license names and dependencies. The POM is read by a small strict XML reader:
// a document that is not well-formed (unclosed or crossed elements, stray text outside the root, an unknown
// entity) or whose root is not `<project>` is refused, as Go's xml decoder refuses it. Document type
// declarations are refused too: a POM has none, and entity expansion is not something an upload may ask for.

export interface PomDependency {
  group_id: string;
  artifact_id: string;
  version: string;
}

/** Forgejo's maven Metadata, as stored in the version's metadata. */
export interface PomMetadata {
  group_id: string;
  artifact_id: string;
  name: string;
  description: string;
  project_url: string;
  licenses: string[];
  dependencies: PomDependency[];
}

export class PomError extends Error {}

interface XmlElement {
  name: string;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;

function decodeText(s: string): string {
  return s.replace(/&([^;]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new PomError('invalid character entity');
    if (ref in ENTITIES) return ENTITIES[ref];
    const m = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(ref);
    const code = m ? Number.parseInt(m[1] ?? m[2], m[1] ? 16 : 10) : Number.NaN;
    if (!Number.isFinite(code) || code === 0 || code > 0x10ffff) throw new PomError(`invalid character entity &${ref};`);
    return String.fromCodePoint(code);
  });
}

function fail(what: string): never {
  throw new PomError(`XML syntax error: ${what}`);
}

/** Parses a whole document into its root element (attributes are checked for form, not kept). */
export function parseXml(doc: string): XmlElement {
  let i = doc.charCodeAt(0) === 0xfeff ? 1 : 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  while (i < doc.length) {
    const lt = doc.indexOf('<', i);
    const text = doc.slice(i, lt < 0 ? doc.length : lt);
    if (stack.length > 0) stack[stack.length - 1].text += decodeText(text);
    else if (text.trim() !== '') fail('text outside the root element');
    if (lt < 0) break;
    if (doc.startsWith('<!--', lt)) {
      const end = doc.indexOf('-->', lt + 4);
      if (end < 0) fail('unclosed comment');
      i = end + 3;
    } else if (doc.startsWith('<![CDATA[', lt)) {
      const end = doc.indexOf(']]>', lt + 9);
      if (end < 0 || stack.length === 0) fail('misplaced CDATA section');
      stack[stack.length - 1].text += doc.slice(lt + 9, end);
      i = end + 3;
    } else if (doc.startsWith('<?', lt)) {
      const end = doc.indexOf('?>', lt + 2);
      if (end < 0) fail('unclosed processing instruction');
      i = end + 2;
    } else if (doc.startsWith('<!', lt)) {
      fail('document type declarations are not accepted');
    } else if (doc.startsWith('</', lt)) {
      const m = NAME.exec(doc.slice(lt + 2, lt + 2 + 1024));
      const end = doc.indexOf('>', lt + 2);
      const open = stack.pop();
      if (!m || end < 0 || doc.slice(lt + 2 + m[0].length, end).trim() !== '' || !open || open.name !== m[0])
        fail(`element <${open?.name ?? ''}> closed by </${m?.[0] ?? ''}>`);
      i = end + 1;
    } else {
      const m = NAME.exec(doc.slice(lt + 1, lt + 1 + 1024));
      const end = doc.indexOf('>', lt + 1);
      if (!m || end < 0) fail('invalid start tag');
      const name = m[0];
      let attrs = doc.slice(lt + 1 + name.length, end);
      const selfClosing = attrs.endsWith('/');
      if (selfClosing) attrs = attrs.slice(0, -1);
      if (!/^(?:\s+[A-Za-z_:][-A-Za-z0-9_:.]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*$/.test(attrs)) fail(`invalid attributes of <${name}>`);
      const el: XmlElement = { name, children: [], text: '' };
      if (stack.length > 0) stack[stack.length - 1].children.push(el);
      else if (root) fail('more than one root element');
      else root = el;
      if (!selfClosing) stack.push(el);
      i = end + 1;
    }
  }
  if (!root || stack.length > 0) fail('unexpected end of document');
  return root;
}

/** The element's local name (Go's decoder matches `project` whatever its namespace prefix). */
const local = (name: string) => name.slice(name.indexOf(':') + 1);
const child = (el: XmlElement | undefined, name: string) => el?.children.find((c) => local(c.name) === name);
const all = (el: XmlElement | undefined, name: string) => el?.children.filter((c) => local(c.name) === name) ?? [];
const textOf = (el: XmlElement | undefined, name: string) => child(el, name)?.text.trim() ?? '';

function validUrl(v: string): string {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol) ? v : '';
  } catch {
    return '';
  }
}

/** Forgejo's ParsePackageMetaData. */
export function parsePom(doc: string): PomMetadata {
  const project = parseXml(doc);
  if (local(project.name) !== 'project') throw new PomError(`expected element type <project> but have <${project.name}>`);
  return {
    group_id: textOf(project, 'groupId'),
    artifact_id: textOf(project, 'artifactId'),
    name: textOf(project, 'name'),
    description: textOf(project, 'description'),
    project_url: validUrl(textOf(project, 'url')),
    licenses: all(child(project, 'licenses'), 'license')
      .map((l) => textOf(l, 'name'))
      .filter((n) => n !== ''),
    dependencies: all(child(project, 'dependencies'), 'dependency').map((d) => ({
      group_id: textOf(d, 'groupId'),
      artifact_id: textOf(d, 'artifactId'),
      version: textOf(d, 'version'),
    })),
  };
}
