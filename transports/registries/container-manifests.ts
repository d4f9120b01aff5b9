// Manifests and tag lists of the container registry (OCI distribution spec: manifests, tags/list).
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { type EntityManager } from '@mikro-orm/core';
import {
  PackageBlob,
  PackageFile,
  PackageProperty,
  PackageVersion,
  PropertyType,
  type IPackageBlob,
  type IPackageVersion,
} from '../../model/package.ts';
import { removePackageVersion, spool } from '../../lib/packages/packages.ts';
import { checkQuota, RegistryError, uploader } from '../../lib/packages/registries/common.ts';
import { readCapped } from './common.ts';
import {
  DIGEST_PROPERTY,
  MANIFEST_FILE,
  MAX_MANIFEST,
  TAG,
  DIGEST,
  IMAGE_MANIFESTS,
  INDEXES,
  E,
  type ImageRequest,
  imagePackage,
  ensurePackage,
  ensureVersion,
  blobOf,
  addFile,
  localBlob,
  type ManifestMeta,
  metaOf,
} from '../../lib/packages/registries/container-storage.ts';
import { answer, ownerPath, setHeaders } from './container-answer.ts';
import { sendBlob } from './container-blobs.ts';

// ---------------------------------------------------------------------------------------------
// Manifests

export async function manifestVersions(em: EntityManager, r: ImageRequest, ref: string): Promise<IPackageVersion[]> {
  const pkg = await imagePackage(em, r);
  if (!pkg) return [];
  if (!DIGEST.test(ref)) {
    const v = TAG.test(ref)
      ? await em.findOne(PackageVersion, { packageId: pkg.id, lowerVersion: ref.toLowerCase(), isInternal: false })
      : null;
    return v ? [v] : [];
  }
  const ids = (await em.find(PackageVersion, { packageId: pkg.id, isInternal: false }, { fields: ['id'] })).map((v) => v.id);
  const props = ids.length
    ? await em.find(PackageProperty, { refType: PropertyType.version, refId: { $in: ids }, name: DIGEST_PROPERTY, value: ref })
    : [];
  return props.length ? em.find(PackageVersion, { id: { $in: props.map((p) => p.refId) } }, { orderBy: { id: 'asc' } }) : [];
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const digestsOf = (v: unknown): string[] | null => {
  if (!Array.isArray(v)) return null;
  const out = v.map((x) => (isRecord(x) && typeof x.digest === 'string' ? x.digest : ''));
  return out.every((d) => DIGEST.test(d)) ? out : null;
};

export async function putManifest(r: ImageRequest, ref: string): Promise<void> {
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
  const mediaType =
    typeof doc.mediaType === 'string' && doc.mediaType !== '' ? doc.mediaType : r.ctx.get('Content-Type').split(';')[0].trim();
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

export async function getManifest(r: ImageRequest, ref: string): Promise<void> {
  const [version] = await manifestVersions(r.em, r, ref);
  const meta = version && metaOf(version);
  const file = version && (await r.em.findOne(PackageFile, { versionId: version.id, lowerName: MANIFEST_FILE }));
  const blob = file && (await r.em.findOne(PackageBlob, { id: file.blobId }));
  if (!version || !meta || !file || !blob) throw E.manifestUnknown();
  await sendBlob(r, { blob }, meta.digest, meta.mediaType);
}

export async function deleteManifest(r: ImageRequest, ref: string): Promise<void> {
  await r.em.transactional(async (tx) => {
    const versions = await manifestVersions(tx, r, ref);
    if (versions.length === 0) throw E.manifestUnknown();
    for (const v of versions) await removePackageVersion(tx, r.deps.config, v);
  });
  answer(r.ctx, 202);
}

export async function tagList(r: ImageRequest): Promise<void> {
  const pkg = await imagePackage(r.em, r);
  if (!pkg) throw E.nameUnknown();
  const q = new URLSearchParams(r.ctx.querystring);
  const n = q.has('n') ? Number.parseInt(q.get('n') ?? '', 10) : -1;
  const last = q.get('last') ?? '';
  const all = (await r.em.find(PackageVersion, { packageId: pkg.id, isInternal: false }, { fields: ['version'] }))
    .map((v) => v.version)
    .filter((v) => !DIGEST.test(v))
    .sort();
  const after = all.filter((t) => t > last);
  const tags = n >= 0 ? after.slice(0, n) : after;
  if (n >= 0 && after.length > tags.length && tags.length > 0) {
    r.ctx.set(
      'Link',
      `</v2/${r.owner.lowerName}/${r.image}/tags/list?${new URLSearchParams({ n: String(n), last: tags[tags.length - 1] })}>; rel="next"`,
    );
  }
  setHeaders(r.ctx, {});
  r.ctx.status = 200;
  r.ctx.body = { name: `${r.owner.lowerName}/${r.image}`, tags };
}
