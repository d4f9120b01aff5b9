// The Maven registry (Forgejo routers/api/packages/maven), under <ROOT>api/packages/<owner>/maven/:
//   PUT  <group path>/<artifactId>/<version>/<file>        upload a file of the version (201; 409 when present,
//                                                           except a SNAPSHOT's maven-metadata.xml, which is replaced)
//   PUT  <group path>/<artifactId>/<version>/<file>.<sum>  checks the file's md5/sha1/sha256/sha512 (200, 400 on a
//                                                           mismatch); nothing is stored
//   PUT  <group path>/<artifactId>/maven-metadata.xml[.<sum>]  accepted and ignored (200): it is computed
//   GET  the same paths (HEAD too): the file, its checksum, or the artifact's computed maven-metadata.xml
// The package is named `<groupId>:<artifactId>`. A `.pom` is the version's lead file and its metadata (name,
// description, licenses, dependencies) is kept with the version; a POM that is not well-formed XML is 400.
// Errors are plain text (Maven shows none of them).
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { PackageVersion } from '../../../model/package.ts';
import { isStorableText } from '../../../model/schemas/storable.ts';
import { bodyCap } from '../../http/request-body.ts';
import { addPackageFile, DuplicateFileError, findPackage, findVersion, spool, versionFiles, type Spooled } from '../packages.ts';
import {
  checkQuota,
  emptyAnswer,
  readCapped,
  RegistryError,
  sendFile,
  uploader,
  ofOwner,
  type Registry,
  type RegistryRequest,
} from './common.ts';
import { parsePom, PomError } from './maven-pom.ts';

