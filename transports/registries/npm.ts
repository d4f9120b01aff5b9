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
import { findVersion, removePackageVersion } from '../../lib/packages/packages.ts';
import { RegistryError, ofOwner, type Registry, type RegistryRequest } from '../../lib/packages/registries/common.ts';
import { emptyAnswer, readCapped } from './common.ts';
import { TYPE, checkTag, isRecord } from '../../lib/packages/registries/npm-metadata.ts';
import { publish } from './npm-publish.ts';
import { packageVersions, setTag, tagsOf } from '../../lib/packages/registries/npm-tags.ts';
import { listTags, addTag, removeTag } from './npm-tags.ts';
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
// Handlers

/**
 * The package name a path names from its segment at `i` on: `name`, `@scope/name` (two segments) or
 * `@scope%2fname` (one, decoded); `-` heads npm's own paths and names nothing. Returns the name and the
 * index of the segment after it, or null.
 */
export function packageNameAt(parts: readonly string[], i: number): { value: string; next: number } | null {
  const first = parts[i];
  if (!first || first === '-') return null;
  if (first.startsWith('@') && !first.includes('/')) {
    const second = parts[i + 1];
    return second ? { value: `${first}/${second}`, next: i + 2 } : null;
  }
  return { value: first, next: i + 1 };
}

export const npm: Registry = {
  type: TYPE,
  handlers: {
    search: ofOwner((r) => search(r)),
    listTags: ofOwner((r, p) => listTags(r, p.name!)),
    addTag: ofOwner((r, p) => addTag(r, p.name!, p.tag!)),
    removeTag: ofOwner((r, p) => removeTag(r, p.name!, p.tag!)),
    // The tarball's path resolved against a default registry: the owner must be the row's own.
    removeVersionByFullPath: ofOwner((r, p) => {
      if (r.owner.lowerName !== p.owner2!.toLowerCase()) throw new RegistryError(404, 'package does not exist');
      return removeVersion(r, p.name!, p.version!);
    }),
    packageDocument: ofOwner((r, p) => packageDocument(r, p.name!)),
    publish: ofOwner((r) => publish(r)),
    removePackage: ofOwner((r, p) => removePackage(r, p.name!)),
    updatePackument: ofOwner((r, p) => updatePackument(r, p.name!)),
    downloadByName: ofOwner((r, p) => downloadByName(r, p.name!, p.filename!)),
    download: ofOwner((r, p) => download(r, p.name!, p.version!, p.filename!)),
    removeVersion: ofOwner((r, p) => removeVersion(r, p.name!, p.version!)),
  },
  renderError(ctx, err) {
    ctx.status = err.status;
    ctx.body = { error: err.message };
  },
};
