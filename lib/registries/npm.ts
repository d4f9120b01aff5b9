// The npm registry (Forgejo routers/api/packages/npm, modules/packages/npm), under <ROOT>api/packages/<owner>/npm/.
// A name is `name`, `@scope/name` or `@scope%2fname`:
//   GET    <name>                                  the package document (every version, dist-tags)
//   PUT    <name>                                  publish (npm's JSON with a base64 `_attachments` tarball; 201)
//   GET    <name>/-/<version>/<file>, <name>/-/<file>   the tarball
//   DELETE <name>/-/<version>/<file>/-rev/<rev>    unpublish a version; DELETE <name>/-rev/<rev> the package
//   PUT    <name>/-rev/<rev>                       the packument npm sends before deleting a tarball (ignored, 200)
//   GET    -/package/<name>/dist-tags, PUT/DELETE -/package/<name>/dist-tags/<tag>
//   GET    -/v1/search?text=&from=&size=
// Errors are JSON `{"error": message}`. A version is stored with Forgejo's npm metadata; a dist-tag is an
// `npm.tag` property of the version it points to.
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { Package, PackageBlob, PackageFile, PackageProperty, PackageVersion, PropertyType, type IPackage, type IPackageVersion } from '../../model/package.ts';
import { Repository } from '../../model/repo.ts';
import { User } from '../../model/user.ts';
import { repoPermission } from '../perm.ts';
import { isSiteAdmin } from '../request.ts';
import { isStorableText } from '../../model/schemas/storable.ts';
import { addPackageFile, DuplicateFileError, DuplicateVersionError, findPackage, findVersion, removePackageVersion, spool, versionFiles } from '../packages.ts';
import { checkQuota, emptyAnswer, readCapped, RegistryError, sendFile, uploader, type Operation, type Registry, type RegistryRequest } from './common.ts';

const TYPE = 'npm';
const TAG_PROPERTY = 'npm.tag';

const NAME = /^(@[a-z0-9-][a-z0-9-._]*\/)?[a-z0-9-][a-z0-9-._]*$/;
const validName = (name: string) => name.trim() === name && name.length > 0 && name.length <= 214 && NAME.test(name);

// ---------------------------------------------------------------------------------------------
// Versions (hashicorp/go-version as Forgejo parses them: a leading `v`, missing minor or patch)

interface SemVer { nums: [number, number, number]; pre: string; build: string }

const SEMVER = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;
// go-version's NewVersion also takes a pre-release without its hyphen (`1.0beta`); a tag must not look like either.
const LOOSE_VERSION = /^v?\d+(?:\.\d+)*(?:-?[0-9A-Za-z-~]+(?:\.[0-9A-Za-z-~]+)*)?(?:\+[0-9A-Za-z-~]+(?:\.[0-9A-Za-z-~]+)*)?$/;

function parseSemver(v: string): SemVer | null {
  const m = v.length <= 255 ? SEMVER.exec(v) : null;
  if (!m) return null;
  const nums = [m[1], m[2], m[3]].map((n) => Number(n ?? 0));
  if (!nums.every(Number.isSafeInteger)) return null;
  return { nums: nums as [number, number, number], pre: m[4] ?? '', build: m[5] ?? '' };
}

const semverString = (s: SemVer) => `${s.nums.join('.')}${s.pre ? `-${s.pre}` : ''}${s.build ? `+${s.build}` : ''}`;

function compareSemver(a: SemVer, b: SemVer): number {
  for (let i = 0; i < 3; i++) if (a.nums[i] !== b.nums[i]) return a.nums[i] - b.nums[i];
  if (a.pre === b.pre) return 0;
  if (!a.pre || !b.pre) return a.pre ? -1 : 1;
  const x = a.pre.split('.');
  const y = b.pre.split('.');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] === y[i]) continue;
    const nx = /^\d+$/.test(x[i]);
    const ny = /^\d+$/.test(y[i]);
    if (nx && ny) return Number(x[i]) - Number(y[i]);
    if (nx !== ny) return nx ? -1 : 1;
    return x[i] < y[i] ? -1 : 1;
  }
  return x.length - y.length;
}

