// The npm registry (Forgejo routers/api/packages/npm, modules/packages/npm), under <ROOT>api/packages/<owner>/npm/.
// A name is `name`, `@scope/name` or `@scope%2fname`:
//   GET    <name>                                  the package document (every version, dist-tags)
//   PUT    <name>                                  publish (npm's JSON with a base64 `_attachments` tarball; 201)
//   GET    <name>/-/<version>/<file>, <name>/-/<file>   the tarball
//   DELETE <name>/-/<version>/<file>/-rev/<rev>    unpublish a version; DELETE <name>/-rev/<rev> the package
//   PUT    <name>/-rev/<rev>                       the packument without the versions to unpublish (`npm unpublish name@version`)
//   DELETE api/packages/<owner>/npm/<name>/-/<version>/<file>/-rev/<rev>   the same tarball, as npm names it when
//          it resolves the tarball's path against a default registry that is not this one (a scope's registry)
//   GET    -/package/<name>/dist-tags, PUT/DELETE -/package/<name>/dist-tags/<tag>
//   GET    -/v1/search?text=&from=&size=
// Errors are JSON `{"error": message}`. A version is stored with Forgejo's npm metadata; a dist-tag is an
// `npm.tag` property of the version it points to.
import { findVersion, removePackageVersion } from '../packages.ts';
import { emptyAnswer, readCapped, RegistryError, type Operation, type Registry, type RegistryRequest } from './common.ts';
import { TYPE, checkTag, isRecord } from './npm-metadata.ts';
import { publish } from './npm-publish.ts';
import { packageVersions, listTags, addTag, removeTag, setTag, tagsOf } from './npm-tags.ts';
import { packageDocument, download, downloadByName, search } from './npm-read.ts';

// ---------------------------------------------------------------------------------------------
// Removal

async function removeVersion(r: RegistryRequest, name: string, version: string): Promise<void> {
  await r.em.transactional(async (tx) => {
    const found = await findVersion(tx, { ownerId: r.owner.id, type: TYPE, name, version });
    if (!found) throw new RegistryError(404, 'package does not exist');
    await removePackageVersion(tx, r.deps.config, found.version);
  });
  emptyAnswer(r.ctx, 200);
}

async function removePackage(r: RegistryRequest, name: string): Promise<void> {
  await r.em.transactional(async (tx) => {
    const found = await packageVersions(tx, r.owner.id, name);
    if (!found) throw new RegistryError(404, 'package does not exist');
    for (const v of found.versions) await removePackageVersion(tx, r.deps.config, v);
  });
  emptyAnswer(r.ctx, 200);
}

/** The versions and dist-tags of a packument npm sends back; 400 when it is not one of `name`. */
function parsePackument(body: Buffer, name: string): { versions: Set<string>; tags: [string, string][] } {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch (e) {
    if (e instanceof SyntaxError || e instanceof RangeError) throw new RegistryError(400, 'package is invalid');
    throw e;
  }
  if (!isRecord(doc) || !isRecord(doc.versions)) throw new RegistryError(400, 'package is invalid');
  const named = typeof doc.name === 'string' ? doc.name : typeof doc._id === 'string' ? doc._id : '';
  if (named.toLowerCase() !== name.toLowerCase()) throw new RegistryError(400, 'package name is invalid');
  const tags = isRecord(doc['dist-tags'])
    ? Object.entries(doc['dist-tags']).filter((e): e is [string, string] => typeof e[1] === 'string')
    : [];
  for (const [tag] of tags) checkTag(tag);
  return { versions: new Set(Object.keys(doc.versions).map((v) => v.toLowerCase())), tags };
}

/**
 * `PUT <name>/-rev/<rev>`: npm's unpublish of one version (npm 7 and later) sends the package document
 * it read, without that version, and then deletes the tarball. As on npmjs.org, the document is what
 * the package now holds: each stored version it leaves out is unpublished with its files (a package
 * left with none goes), and its dist-tags that name a version still stored point there. Tags it does
 * not list, and versions it adds, are left alone (publishing is `PUT <name>`).
 */
