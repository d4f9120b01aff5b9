// The npm registry (Forgejo routers/api/packages/npm, modules/packages/npm), under <ROOT>api/packages/<owner>/npm/.
// A name is `name`, `@scope/name` or `@scope%2fname`:
//   GET    <name>                                  the package document (every version, dist-tags)
//   PUT    <name>                                  publish (npm's JSON with a base64 `_attachments` tarball; 201)
//   GET    <name>/-/<version>/<file>, <name>/-/<file>   the tarball
//   DELETE <name>/-/<version>/<file>/-rev/<rev>    unpublish a version; DELETE <name>/-rev/<rev> the package
//   PUT    <name>/-rev/<rev>                       the packument npm sends before deleting a tarball (ignored, 200)
//   GET    -/package/<name>/dist-tags, PUT/DELETE -/package/<name>/dist-tags/<tag>
//   GET    -/v1/search?text=&from=&size=
// Errors are JSON `{"error": message}`. A version is stored with Forgejo's npm metadata; a dist-tag is an
// `npm.tag` property of the version it points to.
import { findVersion, removePackageVersion } from '../packages.ts';
import { emptyAnswer, RegistryError, type Operation, type Registry, type RegistryRequest } from './common.ts';
import { TYPE } from './npm-metadata.ts';
import { publish } from './npm-publish.ts';
import { packageVersions, listTags, addTag, removeTag } from './npm-tags.ts';
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
  const named = splitName(parts);
  if (!named) return null;
  const [name, rest] = named;
  if (rest.length === 0) return get ? read((r) => packageDocument(r, name)) : method === 'PUT' ? write(publish) : null;
  if (rest[0] === '-rev' && rest.length === 2) {
    if (method === 'DELETE') return write((r) => removePackage(r, name));
    if (method === 'PUT') return write(async (r) => emptyAnswer(r.ctx, 200));
    return null;
  }
  if (rest[0] !== '-') return null;
  if (rest.length === 2) return get ? read((r) => downloadByName(r, name, rest[1])) : null;
  if (rest.length === 3) return get ? read((r) => download(r, name, rest[1], rest[2])) : null;
  if (rest.length === 5 && rest[3] === '-rev') return method === 'DELETE' ? write((r) => removeVersion(r, name, rest[1])) : null;
  return null;
}

export const npm: Registry = {
  type: TYPE,
  route,
  renderError(ctx, err) {
    ctx.status = err.status;
    ctx.body = { error: err.message };
  },
};
