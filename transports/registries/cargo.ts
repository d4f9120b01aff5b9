// The Cargo registry (Forgejo routers/api/packages/cargo, modules/packages/cargo), under <ROOT>api/packages/<owner>/cargo/,
// served as a sparse index (https://doc.rust-lang.org/cargo/reference/registry-index.html#sparse-protocol) with
// the registry web API (https://doc.rust-lang.org/cargo/reference/registry-web-api.html):
//   GET    config.json                               `dl` and `api` URLs (`auth-required` for a non-public owner)
//   GET    1/<name>, 2/<name>, 3/<c>/<name>, <ab>/<cd>/<name>   the index file: one JSON line per version
//   GET    api/v1/crates?q=&per_page=                search
//   PUT    api/v1/crates/new                         publish (u32 LE length, JSON metadata, u32 LE length, .crate)
//   GET    api/v1/crates/<name>/<version>/download   the .crate
//   DELETE api/v1/crates/<name>/<version>/yank, PUT .../unyank   `{"ok":true}`
//   GET    api/v1/crates/<name>/owners               the owner
// Errors are Cargo's `{"errors":[{"detail": message}]}`. Cargo sends the token as the whole Authorization
// header, without a scheme (its rows' PKG_CALLER_RAW_TOKEN step). The .crate streams from the request into the spool; a frame
// that is cut short or malformed is 400 and stores nothing.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Package, PackageBlob, PackageFile, PackageProperty, PackageVersion, PropertyType } from '../../model/package.ts';
import { isStorableText } from '../../model/schemas/storable.ts';
import { bodyCap } from '../../lib/http/request-body.ts';
import {
  addPackageFile,
  DuplicateFileError,
  DuplicateVersionError,
  findPackage,
  findVersion,
  spool,
  versionFiles,
} from '../../lib/packages/packages.ts';
import { checkQuota, RegistryError, uploader, ofOwner, type Registry, type RegistryRequest } from '../../lib/packages/registries/common.ts';
import { sendFile } from './common.ts';
import { badMetadata, metadataOf, NAME, parseMetadata, TYPE, YANKED_PROPERTY } from '../../lib/packages/registries/cargo-metadata.ts';

/** Reads exact byte counts from the request as they arrive. */
class FrameReader {
  private buf: Buffer = Buffer.alloc(0);
  private ended = false;
  private readonly it: AsyncIterator<Buffer>;

  constructor(body: AsyncIterable<Buffer>) {
    this.it = body[Symbol.asyncIterator]();
  }

  private async fill(n: number): Promise<void> {
    while (this.buf.length < n && !this.ended) {
      const next = await this.it.next();
      if (next.done) this.ended = true;
      else this.buf = this.buf.length ? Buffer.concat([this.buf, next.value]) : next.value;
    }
    if (this.buf.length < n) throw new RegistryError(400, 'invalid upload: the body ends early');
  }

  async take(n: number): Promise<Buffer> {
    await this.fill(n);
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  async u32(): Promise<number> {
    return (await this.take(4)).readUInt32LE(0);
  }

  /** The next `n` bytes as they come, without holding more than one chunk. */
  async *stream(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buf.length === 0) await this.fill(1);
      const part = this.buf.subarray(0, Math.min(left, this.buf.length));
      this.buf = this.buf.subarray(part.length);
      left -= part.length;
      yield part;
    }
  }
}

