// Package storage (Forgejo models/packages, services/packages): packages, their versions and files in
// the database, the bytes as content-addressed blobs under <APP_DATA_PATH>/packages/<sha256[0:2]>/<sha256>,
// shared by every file with the same content. An upload is spooled to a temporary file while its hashes
// are computed; the blob is renamed into place before its row is written, and a blob's bytes go with the
// last file that names it.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Writable, type Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { IUser } from '../../model/user.ts';
import { sql, writeSql } from '../../model/sql.ts';
import {
  Package,
  PackageBlob,
  PackageFile,
  PackageProperty,
  PackageVersion,
  PropertyType,
  type IPackage,
  type IPackageBlob,
  type IPackageFile,
  type IPackageVersion,
} from '../../model/package.ts';

export const packagesRoot = (cfg: Pick<Config, 'dataPath'>) => path.join(cfg.dataPath, 'packages');

export function blobPath(cfg: Pick<Config, 'dataPath'>, sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
  return path.join(packagesRoot(cfg), sha256.slice(0, 2), sha256);
}

/** An upload on disk with its size and hashes (Forgejo's HashedBuffer). */
export interface Spooled {
  file: string;
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
}

export const spoolDir = (cfg: Pick<Config, 'dataPath'>) => path.join(packagesRoot(cfg), 'tmp');

/**
 * A writable that stores what it is given in a new temporary file under the store, hashing it on the
 * way; `spooled()` describes the file once the stream has finished. The caller removes `file`.
 * The spool directory must exist (`spool` makes it; multipart parsers hand it these streams).
 */
export class SpoolWriter extends Writable {
  readonly file: string;
  private size = 0;
  private readonly out: fs.WriteStream;
  private readonly hashes = {
    md5: createHash('md5'),
    sha1: createHash('sha1'),
    sha256: createHash('sha256'),
    sha512: createHash('sha512'),
  };

  constructor(cfg: Pick<Config, 'dataPath'>) {
    super();
    this.file = path.join(spoolDir(cfg), randomUUID());
    this.out = fs.createWriteStream(this.file, { flags: 'wx' });
    this.out.on('error', (e) => this.destroy(e));
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null) => void): void {
    this.size += chunk.length;
    for (const h of Object.values(this.hashes)) h.update(chunk);
    if (this.out.write(chunk)) done();
    else this.out.once('drain', () => done());
  }

  override _final(done: (e?: Error | null) => void): void {
    this.out.once('close', () => done());
    this.out.end();
  }

  override _destroy(e: Error | null, done: (e?: Error | null) => void): void {
    if (!this.out.closed) this.out.destroy();
    done(e);
  }

  spooled(): Spooled {
    const h = this.hashes;
    return {
      file: this.file,
      size: this.size,
      md5: h.md5.digest('hex'),
      sha1: h.sha1.digest('hex'),
      sha256: h.sha256.digest('hex'),
      sha512: h.sha512.digest('hex'),
    };
  }
}

/** Writes `body` to a temporary file under the store, hashing it on the way. The caller removes `file`. */
export async function spool(cfg: Config, body: Readable): Promise<Spooled> {
  await fs.promises.mkdir(spoolDir(cfg), { recursive: true });
  const sink = new SpoolWriter(cfg);
  try {
    await pipeline(body, sink);
  } catch (e) {
    await fs.promises.rm(sink.file, { force: true });
    throw e;
  }
  return sink.spooled();
}

/** The blob of these bytes: the existing one, or a new one whose bytes are moved into place first. */
async function blobFor(em: EntityManager, cfg: Config, up: Spooled): Promise<IPackageBlob> {
  const existing = await em.findOne(PackageBlob, { hashSha256: up.sha256 });
  if (existing) return existing;
  const dest = blobPath(cfg, up.sha256);
  await fs.promises.mkdir(path.dirname(dest), { recursive: true });
  await fs.promises.rename(up.file, dest);
  const blob = em.create(PackageBlob, { size: up.size, hashMd5: up.md5, hashSha1: up.sha1, hashSha256: up.sha256, hashSha512: up.sha512 });
  await em.flush();
  return blob;
}

