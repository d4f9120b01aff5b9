// The container registry (OCI distribution spec; Forgejo routers/api/packages/container), at <ROOT>v2/:
//   GET  /v2/                                      200 once the client holds a token, else 401 with the Bearer challenge
//   GET  /v2/token                                 a registry token for the caller (Basic credentials, or anonymous)
//   POST /v2/<owner>/<image>/blobs/uploads/         `?digest=` monolithic upload (201), else a new upload session (202)
//   GET|PATCH|PUT|DELETE .../blobs/uploads/<uuid>   session status, append a chunk, finish with `?digest=`, cancel
//   HEAD|GET|DELETE .../blobs/<digest>
//   HEAD|GET|PUT|DELETE .../manifests/<tag|digest>  image manifests and indexes (OCI and Docker media types)
//   GET  .../tags/list                             `?n=&last=` paging
// An image is a package of type `container`; uploaded blobs are files of its internal version `_`, and every
// manifest is a version named by its tag (or its digest when pushed untagged) holding `manifest.json` and a file
// per blob it references, so a blob stays while a manifest needs it. Errors are `{"errors":[{code,message}]}`.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Context, Middleware } from 'koa';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { Package, PackageBlob, PackageFile, PackageProperty, PackageVersion, PropertyType, type IPackage, type IPackageBlob, type IPackageFile, type IPackageVersion } from '../../model/package.ts';
import { User, type IUser } from '../../model/user.ts';
import { AccessToken } from '../../model/token.ts';
import { authenticate, type AuthResult } from '../auth.ts';
import type { TokenInfo } from '../auth-types.ts';
import { parseScopes, ScopeError } from '../scopes.ts';
import { HttpError } from '../errors.ts';
import { pathSegments } from '../url-path.ts';
import { isUuid } from '../attachments.ts';
import { blobPath, findPackage, removePackageVersion, spool, spoolDir, type Spooled } from '../packages.ts';
import { checkAccess, checkQuota, readCapped, RegistryError, uploader, type PackageRegistryDeps, type RegistryRequest } from './common.ts';

const TYPE = 'container';
const UPLOAD_VERSION = '_';
const DIGEST_PROPERTY = 'container.digest';
const MANIFEST_FILE = 'manifest.json';
const MAX_MANIFEST = 10 * 1024 * 1024;
const TOKEN_LIFETIME_MS = 24 * 3600 * 1000;

const IMAGE = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/;
const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

const MEDIA = {
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
};
const IMAGE_MANIFESTS = new Set([MEDIA.ociManifest, MEDIA.dockerManifest]);
const INDEXES = new Set([MEDIA.ociIndex, MEDIA.dockerList]);