async function publish(r: RegistryRequest): Promise<void> {
  const creator = uploader(r);
  await checkQuota(r, creator);
  const reader = new FrameReader(r.ctx.req);
  const jsonLength = await reader.u32();
  if (jsonLength > bodyCap(r.deps.config)) throw new RegistryError(413, 'request entity too large');
  let json: unknown;
  try {
    json = JSON.parse((await reader.take(jsonLength)).toString('utf8'));
  } catch (e) {
    if (e instanceof SyntaxError) throw badMetadata(e.message);
    throw e;
  }
  const { name, version, metadata } = parseMetadata(json);
  const crateLength = await reader.u32();
  const up = await spool(r.deps.config, Readable.from(reader.stream(crateLength)));
  try {
    await r.em.transactional((tx) =>
      addPackageFile(tx, r.deps.config, {
        ownerId: r.owner.id,
        type: TYPE,
        name,
        version,
        creator,
        filename: `${name}-${version}.crate`.toLowerCase(),
        upload: up,
        newVersion: true,
        metadata,
        semverCompatible: true,
      }),
    );
  } catch (e) {
    if (e instanceof DuplicateVersionError || e instanceof DuplicateFileError || e instanceof UniqueConstraintViolationException)
      throw new RegistryError(409, 'package version already exists');
    throw e;
  } finally {
    await fs.promises.rm(up.file, { force: true });
  }
  r.ctx.status = 200;
  r.ctx.body = { warnings: { invalid_categories: [], invalid_badges: [], other: [] } };
}

/** The `cargo.yanked` property of each version that has one. */
async function yankedOf(r: RegistryRequest, versionIds: number[]): Promise<Set<number>> {
  if (versionIds.length === 0) return new Set();
  const props = await r.em.find(PackageProperty, { refType: PropertyType.version, refId: { $in: versionIds }, name: YANKED_PROPERTY });
  return new Set(props.filter((p) => p.value === 'true').map((p) => p.refId));
}

/** Cargo's sparse index path of a name: `1/a`, `2/ab`, `3/a/abc`, `ab/cd/abcd…` (lower case). */
function indexPath(name: string): string[] {
  const n = name.toLowerCase();
  if (n.length <= 2) return [String(n.length), n];
  if (n.length === 3) return ['3', n[0], n];
  return [n.slice(0, 2), n.slice(2, 4), n];
}

/** The crate a sparse index path names (`3/a/abc`, in any case), or null when the segments are no index path. */
export function indexedCrate(parts: readonly string[]): string | null {
  const name = parts[parts.length - 1];
  return name && NAME.test(name) && indexPath(name).join('/') === parts.join('/').toLowerCase() ? name : null;
}

// Features using `dep:` or `?/` go into `features2` with `v: 2`, as crates.io writes them, so older Cargo skips the entry.
const isFeature2 = (values: string[]) => values.some((v) => v.startsWith('dep:') || v.includes('?/'));

async function indexFile(r: RegistryRequest, name: string): Promise<void> {
  const pkg = await findPackage(r.em, r.owner.id, TYPE, name);
  const versions = pkg ? await r.em.find(PackageVersion, { packageId: pkg.id, isInternal: false }, { orderBy: { id: 'asc' } }) : [];
  if (!pkg || versions.length === 0) throw new RegistryError(404, 'package does not exist');
  const files = await r.em.find(PackageFile, { versionId: { $in: versions.map((v) => v.id) }, isLead: true });
  const fileOf = new Map(files.map((f) => [f.versionId, f]));
  const blobs = new Map(
    (files.length ? await r.em.find(PackageBlob, { id: { $in: files.map((f) => f.blobId) } }) : []).map((b) => [b.id, b]),
  );
  const yanked = await yankedOf(
    r,
    versions.map((v) => v.id),
  );
  const lines = versions.flatMap((v) => {
    const file = fileOf.get(v.id);
    const blob = file && blobs.get(file.blobId);
    if (!blob) return [];
    const m = metadataOf(v);
    const all = Object.entries(m.features ?? {});
    const features2 = all.filter(([, vals]) => isFeature2(vals));
    return [
      JSON.stringify({
        name: pkg.name,
        vers: v.version,
        deps: m.dependencies ?? [],
        cksum: blob.hashSha256,
        features: Object.fromEntries(all.filter(([, vals]) => !isFeature2(vals))),
        yanked: yanked.has(v.id),
        links: m.links ?? null,
        ...(features2.length ? { features2: Object.fromEntries(features2), v: 2 } : {}),
        ...(m.rust_version ? { rust_version: m.rust_version } : {}),
      }),
    ];
  });
  r.ctx.status = 200;
  r.ctx.type = 'text/plain; charset=utf-8';
  r.ctx.body = lines.map((l) => `${l}\n`).join('');
}

