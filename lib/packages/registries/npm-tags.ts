// Dist-tags of the npm registry: a tag is an `npm.tag` property of the version it points to.
import { type EntityManager } from '@mikro-orm/core';
import { PackageProperty, PackageVersion, PropertyType, type IPackage, type IPackageVersion } from '../../../model/package.ts';
import { findPackage } from '../packages.ts';
import { TYPE, TAG_PROPERTY, checkTag } from './npm-metadata.ts';

/** Moves `tag` to `versionId` (or only removes it), in one transaction (Forgejo's setPackageTag). */
export async function setTag(em: EntityManager, packageId: number, versionId: number, tag: string, deleteOnly: boolean): Promise<void> {
  checkTag(tag);
  const versionIds = (await em.find(PackageVersion, { packageId }, { fields: ['id'] })).map((v) => v.id);
  await em.nativeDelete(PackageProperty, { refType: PropertyType.version, refId: { $in: versionIds }, name: TAG_PROPERTY, value: tag });
  if (!deleteOnly) {
    em.create(PackageProperty, { refType: PropertyType.version, refId: versionId, name: TAG_PROPERTY, value: tag });
    await em.flush();
  }
}

export async function packageVersions(
  em: EntityManager,
  ownerId: number,
  name: string,
): Promise<{ pkg: IPackage; versions: IPackageVersion[] } | null> {
  const pkg = await findPackage(em, ownerId, TYPE, name);
  const versions = pkg ? await em.find(PackageVersion, { packageId: pkg.id }, { orderBy: { id: 'asc' } }) : [];
  return pkg && versions.length > 0 ? { pkg, versions } : null;
}

/** tag → version of each `npm.tag` property of the versions. */
export async function tagsOf(em: EntityManager, versions: IPackageVersion[]): Promise<Map<string, IPackageVersion>> {
  const byId = new Map(versions.map((v) => [v.id, v]));
  const props = versions.length
    ? await em.find(
        PackageProperty,
        { refType: PropertyType.version, refId: { $in: [...byId.keys()] }, name: TAG_PROPERTY },
        { orderBy: { id: 'asc' } },
      )
    : [];
  return new Map(props.map((p) => [p.value, byId.get(p.refId)!]));
}
