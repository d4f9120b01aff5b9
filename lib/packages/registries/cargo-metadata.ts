// What a Cargo publish carries (Forgejo's modules/packages/cargo): a crate's name and version rules, and the
// publish JSON checked and reduced to the metadata a version keeps and the index lists.
import { type IPackageVersion } from '../../../model/package.ts';
import { isStorableText } from '../../../model/schemas/storable.ts';
import { RegistryError } from './common.ts';

export const TYPE = 'cargo';
export const YANKED_PROPERTY = 'cargo.yanked';

// Forgejo's checks: a crate name as crates.io allows it, a semantic version.
export const NAME = /^[a-zA-Z][a-zA-Z0-9-_]{0,63}$/;
export const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** One dependency as the index lists it (`name` is the name in Cargo.toml, `package` the crate's when renamed). */
interface IndexDependency {
  name: string;
  req: string;
  features: string[];
  optional: boolean;
  default_features: boolean;
  target: string | null;
  kind: string;
  registry: string | null;
  package?: string;
}

/** What a version keeps (Forgejo's cargo.Metadata with the index fields). */
export interface Metadata {
  description?: string;
  authors?: string[];
  project_url?: string;
  repository_url?: string;
  documentation_url?: string;
  readme?: string;
  keywords?: string[];
  categories?: string[];
  license?: string;
  dependencies: IndexDependency[];
  features: Record<string, string[]>;
  links?: string;
  rust_version?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strList = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined);
export const badMetadata = (what: string) => new RegistryError(400, `invalid metadata: ${what}`);

/** The publish JSON (https://doc.rust-lang.org/cargo/reference/registry-web-api.html#publish) checked and reduced to Metadata. */
export function parseMetadata(json: unknown): { name: string; version: string; metadata: Metadata } {
  if (!isRecord(json)) throw badMetadata('not an object');
  const name = json.name;
  const version = json.vers;
  if (typeof name !== 'string' || !NAME.test(name)) throw new RegistryError(400, 'package name is invalid');
  if (typeof version !== 'string' || version.length > 255 || !SEMVER.test(version))
    throw new RegistryError(400, 'package version is invalid');
  const deps = json.deps ?? [];
  if (!Array.isArray(deps)) throw badMetadata('deps');
  const dependencies = deps.map((d): IndexDependency => {
    if (!isRecord(d) || typeof d.name !== 'string' || typeof d.version_req !== 'string') throw badMetadata('deps');
    const features = strList(d.features ?? []);
    if (!features) throw badMetadata('deps.features');
    const renamed = str(d.explicit_name_in_toml);
    return {
      name: renamed ?? d.name,
      req: d.version_req,
      features,
      optional: d.optional === true,
      default_features: d.default_features !== false,
      target: str(d.target) ?? null,
      kind: str(d.kind) ?? 'normal',
      registry: str(d.registry) ?? null,
      ...(renamed ? { package: d.name } : {}),
    };
  });
  const features: Record<string, string[]> = {};
  if (json.features !== undefined && json.features !== null) {
    if (!isRecord(json.features)) throw badMetadata('features');
    for (const [k, v] of Object.entries(json.features)) {
      const list = strList(v);
      if (!list) throw badMetadata('features');
      features[k] = list;
    }
  }
  const metadata: Metadata = {
    description: str(json.description),
    authors: strList(json.authors)?.filter(Boolean),
    project_url: str(json.homepage),
    repository_url: str(json.repository),
    documentation_url: str(json.documentation),
    readme: str(json.readme),
    keywords: strList(json.keywords),
    categories: strList(json.categories),
    license: str(json.license),
    dependencies,
    features,
    links: str(json.links),
    rust_version: str(json.rust_version),
  };
  if (!isStorableText(JSON.stringify(metadata))) throw badMetadata('text');
  return { name, version, metadata };
}

export const metadataOf = (v: IPackageVersion): Partial<Metadata> => (isRecord(v.metadata) ? (v.metadata as Partial<Metadata>) : {});