const TYPE = 'maven';
const METADATA = 'maven-metadata.xml';
const SUMS = { '.md5': 'md5', '.sha1': 'sha1', '.sha256': 'sha256', '.sha512': 'sha512' } as const;
type Sum = (typeof SUMS)[keyof typeof SUMS];
// Forgejo's illegalCharacters in group, artifact and version.
const ILLEGAL = /[\\/:"<>|?*]/;
/** The `package`, `package_version` and `package_file` name columns are varchar(255). */
const MAX_NAME = 255;
/** A checksum file is one hex digest (128 characters for sha512); anything longer is not one. */
const MAX_SUM_BODY = 1024;

const invalid = () => new RegistryError(400, 'request parameters are invalid');

interface Params {
  groupId: string;
  artifactId: string;
  /** Empty for the artifact's maven-metadata.xml (and its checksums). */
  version: string;
  filename: string;
  /** The file named without its checksum extension, and that extension's hash. */
  target: string;
  sum: Sum | null;
}

function checksumOf(filename: string): Sum | null {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? null : (SUMS[filename.slice(dot).toLowerCase() as keyof typeof SUMS] ?? null);
}

/** Forgejo's extractPathParameters: `<group path>/<artifactId>[/<version>]/<filename>`. */
function params(parts: string[]): Params {
  const filename = parts[parts.length - 1] ?? '';
  const sum = checksumOf(filename);
  const target = sum ? filename.slice(0, filename.lastIndexOf('.')) : filename;
  let rest = parts.slice(0, -1);
  if (rest.length === 0) throw invalid();
  let version = rest[rest.length - 1];
  if (target === METADATA && !version.endsWith('-SNAPSHOT')) version = '';
  else rest = rest.slice(0, -1);
  if (rest.length < 2) throw invalid();
  const artifactId = rest[rest.length - 1];
  const groupId = rest.slice(0, -1).join('.');
  const name = `${groupId}:${artifactId}`;
  for (const v of [groupId, artifactId, version]) if (ILLEGAL.test(v)) throw invalid();
  if (
    rest.some((s) => s === '' || s === '.' || s === '..') ||
    name.length > MAX_NAME ||
    version.length > MAX_NAME ||
    filename.length > MAX_NAME ||
    filename === '.' ||
    filename === '..' ||
    !isStorableText(name) ||
    !isStorableText(version) ||
    !isStorableText(filename)
  )
    throw invalid();
  return { groupId, artifactId, version, filename, target, sum };
}

const packageName = (p: Params) => `${p.groupId}:${p.artifactId}`;

function textAnswer(r: RegistryRequest, status: number, text: string): void {
  r.ctx.status = status;
  r.ctx.type = 'text/plain; charset=utf-8';
  r.ctx.body = text;
}

/** The POM's metadata, read from the spooled upload (capped like any document the API parses). */
async function pomMetadata(r: RegistryRequest, up: Spooled) {
  if (up.size > bodyCap(r.deps.config)) throw new RegistryError(413, 'request entity too large');
  try {
    const metadata = parsePom(await fs.promises.readFile(up.file, 'utf8'));
    const texts = [
      metadata.group_id,
      metadata.artifact_id,
      metadata.name,
      metadata.description,
      metadata.project_url,
      ...metadata.licenses,
      ...metadata.dependencies.flatMap((d) => [d.group_id, d.artifact_id, d.version]),
    ];
    if (!texts.every(isStorableText)) throw new RegistryError(400, 'invalid metadata');
    return metadata;
  } catch (e) {
    if (e instanceof PomError) throw new RegistryError(400, e.message);
    throw e;
  }
}

/** Compares an uploaded checksum with the stored file's; stores nothing. */
async function verifyChecksum(r: RegistryRequest, p: Params, sum: Sum): Promise<void> {
  const found = await findVersion(r.em, { ownerId: r.owner.id, type: TYPE, name: packageName(p), version: p.version });
  if (!found) throw new RegistryError(404, 'package does not exist');
  const entry = (await versionFiles(r.em, found.version.id)).find((f) => f.file.name === p.target);
  if (!entry) throw new RegistryError(404, 'package file does not exist');
  const sent = (await readCapped(r, MAX_SUM_BODY)).toString('utf8').trim().split(/\s/)[0].toLowerCase();
  const stored = { md5: entry.blob.hashMd5, sha1: entry.blob.hashSha1, sha256: entry.blob.hashSha256, sha512: entry.blob.hashSha512 }[sum];
  if (sent !== stored) throw new RegistryError(400, 'hash mismatch');
  emptyAnswer(r.ctx, 200);
}

async function upload(r: RegistryRequest, parts: string[]): Promise<void> {
  const p = params(parts);
  const creator = uploader(r);
  await checkQuota(r, creator);
  // The artifact's metadata is computed from the versions (and ignored when uploaded).
  if (p.version === '') return emptyAnswer(r.ctx, 200);
  if (p.sum) return verifyChecksum(r, p, p.sum);
  const isPom = p.filename.toLowerCase().endsWith('.pom');
  if (isPom && Number(r.ctx.get('Content-Length') || 0) > bodyCap(r.deps.config)) throw new RegistryError(413, 'request entity too large');
  const up = await spool(r.deps.config, r.ctx.req);
  try {
    const metadata = isPom ? await pomMetadata(r, up) : undefined;
    const store = () =>
      r.em.transactional(async (tx) => {
        const { version } = await addPackageFile(tx, r.deps.config, {
          ownerId: r.owner.id,
          type: TYPE,
          name: packageName(p),
          version: p.version,
          creator,
          filename: p.filename,
          upload: up,
          metadata,
          isLead: isPom,
          overwrite: p.target === METADATA,
        });
        // Forgejo keeps the metadata of the last POM uploaded to the version (the jar usually comes first).
        if (metadata && version.metadata !== metadata) await tx.nativeUpdate(PackageVersion, { id: version.id }, { metadata });
      });
    // Files of one version may arrive at once (Forgejo serialises them per package): the one that loses the race
    // to create the package or version tries again with them in place, while its bytes are still in the spool.
    await store().catch((e) => {
      if (e instanceof UniqueConstraintViolationException && fs.existsSync(up.file)) return store();
      throw e;
    });
  } catch (e) {
    if (e instanceof DuplicateFileError || e instanceof UniqueConstraintViolationException)
      throw new RegistryError(409, 'package file already exists');
    throw e;
  } finally {
    await fs.promises.rm(up.file, { force: true });
  }
  emptyAnswer(r.ctx, 201);
}

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The artifact's maven-metadata.xml: every version in upload order, the last as `latest`, the last non-SNAPSHOT as `release`. */
async function serveMetadata(r: RegistryRequest, p: Params): Promise<void> {
  const pkg = await findPackage(r.em, r.owner.id, TYPE, packageName(p));
  const versions = pkg
    ? await r.em.find(PackageVersion, { packageId: pkg.id, isInternal: false }, { orderBy: { createdAt: 'asc', id: 'asc' } })
    : [];
  const latest = versions[versions.length - 1];
  if (!latest) throw new RegistryError(404, 'package does not exist');
  const release = versions.filter((v) => !v.version.endsWith('-SNAPSHOT')).pop();
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>\n<metadata><groupId>${escapeXml(p.groupId)}</groupId><artifactId>${escapeXml(p.artifactId)}</artifactId>` +
    `<versioning>${release ? `<release>${escapeXml(release.version)}</release>` : ''}<latest>${escapeXml(latest.version)}</latest>` +
    `<versions>${versions.map((v) => `<version>${escapeXml(v.version)}</version>`).join('')}</versions></versioning></metadata>`;
  r.ctx.set('Last-Modified', latest.createdAt.toUTCString());
  if (p.sum) return textAnswer(r, 200, createHash(p.sum).update(xml).digest('hex'));
  r.ctx.status = 200;
  r.ctx.type = 'text/xml';
  r.ctx.body = xml;
}

async function download(r: RegistryRequest, parts: string[]): Promise<void> {
  const p = params(parts);
  if (p.version === '') return serveMetadata(r, p);
  const found = await findVersion(r.em, { ownerId: r.owner.id, type: TYPE, name: packageName(p), version: p.version });
  if (!found) throw new RegistryError(404, 'package does not exist');
  // Forgejo matches the file name case-sensitively here.
  const entry = (await versionFiles(r.em, found.version.id)).find((f) => f.file.name === p.target);
  if (!entry) throw new RegistryError(404, 'package file does not exist');
  if (p.sum) {
    const b = entry.blob;
    return textAnswer(r, 200, { md5: b.hashMd5, sha1: b.hashSha1, sha256: b.hashSha256, sha512: b.hashSha512 }[p.sum]);
  }
  const ext = p.filename.toLowerCase().slice(p.filename.lastIndexOf('.'));
  await sendFile(
    r,
    found.version.id,
    entry,
    ext === '.jar' ? 'application/java-archive' : ext === '.pom' ? 'text/xml' : 'application/octet-stream',
  );
}

export const maven: Registry = {
  type: TYPE,
  handlers: {
    download: ofOwner((r, p) => download(r, p.path!.split('/'))),
    upload: ofOwner((r, p) => upload(r, p.path!.split('/'))),
  },
};