/** The distribution spec's error codes with Forgejo's statuses. */
const E = {
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

function challenge(ctx: Context, appUrl: string): void {
  ctx.set('WWW-Authenticate', `Bearer realm="${appUrl}v2/token",service="container_registry",scope="*"`);
}

function renderError(ctx: Context, appUrl: string, err: RegistryError): void {
  const cut = err.message.indexOf(':');
  const [code, message] = cut > 0 && /^[A-Z_]+$/.test(err.message.slice(0, cut)) ? [err.message.slice(0, cut), err.message.slice(cut + 1)] : [err.status === 401 ? 'UNAUTHORIZED' : err.status === 403 ? 'DENIED' : 'UNSUPPORTED', err.message];
  if (err.status === 401) challenge(ctx, appUrl);
  ctx.status = err.status;
  ctx.set('Docker-Distribution-Api-Version', 'registry/2.0');
  ctx.body = { errors: [{ code, message }] };
}

// ---------------------------------------------------------------------------------------------
// Registry tokens (Forgejo's packages_service.CreateAuthorizationToken): signed with the instance
// secret, naming the user (0: anonymous) and, when an access token was presented, that token's
// scopes, which then limit the registry token too. A revoked access token revokes its registry tokens.

interface TokenClaims { u: number; t: { id: number; raw: string; publicOnly: boolean; repoIds: number[] | null } | null; e: number }

const TOKEN_PREFIX = 'cairn-oci.';

function mintToken(deps: PackageRegistryDeps, auth: AuthResult): string {
  const t = auth.token;
  const claims: TokenClaims = { u: auth.doer?.id ?? 0, t: t ? { id: t.id, raw: t.raw, publicOnly: t.publicOnly, repoIds: t.repoIds } : null, e: Date.now() + TOKEN_LIFETIME_MS };
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${TOKEN_PREFIX}${body}.${deps.services.secrets.mac('container-token', body).toString('base64url')}`;
}

/** The caller a registry token names; null when the header holds no registry token (other credentials). */
async function tokenAuth(em: EntityManager, deps: PackageRegistryDeps, header: string): Promise<AuthResult | null> {
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!m || !m[1].startsWith(TOKEN_PREFIX)) return null;
  const [body, mac] = m[1].slice(TOKEN_PREFIX.length).split('.');
  const expected = deps.services.secrets.mac('container-token', body ?? '');
  const given = Buffer.from(mac ?? '', 'base64url');
  if (!body || given.length !== expected.length || !timingSafeEqual(given, expected)) throw E.unauthorized('invalid token');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TokenClaims;
  if (claims.e < Date.now()) throw E.unauthorized('token expired');
  if (claims.u === 0) return { doer: null, method: null, token: null, sudoer: null };
  const doer = await em.findOne(User, { id: claims.u });
  if (!doer || !doer.isActive || doer.prohibitLogin) throw E.unauthorized('invalid token');
  let token: TokenInfo | null = null;
  if (claims.t) {
    if (!(await em.findOne(AccessToken, { id: claims.t.id, uid: doer.id }))) throw E.unauthorized('invalid token');
    let scopes: TokenInfo['scopes'] = null;
    try {
      scopes = parseScopes(claims.t.raw);
    } catch (e) {
      if (!(e instanceof ScopeError)) throw e;
    }
    token = { id: claims.t.id, scopes, raw: claims.t.raw, publicOnly: claims.t.publicOnly, repoIds: claims.t.repoIds };
  }
  return { doer, method: 'token', token, sudoer: null };
}

// ---------------------------------------------------------------------------------------------
// Storage

interface ImageRequest extends RegistryRequest { image: string }

const ownerPath = (r: ImageRequest) => `/v2/${r.owner.lowerName}/${r.image}`;

function setHeaders(ctx: Context, h: { location?: string; digest?: string; range?: string; uuid?: string }): void {
  ctx.set('Docker-Distribution-Api-Version', 'registry/2.0');
  if (h.location) ctx.set('Location', h.location);
  if (h.range) ctx.set('Range', h.range);
  if (h.uuid) ctx.set('Docker-Upload-Uuid', h.uuid);
  if (h.digest) {
    ctx.set('Docker-Content-Digest', h.digest);
    ctx.set('ETag', `"${h.digest}"`);
  }
}

function answer(ctx: Context, status: number, h: Parameters<typeof setHeaders>[1] = {}): void {
  setHeaders(ctx, h);
  ctx.body = null;
  ctx.status = status;
  ctx.length = 0;
}

async function imagePackage(em: EntityManager, r: ImageRequest): Promise<IPackage | null> {
  return findPackage(em, r.owner.id, TYPE, r.image);
}

async function ensurePackage(em: EntityManager, r: ImageRequest): Promise<IPackage> {
  const found = await imagePackage(em, r);
  if (found) return found;
  const pkg = em.create(Package, { ownerId: r.owner.id, type: TYPE, name: r.image, lowerName: r.image, semverCompatible: false });
  await em.flush();
  return pkg;
}

async function ensureVersion(em: EntityManager, pkg: IPackage, name: string, creator: IUser, internal: boolean, metadata: ManifestMeta | null = null): Promise<IPackageVersion> {
  const found = await em.findOne(PackageVersion, { packageId: pkg.id, lowerVersion: name.toLowerCase() });
  if (found) return found;
  const v = em.create(PackageVersion, { packageId: pkg.id, creatorId: creator.id, version: name, lowerVersion: name.toLowerCase(), metadata, isInternal: internal });
  await em.flush();
  return v;
}

/** The blob row of these bytes, moving them into the store when new (lib/packages.ts keeps the same rule). */
async function blobOf(em: EntityManager, r: RegistryRequest, up: Spooled): Promise<IPackageBlob> {
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
async function addFile(em: EntityManager, versionId: number, name: string, blob: IPackageBlob, isLead: boolean): Promise<void> {
  if (await em.findOne(PackageFile, { versionId, lowerName: name.toLowerCase() })) return;
  em.create(PackageFile, { versionId, blobId: blob.id, name, lowerName: name.toLowerCase(), isLead });
  await em.flush();
}

/** A blob of the image: a file named by its digest in any version of the image (Forgejo's GetLocalBlob). */
async function localBlob(em: EntityManager, r: ImageRequest, digest: string): Promise<{ file: IPackageFile; blob: IPackageBlob } | null> {
  if (!DIGEST.test(digest)) return null;
  const pkg = await imagePackage(em, r);
  const versions = pkg ? await em.find(PackageVersion, { packageId: pkg.id }, { fields: ['id'] }) : [];
  const file = versions.length ? await em.findOne(PackageFile, { versionId: { $in: versions.map((v) => v.id) }, lowerName: digest }) : null;
  const blob = file && (await em.findOne(PackageBlob, { id: file.blobId }));
  return file && blob ? { file, blob } : null;
}

/** Stores a spooled upload as a blob of the image (in its internal upload version). */
async function saveBlob(r: ImageRequest, up: Spooled, digest: string): Promise<void> {
  const creator = uploader(r);
  const save = () => r.em.transactional(async (tx) => {
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

// ---------------------------------------------------------------------------------------------
// Blob uploads. A session is a file in the spool named by its uuid (the uuid is the capability, as in
// Forgejo); chunks are appended in order and the whole is hashed once when the upload is finished.

const sessionFile = (r: RegistryRequest, uuid: string) => path.join(spoolDir(r.deps.config), `oci-upload-${uuid}`);

async function sessionSize(r: RegistryRequest, uuid: string): Promise<number> {
  if (!isUuid(uuid)) throw E.uploadUnknown();
  const stat = await fs.promises.stat(sessionFile(r, uuid)).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (!stat) throw E.uploadUnknown();
  return stat.size;
}

async function appendBody(r: RegistryRequest, uuid: string): Promise<void> {
  await pipeline(r.ctx.req, fs.createWriteStream(sessionFile(r, uuid), { flags: 'a' }));
}

async function startUpload(r: ImageRequest): Promise<void> {
  await checkQuota(r, uploader(r));
  const digest = new URLSearchParams(r.ctx.querystring).get('digest')?.trim() ?? '';
  if (digest !== '') {
    const up = await spool(r.deps.config, r.ctx.req);
    try {
      if (digest !== `sha256:${up.sha256}`) throw E.digestInvalid();
      await saveBlob(r, up, digest);
    } finally {
      await fs.promises.rm(up.file, { force: true });
    }
    return answer(r.ctx, 201, { location: `${ownerPath(r)}/blobs/${digest}`, digest });
  }
  await fs.promises.mkdir(spoolDir(r.deps.config), { recursive: true });
  const uuid = randomUUID();
  await fs.promises.writeFile(sessionFile(r, uuid), '', { flag: 'wx' });
  answer(r.ctx, 202, { location: `${ownerPath(r)}/blobs/uploads/${uuid}`, range: '0-0', uuid });
}

async function uploadStatus(r: ImageRequest, uuid: string): Promise<void> {
  const size = await sessionSize(r, uuid);
  answer(r.ctx, 204, { range: `0-${size}`, uuid });
}

async function uploadChunk(r: ImageRequest, uuid: string): Promise<void> {
  const size = await sessionSize(r, uuid);
  const range = r.ctx.get('Content-Range');
  if (range !== '') {
    const m = /^(\d+)-(\d+)$/.exec(range.trim());
    if (!m) throw E.uploadInvalid();
    if (Number(m[1]) !== size) throw E.uploadInvalid('range not satisfiable', 416);
  } else if (size !== 0) {
    throw E.uploadInvalid('Stream uploads after first write are not allowed');
  }
  await appendBody(r, uuid);
  const now = await sessionSize(r, uuid);
  answer(r.ctx, 202, { location: `${ownerPath(r)}/blobs/uploads/${uuid}`, range: `0-${Math.max(now - 1, 0)}`, uuid });
}

async function finishUpload(r: ImageRequest, uuid: string): Promise<void> {
  const digest = new URLSearchParams(r.ctx.querystring).get('digest')?.trim() ?? '';
  if (digest === '') throw E.digestInvalid();
  await sessionSize(r, uuid);
  await appendBody(r, uuid);
  const file = sessionFile(r, uuid);
  const up = await spool(r.deps.config, fs.createReadStream(file));
  try {
    if (digest !== `sha256:${up.sha256}`) throw E.digestInvalid();
    await saveBlob(r, up, digest);
    await fs.promises.rm(file, { force: true });
  } finally {
    await fs.promises.rm(up.file, { force: true });
  }
  answer(r.ctx, 201, { location: `${ownerPath(r)}/blobs/${digest}`, digest });
}

async function cancelUpload(r: ImageRequest, uuid: string): Promise<void> {
  await sessionSize(r, uuid);
  await fs.promises.rm(sessionFile(r, uuid), { force: true });
  answer(r.ctx, 204);
}

async function sendBlob(r: ImageRequest, entry: { blob: IPackageBlob }, digest: string, mediaType: string): Promise<void> {
  const { ctx } = r;
  const file = blobPath(r.deps.config, entry.blob.hashSha256);
  setHeaders(ctx, { digest });
  ctx.status = 200;
  ctx.type = mediaType;
  if (ctx.method === 'GET') ctx.body = fs.createReadStream(file);
  ctx.length = entry.blob.size;
}

async function getBlob(r: ImageRequest, digest: string): Promise<void> {
  const found = await localBlob(r.em, r, digest);
  if (!found) throw E.blobUnknown();
  await sendBlob(r, found, digest, 'application/octet-stream');
}

async function deleteBlob(r: ImageRequest, digest: string): Promise<void> {
  if (!DIGEST.test(digest)) throw E.blobUnknown();
  await r.em.transactional(async (tx) => {
    const pkg = await imagePackage(tx, r);
    const version = pkg && (await tx.findOne(PackageVersion, { packageId: pkg.id, lowerVersion: UPLOAD_VERSION }));
    const file = version && (await tx.findOne(PackageFile, { versionId: version.id, lowerName: digest }));
    if (!version || !file) return;
    const blobId = file.blobId;
    await tx.nativeDelete(PackageFile, { id: file.id });
    if ((await tx.count(PackageFile, { blobId })) === 0) {
      const blob = await tx.findOneOrFail(PackageBlob, { id: blobId });
      await tx.nativeDelete(PackageBlob, { id: blobId });
      await fs.promises.rm(blobPath(r.deps.config, blob.hashSha256), { force: true });
    }
  });
  answer(r.ctx, 202);
}

// ---------------------------------------------------------------------------------------------
// Manifests

interface ManifestMeta { mediaType: string; digest: string }

const metaOf = (v: IPackageVersion): ManifestMeta | null => {
  const m = v.metadata;
  return typeof m === 'object' && m !== null && 'digest' in m && 'mediaType' in m && typeof m.digest === 'string' && typeof m.mediaType === 'string' ? { digest: m.digest, mediaType: m.mediaType } : null;
};

/** The manifest versions a reference names: the tag's version, or every version with that digest. */
async function manifestVersions(em: EntityManager, r: ImageRequest, ref: string): Promise<IPackageVersion[]> {
  const pkg = await imagePackage(em, r);
  if (!pkg) return [];
  if (!DIGEST.test(ref)) {
    const v = TAG.test(ref) ? await em.findOne(PackageVersion, { packageId: pkg.id, lowerVersion: ref.toLowerCase(), isInternal: false }) : null;
    return v ? [v] : [];
  }
  const ids = (await em.find(PackageVersion, { packageId: pkg.id, isInternal: false }, { fields: ['id'] })).map((v) => v.id);
  const props = ids.length ? await em.find(PackageProperty, { refType: PropertyType.version, refId: { $in: ids }, name: DIGEST_PROPERTY, value: ref }) : [];
  return props.length ? em.find(PackageVersion, { id: { $in: props.map((p) => p.refId) } }, { orderBy: { id: 'asc' } }) : [];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const digestsOf = (v: unknown): string[] | null => {
  if (!Array.isArray(v)) return null;
  const out = v.map((x) => (isRecord(x) && typeof x.digest === 'string' ? x.digest : ''));
  return out.every((d) => DIGEST.test(d)) ? out : null;
};

async function putManifest(r: ImageRequest, ref: string): Promise<void> {
  const creator = uploader(r);
  const byDigest = DIGEST.test(ref);
  if (!byDigest && !TAG.test(ref)) throw E.manifestInvalid('invalid reference');
  await checkQuota(r, creator);
  const body = await readCapped(r, MAX_MANIFEST).catch((e: unknown) => {
    if (e instanceof RegistryError && e.status === 413) throw E.manifestInvalid('Manifest exceeds maximum size', 413);
    throw e;
  });
  const digest = `sha256:${createHash('sha256').update(body).digest('hex')}`;
  if (byDigest && ref !== digest) throw E.digestInvalid();
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch (e) {
    if (e instanceof SyntaxError || e instanceof RangeError) throw E.manifestInvalid('manifest is not JSON');
    throw e;
  }
  if (!isRecord(doc)) throw E.manifestInvalid();
  const mediaType = typeof doc.mediaType === 'string' && doc.mediaType !== '' ? doc.mediaType : r.ctx.get('Content-Type').split(';')[0].trim();
  let blobs: string[] = [];
  let children: string[] = [];
  if (IMAGE_MANIFESTS.has(mediaType)) {
    const config = isRecord(doc.config) && typeof doc.config.digest === 'string' ? doc.config.digest : '';
    const layers = digestsOf(doc.layers);
    if (!DIGEST.test(config) || !layers) throw E.manifestInvalid('invalid image manifest');
    blobs = [config, ...layers];
  } else if (INDEXES.has(mediaType)) {
    const listed = digestsOf(doc.manifests);
    if (!listed) throw E.manifestInvalid('invalid image index');
    children = listed;
  } else {
    throw E.manifestInvalid(`unsupported media type ${mediaType}`);
  }
  // Every blob an image manifest names must have been uploaded to this image, every manifest an index names pushed to it.
  const found = new Map<string, IPackageBlob>();
  for (const d of new Set(blobs)) {
    const b = await localBlob(r.em, r, d);
    if (!b) throw E.blobUnknown();
    found.set(d, b.blob);
  }
  for (const d of new Set(children)) if ((await manifestVersions(r.em, r, d)).length === 0) throw E.manifestUnknown();

  const up = await spool(r.deps.config, Readable.from([body]));
  try {
    await r.em.transactional(async (tx) => {
      const pkg = await ensurePackage(tx, r);
      // A tag moves: its version is replaced. A digest pushed again is the same manifest.
      const old = await tx.findOne(PackageVersion, { packageId: pkg.id, lowerVersion: ref.toLowerCase(), isInternal: false });
      if (old && byDigest) return;
      if (old) await removePackageVersion(tx, r.deps.config, old);
      // removePackageVersion drops the package with its last version; make sure it is there.
      const current = await ensurePackage(tx, r);
      const meta: ManifestMeta = { mediaType, digest };
      const version = await ensureVersion(tx, current, ref, creator, false, meta);
      tx.create(PackageProperty, { refType: PropertyType.version, refId: version.id, name: DIGEST_PROPERTY, value: digest });
      await tx.flush();
      await addFile(tx, version.id, MANIFEST_FILE, await blobOf(tx, r, up), true);
      for (const [d, blob] of found) await addFile(tx, version.id, d, blob, false);
    });
  } finally {
    await fs.promises.rm(up.file, { force: true });
  }
  answer(r.ctx, 201, { location: `${ownerPath(r)}/manifests/${ref}`, digest });
}

async function getManifest(r: ImageRequest, ref: string): Promise<void> {
  const [version] = await manifestVersions(r.em, r, ref);
  const meta = version && metaOf(version);
  const file = version && (await r.em.findOne(PackageFile, { versionId: version.id, lowerName: MANIFEST_FILE }));
  const blob = file && (await r.em.findOne(PackageBlob, { id: file.blobId }));
  if (!version || !meta || !file || !blob) throw E.manifestUnknown();
  await sendBlob(r, { blob }, meta.digest, meta.mediaType);
}

async function deleteManifest(r: ImageRequest, ref: string): Promise<void> {
  await r.em.transactional(async (tx) => {
    const versions = await manifestVersions(tx, r, ref);
    if (versions.length === 0) throw E.manifestUnknown();
    for (const v of versions) await removePackageVersion(tx, r.deps.config, v);
  });
  answer(r.ctx, 202);
}

async function tagList(r: ImageRequest): Promise<void> {
  const pkg = await imagePackage(r.em, r);
  if (!pkg) throw E.nameUnknown();
  const q = new URLSearchParams(r.ctx.querystring);
  const n = q.has('n') ? Number.parseInt(q.get('n') ?? '', 10) : -1;
  const last = q.get('last') ?? '';
  const all = (await r.em.find(PackageVersion, { packageId: pkg.id, isInternal: false }, { fields: ['version'] })).map((v) => v.version)
    .filter((v) => !DIGEST.test(v)).sort();
  const after = all.filter((t) => t > last);
  const tags = n >= 0 ? after.slice(0, n) : after;
  if (n >= 0 && after.length > tags.length && tags.length > 0) {
    r.ctx.set('Link', `</v2/${r.owner.lowerName}/${r.image}/tags/list?${new URLSearchParams({ n: String(n), last: tags[tags.length - 1] })}>; rel="next"`);
  }
  setHeaders(r.ctx, {});
  r.ctx.status = 200;
  r.ctx.body = { name: `${r.owner.lowerName}/${r.image}`, tags };
}

// ---------------------------------------------------------------------------------------------
// Routing

type Op = { level: 'read' | 'write'; run(r: ImageRequest): Promise<void> };

/** The owner, image and operation a method and the segments after `/v2/` name; null answers 404. */
function route(method: string, parts: string[]): { owner: string; image: string[]; op: Op } | null {
  const get = method === 'GET' || method === 'HEAD';
  const n = parts.length;
  const read = (run: Op['run']): Op => ({ level: 'read', run });
  const write = (run: Op['run']): Op => ({ level: 'write', run });
  const at = (image: string[], op: Op | null) => (op && image.length >= 1 ? { owner: parts[0], image, op } : null);
  if (n >= 4 && parts[n - 2] === 'tags' && parts[n - 1] === 'list') return at(parts.slice(1, n - 2), get ? read(tagList) : null);
  if (n >= 4 && parts[n - 2] === 'blobs' && parts[n - 1] === 'uploads') return at(parts.slice(1, n - 2), method === 'POST' ? write(startUpload) : null);
  if (n >= 5 && parts[n - 3] === 'blobs' && parts[n - 2] === 'uploads') {
    const uuid = parts[n - 1];
    const op = method === 'GET' ? read((r) => uploadStatus(r, uuid)) : method === 'PATCH' ? write((r) => uploadChunk(r, uuid))
      : method === 'PUT' ? write((r) => finishUpload(r, uuid)) : method === 'DELETE' ? write((r) => cancelUpload(r, uuid)) : null;
    // Uploading needs write access; reading a session's state too, as Forgejo's route group does.
    return at(parts.slice(1, n - 3), op && { ...op, level: 'write' });
  }
  if (n >= 4 && parts[n - 2] === 'blobs') {
    const digest = parts[n - 1];
    return at(parts.slice(1, n - 2), get ? read((r) => getBlob(r, digest)) : method === 'DELETE' ? write((r) => deleteBlob(r, digest)) : null);
  }
  if (n >= 4 && parts[n - 2] === 'manifests') {
    const ref = parts[n - 1];
    return at(parts.slice(1, n - 2), get ? read((r) => getManifest(r, ref)) : method === 'PUT' ? write((r) => putManifest(r, ref)) : method === 'DELETE' ? write((r) => deleteManifest(r, ref)) : null);
  }
  return null;
}

async function serve(ctx: Context, deps: PackageRegistryDeps, parts: string[]): Promise<void> {
  const em = deps.orm.em.fork();
  const header = typeof ctx.headers.authorization === 'string' ? ctx.headers.authorization : '';
  const auth = async () => (await tokenAuth(em, deps, header))
    ?? authenticate(em, deps.config, deps.authDeps, { headers: ctx.headers, query: new URLSearchParams(ctx.querystring), peer: ctx.req.socket.remoteAddress });

  if (parts.length === 1 && parts[0] === 'token' && ctx.method === 'GET') {
    const caller = await auth();
    if (!caller.doer && deps.config.SERVICE.REQUIRE_SIGNIN_VIEW) throw E.unauthorized();
    ctx.status = 200;
    ctx.body = { token: mintToken(deps, caller) };
    return;
  }
  // Every other route wants a caller: a registry token (an anonymous one too) or credentials; none gets the challenge.
  const found = parts.length === 0 ? null : route(ctx.method, parts);
  if (parts.length > 0 && !found) throw new RegistryError(404, 'NOT_FOUND:not found');
  const signed = await tokenAuth(em, deps, header);
  const caller = signed ?? (await auth());
  if (!caller.doer && (!signed || deps.config.SERVICE.REQUIRE_SIGNIN_VIEW)) throw E.unauthorized();
  if (!found) return answer(ctx, 200);
  const image = found.image.join('/');
  if (!IMAGE.test(image)) throw E.nameInvalid();
  const owner = await em.findOne(User, { lowerName: found.owner.toLowerCase() });
  if (!owner) throw E.nameUnknown();
  const r: ImageRequest = { ctx, deps, em, auth: caller, owner, image };
  try {
    await checkAccess(deps.config, r, found.op.level);
  } catch (e) {
    if (e instanceof RegistryError && e.status === 401) throw E.unauthorized(e.message);
    if (e instanceof RegistryError && e.status === 403) throw E.denied(e.message);
    throw e;
  }
  await found.op.run(r);
}

/** Koa middleware for `<ROOT>v2/`; mount it before the body parser, which must not read the uploads. */
export function serveContainerRegistry(deps: PackageRegistryDeps): Middleware {
  const prefix = `${deps.config.appSubUrl}/v2`;
  return async (ctx, next) => {
    if (ctx.path !== prefix && !ctx.path.startsWith(`${prefix}/`)) return next();
    const parts = pathSegments(ctx.path.slice(prefix.length));
    try {
      if (!parts) throw new RegistryError(400, 'NAME_INVALID:invalid path');
      await serve(ctx, deps, parts);
    } catch (e) {
      const err = e instanceof RegistryError ? e : e instanceof HttpError && e.status < 500 ? new RegistryError(e.status, e.message, e.status === 401) : null;
      if (!err) throw e;
      if (e instanceof HttpError) for (const [k, v] of Object.entries(e.extra.headers ?? {})) ctx.set(k, v);
      renderError(ctx, deps.config.appUrl, err);
    }
  };
}