async function updatePackument(r: RegistryRequest, name: string): Promise<void> {
  const sent = parsePackument(await readCapped(r), name);
  await r.em.transactional(async (tx) => {
    const found = await packageVersions(tx, r.owner.id, name);
    if (!found) throw new RegistryError(404, 'package does not exist');
    const dropped = found.versions.filter((v) => !sent.versions.has(v.lowerVersion));
    for (const v of dropped) await removePackageVersion(tx, r.deps.config, v);
    const kept = new Map(found.versions.filter((v) => !dropped.includes(v)).map((v) => [v.lowerVersion, v]));
    const current = await tagsOf(tx, [...kept.values()]);
    for (const [tag, version] of sent.tags) {
      const target = kept.get(version.toLowerCase());
      if (target && current.get(tag)?.id !== target.id) await setTag(tx, found.pkg.id, target.id, tag, false);
    }
  });
  emptyAnswer(r.ctx, 200);
}

// ---------------------------------------------------------------------------------------------
// Routing

/** The package name at the head of `parts` (`@scope`, `name` or `@scope/name` from `%2f`) and what follows. */
function splitName(parts: string[]): [string, string[]] | null {
  const [first, second] = parts;
  if (!first || first === '-') return null;
  if (first.startsWith('@') && !first.includes('/')) return second ? [`${first}/${second}`, parts.slice(2)] : null;
  return [first, parts.slice(1)];
}

const read = (run: Operation['run']): Operation => ({ level: 'read', run });
const write = (run: Operation['run']): Operation => ({ level: 'write', run });

function route(method: string, parts: string[]): Operation | null {
  const get = method === 'GET' || method === 'HEAD';
  if (parts[0] === '-') {
    if (parts.length === 3 && parts[1] === 'v1' && parts[2] === 'search') return get ? read(search) : null;
    const named = parts[1] === 'package' ? splitName(parts.slice(2)) : null;
    if (!named || named[1][0] !== 'dist-tags') return null;
    const [name, [, tag, ...extra]] = named;
    if (extra.length > 0) return null;
    if (tag === undefined) return get ? read((r) => listTags(r, name)) : null;
    if (method === 'PUT') return write((r) => addTag(r, name, tag));
    if (method === 'DELETE') return write((r) => removeTag(r, name, tag));
    return null;
  }
  // A package named `api` has no path `api/packages/...`, so the doubled path hides none of its routes.
  if (parts[0] === 'api' && parts[1] === 'packages' && parts[3] === TYPE && method === 'DELETE') {
    const inner = splitName(parts.slice(4));
    const owner = parts[2]?.toLowerCase();
    const version = inner ? tarballOf(inner[1]) : null;
    if (!inner || version === null) return null;
    return write((r) => {
      if (r.owner.lowerName !== owner) throw new RegistryError(404, 'package does not exist');
      return removeVersion(r, inner[0], version);
    });
  }
  const named = splitName(parts);
  if (!named) return null;
  const [name, rest] = named;
  if (rest.length === 0) return get ? read((r) => packageDocument(r, name)) : method === 'PUT' ? write(publish) : null;
  if (rest[0] === '-rev' && rest.length === 2) {
    if (method === 'DELETE') return write((r) => removePackage(r, name));
    if (method === 'PUT') return write((r) => updatePackument(r, name));
    return null;
  }
  if (rest[0] !== '-') return null;
  if (rest.length === 2) return get ? read((r) => downloadByName(r, name, rest[1])) : null;
  if (rest.length === 3) return get ? read((r) => download(r, name, rest[1], rest[2])) : null;
  const version = tarballOf(rest);
  if (version !== null) return method === 'DELETE' ? write((r) => removeVersion(r, name, version)) : null;
  return null;
}

/** The version of `-/<version>/<file>/-rev/<rev>` (what follows a package name), else null. */
function tarballOf(rest: string[]): string | null {
  return rest.length === 5 && rest[0] === '-' && rest[3] === '-rev' ? rest[1] : null;
}

export const npm: Registry = {
  type: TYPE,
  route,
  renderError(ctx, err) {
    ctx.status = err.status;
    ctx.body = { error: err.message };
  },
};