export interface PackageKey {
  ownerId: number;
  type: string;
  name: string;
  version: string;
}

/** Forgejo's GetVersionByNameAndVersion: type exact, name and version case-insensitive; internal versions are not found. */
export async function findVersion(em: EntityManager, k: PackageKey): Promise<{ pkg: IPackage; version: IPackageVersion } | null> {
  const pkg = await findPackage(em, k.ownerId, k.type, k.name);
  const version =
    pkg && (await em.findOne(PackageVersion, { packageId: pkg.id, lowerVersion: k.version.toLowerCase(), isInternal: false }));
  return pkg && version ? { pkg, version } : null;
}

export function findPackage(em: EntityManager, ownerId: number, type: string, name: string): Promise<IPackage | null> {
  return em.findOne(Package, { ownerId, type, lowerName: name.toLowerCase() });
}

export class DuplicateFileError extends Error {}
export class DuplicateVersionError extends Error {}

export interface NewPackageFile extends PackageKey {
  creator: IUser;
  filename: string;
  upload: Spooled;
  /** The version must be new (npm): an existing one is a DuplicateVersionError. */
  newVersion?: boolean;
  /** Stored with a version this upload creates (Forgejo keeps the first upload's metadata). */
  metadata?: unknown;
  semverCompatible?: boolean;
  /** Whether the file is the version's lead file (counted as its download); true unless said otherwise. */
  isLead?: boolean;
  /** A file of the same name is replaced instead of refused (Forgejo's OverwriteExisting: Maven's snapshot metadata). */
  overwrite?: boolean;
}

/**
 * Adds a file to `owner`'s package version, creating the package and the version when missing
 * (Forgejo's CreatePackageOrAddFileToExisting, or CreatePackageAndAddFile with `newVersion`). A file
 * of the same name in that version is a DuplicateFileError. Runs in the caller's transaction.
 */
export async function addPackageFile(
  em: EntityManager,
  cfg: Config,
  input: NewPackageFile,
): Promise<{ pkg: IPackage; version: IPackageVersion; file: IPackageFile }> {
  let pkg = await findPackage(em, input.ownerId, input.type, input.name);
  if (!pkg) {
    pkg = em.create(Package, {
      ownerId: input.ownerId,
      type: input.type,
      name: input.name,
      lowerName: input.name.toLowerCase(),
      semverCompatible: input.semverCompatible ?? false,
    });
    await em.flush();
  }
  let version = await em.findOne(PackageVersion, { packageId: pkg.id, lowerVersion: input.version.toLowerCase() });
  if (version && input.newVersion) throw new DuplicateVersionError('package version already exists');
  if (!version) {
    version = em.create(PackageVersion, {
      packageId: pkg.id,
      creatorId: input.creator.id,
      version: input.version,
      lowerVersion: input.version.toLowerCase(),
      metadata: input.metadata ?? null,
    });
    await em.flush();
  }
  const existing = await em.findOne(PackageFile, { versionId: version.id, lowerName: input.filename.toLowerCase() });
  if (existing && !input.overwrite) throw new DuplicateFileError('package file already exists');
  if (existing) {
    await em.nativeDelete(PackageProperty, { refType: PropertyType.file, refId: existing.id });
    await em.nativeDelete(PackageFile, { id: existing.id });
  }
  const blob = await blobFor(em, cfg, input.upload);
  const file = em.create(PackageFile, {
    versionId: version.id,
    blobId: blob.id,
    name: input.filename,
    lowerName: input.filename.toLowerCase(),
    isLead: input.isLead ?? true,
  });
  await em.flush();
  if (existing && existing.blobId !== blob.id) await dropUnreferencedBlobs(em, cfg, [existing.blobId]);
  return { pkg, version, file };
}