const MAX_TAG = 255;
const invalidTag = () => new RegistryError(400, 'The tag name is invalid');
function checkTag(tag: string): void {
  if (tag === '' || tag.length > MAX_TAG || !isStorableText(tag) || LOOSE_VERSION.test(tag)) throw invalidTag();
}

// ---------------------------------------------------------------------------------------------
// Metadata (Forgejo's npm.Metadata, as stored in package_version.metadata)

interface Metadata {
  scope?: string;
  name?: string;
  description?: string;
  author?: string;
  license?: string;
  project_url?: string;
  keywords?: string[];
  dependencies?: Record<string, string>;
  bundleDependencies?: string[];
  development_dependencies?: Record<string, string>;
  peer_dependencies?: Record<string, string>;
  optional_dependencies?: Record<string, string>;
  bin?: Record<string, string>;
  readme?: string;
  repository: { type: string; url: string };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strList = (v: unknown): string[] | undefined => (Array.isArray(v) && v.length > 0 ? v.filter((x): x is string => typeof x === 'string') : undefined);
function strMap(v: unknown): Record<string, string> | undefined {
  if (!isRecord(v)) return undefined;
  const out = Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return Object.keys(out).length > 0 ? out : undefined;
}
/** npm's `bin` may be one path (named after the package) or a map. */
const binOf = (v: unknown, name: string) => (typeof v === 'string' ? { [name]: v } : strMap(v));
/** An npm person is `"Name <mail> (url)"` or `{ name, email, url }`; Forgejo keeps the name (the whole string). */
const personName = (v: unknown) => (typeof v === 'string' ? str(v) : isRecord(v) ? str(v.name) : undefined);
function validUrl(v: string | undefined): string | undefined {
  if (!v) return undefined;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol) ? v : undefined;
  } catch {
    return undefined;
  }
}
function repositoryOf(v: unknown): Metadata['repository'] {
  if (typeof v === 'string') return { type: '', url: v };
  return isRecord(v) ? { type: str(v.type) ?? '', url: str(v.url) ?? '' } : { type: '', url: '' };
}

const metadataOf = (v: IPackageVersion): Metadata => (isRecord(v.metadata) ? v.metadata as unknown as Metadata : { repository: { type: '', url: '' } });

// ---------------------------------------------------------------------------------------------
// Publish (Forgejo's npm.ParsePackage and UploadPackage)

interface Upload {
  name: string;
  version: string;
  filename: string;
  data: Buffer;
  tags: string[];
  metadata: Metadata;
}

