// Reading the npm registry: the package document, tarballs and search.
import { Package, PackageBlob, PackageFile, PackageVersion } from '../../model/package.ts';
import { isStorableText } from '../../model/schemas/storable.ts';
import { findVersion, versionFiles } from '../../lib/packages/packages.ts';
import { RegistryError, type RegistryRequest } from '../../lib/packages/registries/common.ts';
import { sendFile } from './common.ts';
import { TYPE, type SemVer, parseSemver, compareSemver, metadataOf } from '../../lib/packages/registries/npm-metadata.ts';
import { packageVersions, tagsOf } from '../../lib/packages/registries/npm-tags.ts';

// ---------------------------------------------------------------------------------------------
// Reading

export const registryUrl = (r: RegistryRequest) => `${r.deps.config.appUrl}api/packages/${r.owner.name}/npm`;
export const user = (name: string | undefined) => ({ name: name ?? '' });
export const omitEmpty = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;

export async function packageDocument(r: RegistryRequest, name: string): Promise<void> {
  const found = await packageVersions(r.em, r.owner.id, name);
  if (!found) throw new RegistryError(404, 'package does not exist');
  const { pkg } = found;
  const versions = found.versions
    .map((v) => ({ v, semver: parseSemver(v.version) ?? ({ nums: [0, 0, 0], pre: '', build: '' } as SemVer) }))
    .sort((a, b) => compareSemver(a.semver, b.semver));
  const files = await r.em.find(PackageFile, { versionId: { $in: versions.map((x) => x.v.id) }, isLead: true }, { orderBy: { id: 'asc' } });
  const fileOf = new Map(files.map((f) => [f.versionId, f]));
  const blobs = new Map(
    (files.length ? await r.em.find(PackageBlob, { id: { $in: files.map((f) => f.blobId) } }) : []).map((b) => [b.id, b]),
  );
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
        keywords: m.keywords,
        dependencies: m.dependencies,
        bundleDependencies: m.bundleDependencies,
        devDependencies: m.development_dependencies,
        peerDependencies: m.peer_dependencies,
        bin: m.bin,
        optionalDependencies: m.optional_dependencies,
        readme: m.readme,
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

export async function download(r: RegistryRequest, name: string, version: string, filename: string): Promise<void> {
  const found = await findVersion(r.em, { ownerId: r.owner.id, type: TYPE, name, version });
  const lower = filename.toLowerCase();
  const entry = found && (await versionFiles(r.em, found.version.id)).find((f) => f.file.lowerName === lower);
  if (!found || !entry) throw new RegistryError(404, 'package file does not exist');
  await sendFile(r, found.version.id, entry);
}

/** `<name>/-/<file>`: the one version holding a file of that name (Forgejo's DownloadPackageFileByName). */
export async function downloadByName(r: RegistryRequest, name: string, filename: string): Promise<void> {
  const found = await packageVersions(r.em, r.owner.id, name);
  const files = found
    ? await r.em.find(PackageFile, { versionId: { $in: found.versions.map((v) => v.id) }, lowerName: filename.toLowerCase() })
    : [];
  if (!found || files.length !== 1) throw new RegistryError(404, 'package file does not exist');
  const blob = await r.em.findOneOrFail(PackageBlob, { id: files[0].blobId });
  await sendFile(r, files[0].versionId, { file: files[0], blob });
}

/** Forgejo's SearchLatestVersions: each matching package with its newest version, `from`/`size` paging. */
export async function search(r: RegistryRequest): Promise<void> {
  const q = new URLSearchParams(r.ctx.querystring);
  const text = (q.get('text') ?? '').trim().toLowerCase();
  if (!isStorableText(text)) throw new RegistryError(400, 'invalid search text');
  const from = Math.max(0, Number.parseInt(q.get('from') ?? '0', 10) || 0);
  const api = r.deps.config.API;
  const asked = Number.parseInt(q.get('size') ?? '0', 10) || 0;
  const size = Math.min(asked > 0 ? asked : api.DEFAULT_PAGING_NUM, api.MAX_RESPONSE_ITEMS);
  const like = `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const [pkgs, total] = await r.em.findAndCount(
    Package,
    { ownerId: r.owner.id, type: TYPE, ...(text ? { lowerName: { $like: like } } : {}) },
    { orderBy: { lowerName: 'asc' }, limit: size, offset: from },
  );
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