/** Drops the blobs no file names any more, rows and bytes. */
async function dropUnreferencedBlobs(em: EntityManager, cfg: Config, blobIds: number[]): Promise<void> {
  if (blobIds.length === 0) return;
  const still = new Set((await em.find(PackageFile, { blobId: { $in: blobIds } }, { fields: ['blobId'] })).map((f) => f.blobId));
  const gone = await em.find(PackageBlob, { id: { $in: blobIds.filter((id) => !still.has(id)) } });
  if (gone.length === 0) return;
  await em.nativeDelete(PackageBlob, { id: { $in: gone.map((b) => b.id) } });
  await Promise.all(gone.map((b) => fs.promises.rm(blobPath(cfg, b.hashSha256), { force: true })));
}

/** Removes one file; the last file of a version takes the version with it (Forgejo's generic DeletePackageFile). */
export async function removePackageFile(em: EntityManager, cfg: Config, version: IPackageVersion, file: IPackageFile): Promise<void> {
  if ((await em.count(PackageFile, { versionId: version.id })) <= 1) return removePackageVersion(em, cfg, version);
  await em.nativeDelete(PackageProperty, { refType: PropertyType.file, refId: file.id });
  await em.nativeDelete(PackageFile, { id: file.id });
  await dropUnreferencedBlobs(em, cfg, [file.blobId]);
}

/**
 * Removes a version with its files, and the package once it has no version left (Forgejo leaves that to
 * its cleanup job; nothing here would show such a package, so it goes at once).
 */
export async function removePackageVersion(em: EntityManager, cfg: Config, version: IPackageVersion): Promise<void> {
  const files = await em.find(PackageFile, { versionId: version.id });
  await em.nativeDelete(PackageProperty, {
    $or: [
      { refType: PropertyType.version, refId: version.id },
      ...(files.length ? [{ refType: PropertyType.file, refId: { $in: files.map((f) => f.id) } }] : []),
    ],
  });
  await em.nativeDelete(PackageFile, { versionId: version.id });
  await em.nativeDelete(PackageVersion, { id: version.id });
  if ((await em.count(PackageVersion, { packageId: version.packageId })) === 0) {
    await em.nativeDelete(PackageProperty, { refType: PropertyType.package, refId: version.packageId });
    await em.nativeDelete(Package, { id: version.packageId });
  }
  await dropUnreferencedBlobs(em, cfg, [...new Set(files.map((f) => f.blobId))]);
}

/** The files of a version with their blobs, in upload order. */
export async function versionFiles(em: EntityManager, versionId: number): Promise<{ file: IPackageFile; blob: IPackageBlob }[]> {
  const files = await em.find(PackageFile, { versionId }, { orderBy: { id: 'asc' } });
  const blobs = new Map(
    (files.length ? await em.find(PackageBlob, { id: { $in: files.map((f) => f.blobId) } }) : []).map((b) => [b.id, b]),
  );
  return files.flatMap((file) => {
    const blob = blobs.get(file.blobId);
    return blob ? [{ file, blob }] : [];
  });
}

/** Forgejo counts downloads of a version's lead file. */
export async function countDownload(em: EntityManager, versionId: number): Promise<void> {
  await writeSql(em, sql`update package_version set download_count = download_count + 1 where id = ${versionId}`);
}

/** Whether the owner still has packages (Forgejo's HasOwnerPackages: deleting such an owner is refused). */
export async function ownsPackages(em: EntityManager, ownerId: number): Promise<boolean> {
  return (await em.count(Package, { ownerId })) > 0;
}

/** Every package of an owner, as a purging user deletion removes them (Forgejo's RemoveAllPackages). */
export async function removeOwnerPackages(em: EntityManager, cfg: Config, ownerId: number): Promise<void> {
  const pkgs = await em.find(Package, { ownerId });
  if (pkgs.length === 0) return;
  for (const version of await em.find(PackageVersion, { packageId: { $in: pkgs.map((p) => p.id) } }))
    await removePackageVersion(em, cfg, version);
  await em.nativeDelete(Package, { ownerId });
}

/** A deleted repository's packages stay with their owner, unlinked (Forgejo's UnlinkRepositoryFromAllPackages). */
export async function unlinkRepoPackages(em: EntityManager, repoId: number): Promise<void> {
  await em.nativeUpdate(Package, { repoId }, { repoId: 0 });
}