/** Every string (and key) of a JSON value is storable text; depth is bounded by the body cap. */
function storable(v: unknown): boolean {
  const stack = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x === 'string') {
      if (!isStorableText(x)) return false;
    } else if (Array.isArray(x)) {
      for (const y of x) stack.push(y);
    } else if (isRecord(x)) {
      for (const [k, y] of Object.entries(x)) {
        if (!isStorableText(k)) return false;
        stack.push(y);
      }
    }
  }
  return true;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function parseUpload(body: Buffer): Upload {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch (e) {
    // RangeError: nesting deeper than the parser's stack.
    if (e instanceof SyntaxError || e instanceof RangeError) throw new RegistryError(400, 'package is invalid');
    throw e;
  }
  // PostgreSQL can store neither NUL nor a lone surrogate (model/schemas/storable.ts).
  if (!storable(doc)) throw new RegistryError(400, 'package is invalid');
  const versions = isRecord(doc) && isRecord(doc.versions) ? Object.values(doc.versions) : [];
  const meta = versions[0];
  if (!isRecord(doc) || !isRecord(meta)) throw new RegistryError(400, 'package is invalid');
  const fullName = typeof meta.name === 'string' ? meta.name : '';
  if (!validName(fullName)) throw new RegistryError(400, 'package name is invalid');
  const semver = typeof meta.version === 'string' ? parseSemver(meta.version) : null;
  if (!semver) throw new RegistryError(400, 'package version is invalid');
  const version = semverString(semver);
  const [scope, name] = fullName.includes('/') ? fullName.split('/', 2) : ['', fullName];

  const attachment = isRecord(doc._attachments) ? Object.values(doc._attachments)[0] : undefined;
  const b64 = isRecord(attachment) && typeof attachment.data === 'string' ? attachment.data : '';
  if (b64 === '' || !BASE64.test(b64)) throw new RegistryError(400, 'package attachment is invalid');
  const data = Buffer.from(b64, 'base64');

  // The tarball must match what the client computed: `dist.integrity` (sha512 or sha1, as Forgejo
  // checks), and `dist.shasum` when present.
  const dist = isRecord(meta.dist) ? meta.dist : {};
  const integrity = typeof dist.integrity === 'string' ? dist.integrity : '';
  const cut = integrity.indexOf('-');
  const algorithm = integrity.slice(0, cut);
  const expected = integrity.slice(cut + 1);
  const integrityOk = cut > 0 && (algorithm === 'sha512' || algorithm === 'sha1') && BASE64.test(expected)
    && Buffer.from(expected, 'base64').equals(createHash(algorithm).update(data).digest());
  const shasumOk = dist.shasum === undefined || (typeof dist.shasum === 'string' && dist.shasum.toLowerCase() === createHash('sha1').update(data).digest('hex'));
  if (!integrityOk || !shasumOk) throw new RegistryError(400, 'failed to validate integrity');

  const tags = isRecord(doc['dist-tags']) ? Object.keys(doc['dist-tags']) : [];
  for (const tag of tags) checkTag(tag);

  const metadata: Metadata = {
    scope: scope || undefined,
    name,
    description: str(meta.description),
    author: personName(meta.author),
    license: str(meta.license),
    project_url: validUrl(str(meta.homepage)),
    keywords: strList(meta.keywords),
    dependencies: strMap(meta.dependencies),
    bundleDependencies: strList(meta.bundleDependencies),
    development_dependencies: strMap(meta.devDependencies),
    peer_dependencies: strMap(meta.peerDependencies),
    optional_dependencies: strMap(meta.optionalDependencies),
    bin: binOf(meta.bin, name),
    readme: str(meta.readme),
    repository: repositoryOf(meta.repository),
  };
  return { name: fullName, version, filename: `${name}-${version}.tgz`.toLowerCase(), data, tags, metadata };
}

/**
 * The repository of this instance a `repository.url` names (`<ROOT_URL><owner>/<repo>[.git]`), as
 * Forgejo's GetRepositoryByURL finds it; null for any other URL.
 */
