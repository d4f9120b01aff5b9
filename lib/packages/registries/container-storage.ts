// The container registry's shared parts (transports/registries/container.ts routes to them): names and media
// types, the OCI error set, and the package storage an image's blobs and manifests live in. How they go on
// the wire (headers, answers, the error body) is transports/registries/container-answer.ts's.
import fs from 'node:fs';
import path from 'node:path';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import {
  Package,
  PackageBlob,
  PackageFile,
  PackageVersion,
  type IPackage,
  type IPackageBlob,
  type IPackageFile,
  type IPackageVersion,
} from '../../../model/package.ts';
import { type IUser } from '../../../model/user.ts';
import { blobPath, findPackage, type Spooled } from '../packages.ts';
import { RegistryError, uploader, type RegistryRequest } from './common.ts';

export const TYPE = 'container';
export const UPLOAD_VERSION = '_';
export const DIGEST_PROPERTY = 'container.digest';
export const MANIFEST_FILE = 'manifest.json';
export const MAX_MANIFEST = 10 * 1024 * 1024;

export const IMAGE = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/;
export const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/;
export const DIGEST = /^sha256:[a-f0-9]{64}$/;

export const MEDIA = {
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
};
export const IMAGE_MANIFESTS = new Set([MEDIA.ociManifest, MEDIA.dockerManifest]);
export const INDEXES = new Set([MEDIA.ociIndex, MEDIA.dockerList]);

/** The distribution spec's error codes with Forgejo's statuses. */
export const E = {
  unauthorized: (m = 'authentication required') => new RegistryError(401, `UNAUTHORIZED:${m}`, true),
  denied: (m: string) => new RegistryError(403, `DENIED:${m}`),
  nameInvalid: () => new RegistryError(400, 'NAME_INVALID:invalid repository name'),
  nameUnknown: () => new RegistryError(404, 'NAME_UNKNOWN:repository name not known to registry'),
  blobUnknown: () => new RegistryError(404, 'BLOB_UNKNOWN:blob unknown to registry'),
  uploadUnknown: () => new RegistryError(404, 'BLOB_UPLOAD_UNKNOWN:blob upload unknown to registry'),
  uploadInvalid: (m = 'blob upload invalid', status = 400) => new RegistryError(status, `BLOB_UPLOAD_INVALID:${m}`),
  digestInvalid: () => new RegistryError(400, 'DIGEST_INVALID:provided digest did not match uploaded content'),
  manifestInvalid: (m = 'manifest invalid', status = 400) => new RegistryError(status, `MANIFEST_INVALID:${m}`),
  manifestUnknown: () => new RegistryError(404, 'MANIFEST_UNKNOWN:manifest unknown'),
};

// ---------------------------------------------------------------------------------------------
// Storage

export interface ImageRequest extends RegistryRequest {
  image: string;
}

export async function imagePackage(em: EntityManager, r: ImageRequest): Promise<IPackage | null> {
  return findPackage(em, r.owner.id, TYPE, r.image);
}

export async function ensurePackage(em: EntityManager, r: ImageRequest): Promise<IPackage> {
  const found = await imagePackage(em, r);
  if (found) return found;
  const pkg = em.create(Package, { ownerId: r.owner.id, type: TYPE, name: r.image, lowerName: r.image, semverCompatible: false });
  await em.flush();
  return pkg;
}

export async function ensureVersion(
  em: EntityManager,
  pkg: IPackage,
  name: string,
  creator: IUser,
  internal: boolean,
  metadata: ManifestMeta | null = null,
): Promise<IPackageVersion> {
  const found = await em.findOne(PackageVersion, { packageId: pkg.id, lowerVersion: name.toLowerCase() });
  if (found) return found;
  const v = em.create(PackageVersion, {
    packageId: pkg.id,
    creatorId: creator.id,
    version: name,
    lowerVersion: name.toLowerCase(),
    metadata,
    isInternal: internal,
  });
  await em.flush();
  return v;
}

/** The blob row of these bytes, moving them into the store when new (lib/packages/packages.ts keeps the same rule). */
export async function blobOf(em: EntityManager, r: RegistryRequest, up: Spooled): Promise<IPackageBlob> {
  const existing = await em.findOne(PackageBlob, { hashSha256: up.sha256 });
  if (existing) return existing;
  const dest = blobPath(r.deps.config, up.sha256);
  await fs.promises.mkdir(path.dirname(dest), { recursive: true });
  // Bytes already in place (a concurrent or rolled-back upload of the same content) are these bytes: a
  // blob file only ever appears by rename, whole.
  if (!fs.existsSync(dest)) await fs.promises.rename(up.file, dest);
  const blob = em.create(PackageBlob, { size: up.size, hashMd5: up.md5, hashSha1: up.sha1, hashSha256: up.sha256, hashSha512: up.sha512 });
  await em.flush();
  return blob;
}

/** Adds `file` naming `blob` to a version unless a file of that name is there already. */
export async function addFile(em: EntityManager, versionId: number, name: string, blob: IPackageBlob, isLead: boolean): Promise<void> {
  if (await em.findOne(PackageFile, { versionId, lowerName: name.toLowerCase() })) return;
  em.create(PackageFile, { versionId, blobId: blob.id, name, lowerName: name.toLowerCase(), isLead });
  await em.flush();
}

/** A blob of the image: a file named by its digest in any version of the image (Forgejo's GetLocalBlob). */
export async function localBlob(
  em: EntityManager,
  r: ImageRequest,
  digest: string,
): Promise<{ file: IPackageFile; blob: IPackageBlob } | null> {
  if (!DIGEST.test(digest)) return null;
  const pkg = await imagePackage(em, r);
  const versions = pkg ? await em.find(PackageVersion, { packageId: pkg.id }, { fields: ['id'] }) : [];
  const file = versions.length ? await em.findOne(PackageFile, { versionId: { $in: versions.map((v) => v.id) }, lowerName: digest }) : null;
  const blob = file && (await em.findOne(PackageBlob, { id: file.blobId }));
  return file && blob ? { file, blob } : null;
}

/** Stores a spooled upload as a blob of the image (in its internal upload version). */
export async function saveBlob(r: ImageRequest, up: Spooled, digest: string): Promise<void> {
  const creator = uploader(r);
  const save = () =>
    r.em.transactional(async (tx) => {
      const pkg = await ensurePackage(tx, r);
      const version = await ensureVersion(tx, pkg, UPLOAD_VERSION, creator, true);
      await addFile(tx, version.id, digest, await blobOf(tx, r, up), false);
    });
  try {
    await save();
  } catch (e) {
    // A concurrent upload to the same image created the package, version, file or blob row first: once more
    // finds them. The spooled bytes may already sit in the store under their hash, which is all the next try needs.
    if (!(e instanceof UniqueConstraintViolationException)) throw e;
    await save();
  }
}

export interface ManifestMeta {
  mediaType: string;
  digest: string;
}

export const metaOf = (v: IPackageVersion): ManifestMeta | null => {
  const m = v.metadata;
  return typeof m === 'object' &&
    m !== null &&
    'digest' in m &&
    'mediaType' in m &&
    typeof m.digest === 'string' &&
    typeof m.mediaType === 'string'
    ? { digest: m.digest, mediaType: m.mediaType }
    : null;
};

/** The manifest versions a reference names: the tag's version, or every version with that digest. */
