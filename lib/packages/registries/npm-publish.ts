// What `npm publish` sends, checked (Forgejo's npm.ParsePackage), and the repository it may name
// (transports/registries/npm-publish.ts stores it, as Forgejo's UploadPackage).
import { createHash } from 'node:crypto';
import { Repository } from '../../../model/repo.ts';
import { User } from '../../../model/user.ts';
import { isStorableText } from '../../../model/schemas/storable.ts';
import { RegistryError, type RegistryRequest } from './common.ts';
import {
  validName,
  parseSemver,
  semverString,
  checkTag,
  type Metadata,
  isRecord,
  str,
  strList,
  strMap,
  binOf,
  personName,
  validUrl,
  repositoryOf,
} from './npm-metadata.ts';

export interface Upload {
  name: string;
  version: string;
  filename: string;
  data: Buffer;
  tags: string[];
  metadata: Metadata;
}

/** Every string (and key) of a JSON value is storable text; depth is bounded by the body cap. */
export function storable(v: unknown): boolean {
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

export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function parseUpload(body: Buffer): Upload {
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
  const integrityOk =
    cut > 0 &&
    (algorithm === 'sha512' || algorithm === 'sha1') &&
    BASE64.test(expected) &&
    Buffer.from(expected, 'base64').equals(createHash(algorithm).update(data).digest());
  const shasumOk =
    dist.shasum === undefined ||
    (typeof dist.shasum === 'string' && dist.shasum.toLowerCase() === createHash('sha1').update(data).digest('hex'));
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
export async function localRepository(r: RegistryRequest, url: string) {
  const root = r.deps.config.appUrl;
  const rest = url.replace(/^git\+/, '');
  if (!rest.startsWith(root)) return null;
  const m = /^([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(rest.slice(root.length));
  if (!m) return null;
  const owner = await r.em.findOne(User, { lowerName: decodeURIComponent(m[1]).toLowerCase() });
  const repo = owner && (await r.em.findOne(Repository, { ownerId: owner.id, lowerName: decodeURIComponent(m[2]).toLowerCase() }));
  return owner && repo ? { owner, repo } : null;
}