async function localRepository(r: RegistryRequest, url: string) {
  const root = r.deps.config.appUrl;
  const rest = url.replace(/^git\+/, '');
  if (!rest.startsWith(root)) return null;
  const m = /^([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(rest.slice(root.length));
  if (!m) return null;
  const owner = await r.em.findOne(User, { lowerName: decodeURIComponent(m[1]).toLowerCase() });
  const repo = owner && (await r.em.findOne(Repository, { ownerId: owner.id, lowerName: decodeURIComponent(m[2]).toLowerCase() }));
  return owner && repo ? { owner, repo } : null;
}

async function publish(r: RegistryRequest): Promise<void> {
  const creator = uploader(r);
  await checkQuota(r, creator);
  const upload = parseUpload(await readCapped(r));
  // As Forgejo: a `repository.url` naming a repository here links the package to it, which needs write
  // access to that repository's packages (403 otherwise).
  const linked = await localRepository(r, upload.metadata.repository.url);
  if (linked) {
    const perm = await repoPermission(r.em, { repo: linked.repo, owner: linked.owner, doer: creator, siteAdmin: isSiteAdmin(r), token: r.auth.token });
    if (linked.repo.ownerId !== creator.id && !perm.canWrite('packages')) throw new RegistryError(403, 'no permission to upload this package');
  }
  const up = await spool(r.deps.config, Readable.from([upload.data]));
  try {
    await r.em.transactional(async (tx) => {
      const { pkg, version } = await addPackageFile(tx, r.deps.config, {
        ownerId: r.owner.id, type: TYPE, name: upload.name, version: upload.version, creator, filename: upload.filename, upload: up,
        newVersion: true, metadata: upload.metadata, semverCompatible: true,
      });
      for (const tag of upload.tags) await setTag(tx, pkg.id, version.id, tag, false);
      if (linked && linked.repo.ownerId === r.owner.id) {
        pkg.repoId = linked.repo.id;
        await tx.flush();
      }
    });
  } catch (e) {
    if (e instanceof DuplicateVersionError || e instanceof DuplicateFileError || e instanceof UniqueConstraintViolationException) throw new RegistryError(409, 'package version already exists');
    throw e;
  } finally {
    await fs.promises.rm(up.file, { force: true });
  }
  emptyAnswer(r.ctx, 201);
}

// ---------------------------------------------------------------------------------------------
// Dist-tags

/** Moves `tag` to `versionId` (or only removes it), in one transaction (Forgejo's setPackageTag). */
async function setTag(em: EntityManager, packageId: number, versionId: number, tag: string, deleteOnly: boolean): Promise<void> {
  checkTag(tag);
  const versionIds = (await em.find(PackageVersion, { packageId }, { fields: ['id'] })).map((v) => v.id);
  await em.nativeDelete(PackageProperty, { refType: PropertyType.version, refId: { $in: versionIds }, name: TAG_PROPERTY, value: tag });
  if (!deleteOnly) {
    em.create(PackageProperty, { refType: PropertyType.version, refId: versionId, name: TAG_PROPERTY, value: tag });
    await em.flush();
  }
}

async function packageVersions(em: EntityManager, ownerId: number, name: string): Promise<{ pkg: IPackage; versions: IPackageVersion[] } | null> {
  const pkg = await findPackage(em, ownerId, TYPE, name);
  const versions = pkg ? await em.find(PackageVersion, { packageId: pkg.id }, { orderBy: { id: 'asc' } }) : [];
  return pkg && versions.length > 0 ? { pkg, versions } : null;
}

/** tag → version of each `npm.tag` property of the versions. */
async function tagsOf(em: EntityManager, versions: IPackageVersion[]): Promise<Map<string, IPackageVersion>> {
  const byId = new Map(versions.map((v) => [v.id, v]));
  const props = versions.length ? await em.find(PackageProperty, { refType: PropertyType.version, refId: { $in: [...byId.keys()] }, name: TAG_PROPERTY }, { orderBy: { id: 'asc' } }) : [];
  return new Map(props.map((p) => [p.value, byId.get(p.refId)!]));
}

async function listTags(r: RegistryRequest, name: string): Promise<void> {
  const found = await packageVersions(r.em, r.owner.id, name);
  const tags = found ? await tagsOf(r.em, found.versions) : new Map<string, IPackageVersion>();
  r.ctx.status = 200;
  r.ctx.body = Object.fromEntries([...tags].map(([tag, v]) => [tag, v.version]));
}

async function addTag(r: RegistryRequest, name: string, tag: string): Promise<void> {
  const text = (await readCapped(r)).toString('utf8').trim();
  // The body is the version as a JSON string; Forgejo trims the quotes.
  const version = text.replace(/^"+|"+$/g, '');
  const found = isStorableText(version) && version.length <= 255 && await findVersion(r.em, { ownerId: r.owner.id, type: TYPE, name, version });
  if (!found) throw new RegistryError(404, 'package does not exist');
  await r.em.transactional((tx) => setTag(tx, found.pkg.id, found.version.id, tag, false));
  emptyAnswer(r.ctx, 200);
}

async function removeTag(r: RegistryRequest, name: string, tag: string): Promise<void> {
  const found = await packageVersions(r.em, r.owner.id, name);
  if (found) await r.em.transactional((tx) => setTag(tx, found.pkg.id, found.versions[0].id, tag, true));
  emptyAnswer(r.ctx, 200);
}

// ---------------------------------------------------------------------------------------------
// Reading

const registryUrl = (r: RegistryRequest) => `${r.deps.config.appUrl}api/packages/${r.owner.name}/npm`;
const user = (name: string | undefined) => ({ name: name ?? '' });
const omitEmpty = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;

async function packageDocument(r: RegistryRequest, name: string): Promise<void> {
  const found = await packageVersions(r.em, r.owner.id, name);
  if (!found) throw new RegistryError(404, 'package does not exist');
  const { pkg } = found;
  const versions = found.versions.map((v) => ({ v, semver: parseSemver(v.version) ?? { nums: [0, 0, 0], pre: '', build: '' } as SemVer }))
    .sort((a, b) => compareSemver(a.semver, b.semver));
  const files = await r.em.find(PackageFile, { versionId: { $in: versions.map((x) => x.v.id) }, isLead: true }, { orderBy: { id: 'asc' } });
  const fileOf = new Map(files.map((f) => [f.versionId, f]));
  const blobs = new Map((files.length ? await r.em.find(PackageBlob, { id: { $in: files.map((f) => f.blobId) } }) : []).map((b) => [b.id, b]));
  const tags = await tagsOf(r.em, found.versions);
  const base = registryUrl(r);

  const out: Record<string, unknown> = {};
  const times: Record<string, string> = {};
  for (const { v } of versions) {
    const m = metadataOf(v);
    const file = fileOf.get(v.id);
    const blob = file && blobs.get(file.blobId);
    if (!file || !blob) continue;
    times[v.version] = v.createdAt.toISOString();
    out[v.version] = {
      _id: `${pkg.name}@${v.version}`,
      name: pkg.name,
      version: v.version,
      description: m.description ?? '',
      author: user(m.author),
      ...omitEmpty({ homepage: m.project_url, license: m.license }),
      repository: m.repository,
      ...omitEmpty({
        keywords: m.keywords, dependencies: m.dependencies, bundleDependencies: m.bundleDependencies, devDependencies: m.development_dependencies,
        peerDependencies: m.peer_dependencies, bin: m.bin, optionalDependencies: m.optional_dependencies, readme: m.readme,
      }),
      dist: {
        integrity: `sha512-${Buffer.from(blob.hashSha512, 'hex').toString('base64')}`,
        shasum: blob.hashSha1,
        tarball: `${base}/${encodeURIComponent(pkg.name)}/-/${encodeURIComponent(v.version)}/${encodeURIComponent(file.lowerName)}`,
      },
      maintainers: [user(r.owner.name)],
    };
  }
  const distTags = Object.fromEntries([...tags].map(([tag, v]) => [tag, v.version]));
  // Yarn and pnpm need `latest`; when its version is gone, the highest release stands in (as Forgejo does).
  let latest = tags.get('latest');
  if (!latest) {
    latest = ([...versions].reverse().find((x) => !x.semver.pre) ?? versions[versions.length - 1]).v;
    distTags.latest = latest.version;
  }
  const created = found.versions.map((v) => v.createdAt.getTime());
  const m = metadataOf(latest);
  r.ctx.status = 200;
  r.ctx.body = {
    _id: pkg.name,
    name: pkg.name,
    description: m.description ?? '',
    'dist-tags': distTags,
    versions: out,
    ...omitEmpty({ readme: m.readme }),
    maintainers: [user(r.owner.name)],
    time: { ...times, created: new Date(Math.min(...created)).toISOString(), modified: new Date(Math.max(...created)).toISOString() },
    ...omitEmpty({ homepage: m.project_url, keywords: m.keywords }),
    repository: m.repository,
    author: user(m.author),
    ...omitEmpty({ license: m.license }),
  };
}

async function download(r: RegistryRequest, name: string, version: string, filename: string): Promise<void> {
  const found = await findVersion(r.em, { ownerId: r.owner.id, type: TYPE, name, version });
  const lower = filename.toLowerCase();
  const entry = found && (await versionFiles(r.em, found.version.id)).find((f) => f.file.lowerName === lower);
  if (!found || !entry) throw new RegistryError(404, 'package file does not exist');
  await sendFile(r, found.version.id, entry);
}

/** `<name>/-/<file>`: the one version holding a file of that name (Forgejo's DownloadPackageFileByName). */
async function downloadByName(r: RegistryRequest, name: string, filename: string): Promise<void> {
  const found = await packageVersions(r.em, r.owner.id, name);
  const files = found ? await r.em.find(PackageFile, { versionId: { $in: found.versions.map((v) => v.id) }, lowerName: filename.toLowerCase() }) : [];
  if (!found || files.length !== 1) throw new RegistryError(404, 'package file does not exist');
  const blob = await r.em.findOneOrFail(PackageBlob, { id: files[0].blobId });
  await sendFile(r, files[0].versionId, { file: files[0], blob });
}

/** Forgejo's SearchLatestVersions: each matching package with its newest version, `from`/`size` paging. */
async function search(r: RegistryRequest): Promise<void> {
  const q = new URLSearchParams(r.ctx.querystring);
  const text = (q.get('text') ?? '').trim().toLowerCase();
  if (!isStorableText(text)) throw new RegistryError(400, 'invalid search text');
  const from = Math.max(0, Number.parseInt(q.get('from') ?? '0', 10) || 0);
  const api = r.deps.config.API;
  const asked = Number.parseInt(q.get('size') ?? '0', 10) || 0;
  const size = Math.min(asked > 0 ? asked : api.DEFAULT_PAGING_NUM, api.MAX_RESPONSE_ITEMS);
  const like = `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const [pkgs, total] = await r.em.findAndCount(Package, { ownerId: r.owner.id, type: TYPE, ...(text ? { lowerName: { $like: like } } : {}) }, { orderBy: { lowerName: 'asc' }, limit: size, offset: from });
  const objects = [];
  for (const pkg of pkgs) {
    const v = await r.em.findOne(PackageVersion, { packageId: pkg.id }, { orderBy: { id: 'desc' } });
    if (!v) continue;
    const m = metadataOf(v);
    objects.push({
      package: {
        scope: m.scope || 'unscoped',
        // Forgejo sends the name without its scope, which npm then shows as another package; npmjs.org's full name.
        name: pkg.name,
        version: v.version,
        date: v.createdAt.toISOString(),
        description: m.description ?? '',
        author: user(m.author),
        publisher: user(r.owner.name),
        maintainers: [],
        ...omitEmpty({ keywords: m.keywords }),
        links: { npm: registryUrl(r), ...omitEmpty({ homepage: m.project_url }) },
      },
    });
  }
  r.ctx.status = 200;
  r.ctx.body = { objects, total };
}

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

// ---------------------------------------------------------------------------------------------
// Routing

/** The package name at the head of `parts` (`@scope`, `name` or `@scope/name` from `%2f`) and what follows. */
function splitName(parts: string[]): [string, string[]] | null {
  const [first, second] = parts;
  if (!first || first === '-') return null;
  if (first.startsWith('@') && !first.includes('/')) return second ? [`${first}/${second}`, parts.slice(2)] : null;
  return [first, parts.slice(1)];
}

const read = (run: Operation['run']): Operation => ({ level: 'read', run });
const write = (run: Operation['run']): Operation => ({ level: 'write', run });

function route(method: string, parts: string[]): Operation | null {
  const get = method === 'GET' || method === 'HEAD';
  if (parts[0] === '-') {
    if (parts.length === 3 && parts[1] === 'v1' && parts[2] === 'search') return get ? read(search) : null;
    const named = parts[1] === 'package' ? splitName(parts.slice(2)) : null;
    if (!named || named[1][0] !== 'dist-tags') return null;
    const [name, [, tag, ...extra]] = named;
    if (extra.length > 0) return null;
    if (tag === undefined) return get ? read((r) => listTags(r, name)) : null;
    if (method === 'PUT') return write((r) => addTag(r, name, tag));
    if (method === 'DELETE') return write((r) => removeTag(r, name, tag));
    return null;
  }
  const named = splitName(parts);
  if (!named) return null;
  const [name, rest] = named;
  if (rest.length === 0) return get ? read((r) => packageDocument(r, name)) : method === 'PUT' ? write(publish) : null;
  if (rest[0] === '-rev' && rest.length === 2) {
    if (method === 'DELETE') return write((r) => removePackage(r, name));
    if (method === 'PUT') return write(async (r) => emptyAnswer(r.ctx, 200));
    return null;
  }
  if (rest[0] !== '-') return null;
  if (rest.length === 2) return get ? read((r) => downloadByName(r, name, rest[1])) : null;
  if (rest.length === 3) return get ? read((r) => download(r, name, rest[1], rest[2])) : null;
  if (rest.length === 5 && rest[3] === '-rev') return method === 'DELETE' ? write((r) => removeVersion(r, name, rest[1])) : null;
  return null;
}

export const npm: Registry = {
  type: TYPE,
  route,
  renderError(ctx, err) {
    ctx.status = err.status;
    ctx.body = { error: err.message };
  },
};