const base = (r: RegistryRequest) => `${r.deps.config.appUrl}api/packages/${r.owner.name}/cargo`;

async function config(r: RegistryRequest): Promise<void> {
  r.ctx.status = 200;
  r.ctx.body = { dl: `${base(r)}/api/v1/crates`, api: base(r), ...(r.owner.visibility !== 'public' ? { 'auth-required': true } : {}) };
}

async function download(r: RegistryRequest, name: string, version: string): Promise<void> {
  const found = await findVersion(r.em, { ownerId: r.owner.id, type: TYPE, name, version });
  const entry = found && (await versionFiles(r.em, found.version.id)).find((f) => f.file.isLead);
  if (!found || !entry) throw new RegistryError(404, 'package file does not exist');
  await sendFile(r, found.version.id, entry, 'application/x-tar');
}

async function setYanked(r: RegistryRequest, name: string, version: string, yanked: boolean): Promise<void> {
  await r.em.transactional(async (tx) => {
    const found = await findVersion(tx, { ownerId: r.owner.id, type: TYPE, name, version });
    if (!found) throw new RegistryError(404, 'package does not exist');
    await tx.nativeDelete(PackageProperty, { refType: PropertyType.version, refId: found.version.id, name: YANKED_PROPERTY });
    tx.create(PackageProperty, { refType: PropertyType.version, refId: found.version.id, name: YANKED_PROPERTY, value: String(yanked) });
    await tx.flush();
  });
  r.ctx.status = 200;
  r.ctx.body = { ok: true };
}

async function search(r: RegistryRequest): Promise<void> {
  const q = new URLSearchParams(r.ctx.querystring);
  const text = (q.get('q') ?? '').trim().toLowerCase();
  if (!isStorableText(text)) throw new RegistryError(400, 'invalid search text');
  const api = r.deps.config.API;
  const asked = Number.parseInt(q.get('per_page') ?? '0', 10) || 0;
  const size = Math.min(asked > 0 ? asked : api.DEFAULT_PAGING_NUM, api.MAX_RESPONSE_ITEMS);
  const like = `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const [pkgs, total] = await r.em.findAndCount(
    Package,
    { ownerId: r.owner.id, type: TYPE, ...(text ? { lowerName: { $like: like } } : {}) },
    { orderBy: { lowerName: 'asc' }, limit: size },
  );
  const crates = [];
  for (const pkg of pkgs) {
    const v = await r.em.findOne(PackageVersion, { packageId: pkg.id, isInternal: false }, { orderBy: { id: 'desc' } });
    if (v) crates.push({ name: pkg.name, max_version: v.version, description: metadataOf(v).description ?? '' });
  }
  r.ctx.status = 200;
  r.ctx.body = { crates, meta: { total } };
}

async function owners(r: RegistryRequest): Promise<void> {
  r.ctx.status = 200;
  r.ctx.body = { users: [{ id: r.owner.id, login: r.owner.name, name: r.owner.fullName || r.owner.name }] };
}

export const cargo: Registry = {
  type: TYPE,
  handlers: {
    search: ofOwner((r) => search(r)),
    publish: ofOwner((r) => publish(r)),
    owners: ofOwner((r) => owners(r)),
    download: ofOwner((r, p) => download(r, p.name!, p.version!)),
    yank: ofOwner((r, p) => setYanked(r, p.name!, p.version!, true)),
    unyank: ofOwner((r, p) => setYanked(r, p.name!, p.version!, false)),
    config: ofOwner((r) => config(r)),
    indexFile: ofOwner((r, p) => indexFile(r, p.name!)),
  },
  renderError(ctx, err) {
    ctx.status = err.status;
    ctx.body = { errors: [{ detail: err.message }] };
  },
};
