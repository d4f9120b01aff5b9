// The npm registry's dist-tag routes (`npm dist-tag ls|add|rm`); the tags themselves are
// lib/packages/registries/npm-tags.ts's.
import type { IPackageVersion } from '../../model/package.ts';
import { isStorableText } from '../../model/schemas/storable.ts';
import { findVersion } from '../../lib/packages/packages.ts';
import { RegistryError, type RegistryRequest } from '../../lib/packages/registries/common.ts';
import { emptyAnswer, readCapped } from './common.ts';
import { TYPE } from '../../lib/packages/registries/npm-metadata.ts';
import { packageVersions, setTag, tagsOf } from '../../lib/packages/registries/npm-tags.ts';

export async function listTags(r: RegistryRequest, name: string): Promise<void> {
  const found = await packageVersions(r.em, r.owner.id, name);
  const tags = found ? await tagsOf(r.em, found.versions) : new Map<string, IPackageVersion>();
  r.ctx.status = 200;
  r.ctx.body = Object.fromEntries([...tags].map(([tag, v]) => [tag, v.version]));
}

export async function addTag(r: RegistryRequest, name: string, tag: string): Promise<void> {
  const text = (await readCapped(r)).toString('utf8').trim();
  // The body is the version as a JSON string; Forgejo trims the quotes.
  const version = text.replace(/^"+|"+$/g, '');
  const found =
    isStorableText(version) && version.length <= 255 && (await findVersion(r.em, { ownerId: r.owner.id, type: TYPE, name, version }));
  if (!found) throw new RegistryError(404, 'package does not exist');
  await r.em.transactional((tx) => setTag(tx, found.pkg.id, found.version.id, tag, false));
  emptyAnswer(r.ctx, 200);
}

export async function removeTag(r: RegistryRequest, name: string, tag: string): Promise<void> {
  const found = await packageVersions(r.em, r.owner.id, name);
  if (found) await r.em.transactional((tx) => setTag(tx, found.pkg.id, found.versions[0].id, tag, true));
  emptyAnswer(r.ctx, 200);
}
