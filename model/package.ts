import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A package of an owner (Forgejo's `package`): one per owner, type and name (compared lower-cased).
 * `repoId` is the repository it is linked to, 0 when none.
 */
export const Package = defineEntity({
  name: 'Package',
  tableName: 'package',
  properties: {
    id: p.integer().primary().autoincrement(),
    ownerId: p.integer().index(),
    repoId: p.integer().default(0).index(),
    type: p.string().length(32),
    name: p.string().length(255),
    lowerName: p.string().length(255),
    semverCompatible: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['ownerId', 'type', 'lowerName'] }],
});
export type IPackage = InferEntity<typeof Package>;

/** A version of a package (Forgejo's `package_version`); the API's Package `id` is this row's id. */
export const PackageVersion = defineEntity({
  name: 'PackageVersion',
  tableName: 'package_version',
  properties: {
    id: p.integer().primary().autoincrement(),
    packageId: p.integer(),
    creatorId: p.integer().default(0),
    version: p.string().length(255),
    lowerVersion: p.string().length(255),
    downloadCount: p.integer().default(0),
    metadata: p.json<unknown>().default('null'),
    /** A version clients never see (the container registry's blob uploads, Forgejo's `is_internal`). */
    isInternal: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['packageId', 'lowerVersion'] }],
});
export type IPackageVersion = InferEntity<typeof PackageVersion>;

/** A named file of a version (Forgejo's `package_file`); its bytes are a shared blob. */
export const PackageFile = defineEntity({
  name: 'PackageFile',
  tableName: 'package_file',
  properties: {
    id: p.integer().primary().autoincrement(),
    versionId: p.integer(),
    blobId: p.integer().index(),
    name: p.string().length(255),
    lowerName: p.string().length(255),
    isLead: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['versionId', 'lowerName'] }],
});
export type IPackageFile = InferEntity<typeof PackageFile>;

/**
 * Content-addressed bytes (Forgejo's `package_blob`), stored once under
 * `<APP_DATA_PATH>/packages/<sha256[0:2]>/<sha256>` however many files name them.
 */
export const PackageBlob = defineEntity({
  name: 'PackageBlob',
  tableName: 'package_blob',
  properties: {
    id: p.integer().primary().autoincrement(),
    size: p.bigint('number').default(0),
    hashMd5: p.string().length(32),
    hashSha1: p.string().length(40),
    hashSha256: p.string().length(64).unique(),
    hashSha512: p.string().length(128),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IPackageBlob = InferEntity<typeof PackageBlob>;

/** What a PackageProperty describes (Forgejo's PropertyType). */
export const PropertyType = { version: 0, file: 1, package: 2 } as const;

/**
 * A name/value pair attached to a version, file or package (Forgejo's `package_property`), such as an
 * npm dist-tag (`npm.tag` on the version it points to).
 */
export const PackageProperty = defineEntity({
  name: 'PackageProperty',
  tableName: 'package_property',
  properties: {
    id: p.integer().primary().autoincrement(),
    refType: p.integer(),
    refId: p.integer(),
    name: p.string().length(255),
    value: p.text(),
  },
  indexes: [{ properties: ['refType', 'refId'] }],
});
export type IPackageProperty = InferEntity<typeof PackageProperty>;
