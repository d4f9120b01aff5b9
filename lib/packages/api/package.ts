// api.Package and api.PackageFile wire shapes (Forgejo services/convert/package.go). A Package is one
// version of a package: its `id` is the version's id, `created_at` the version's creation.
import type { Config } from '../../../config.ts';
import type { IUser } from '../../../model/user.ts';
import type { IPackage, IPackageBlob, IPackageFile, IPackageVersion } from '../../../model/package.ts';
import { toApiUser, type Viewer } from '../../users/index.ts';
import type { ApiRepo } from '../../repos/index.ts';
import type { Package, PackageFile, Wire } from '../../../model/schemas/index.ts';

export type ApiPackage = Wire<Package>;
export type ApiPackageFile = Wire<PackageFile>;
import { fmtTime } from '../../../model/time.ts';
import { pseudoUser } from '../../auth/pseudo-users.ts';

export interface PackageView {
  pkg: IPackage;
  version: IPackageVersion;
  owner: IUser;
  /** Null when the creator no longer exists (Forgejo shows its Ghost user). */
  creator: IUser | null;
  /** The linked repository as the caller sees it; null when unlinked or not readable by the caller. */
  repository: ApiRepo | null;
}

/** Forgejo's VersionHTMLURL: `<owner>/-/packages/<type>/<name>/<version>` under the instance URL. */
export function packageHtmlUrl(cfg: Config, owner: IUser, pkg: IPackage, version: IPackageVersion): string {
  return `${cfg.appUrl}${encodeURIComponent(owner.name)}/-/packages/${pkg.type}/${encodeURIComponent(pkg.name)}/${encodeURIComponent(version.version)}`;
}

export function toApiPackage(cfg: Config, v: PackageView, viewer: Viewer): ApiPackage {
  return {
    id: v.version.id,
    owner: toApiUser(cfg, v.owner, viewer),
    repository: v.repository,
    creator: toApiUser(cfg, v.creator ?? pseudoUser(-1), viewer),
    type: v.pkg.type,
    name: v.pkg.name,
    version: v.version.version,
    html_url: packageHtmlUrl(cfg, v.owner, v.pkg, v.version),
    created_at: fmtTime(v.version.createdAt),
  };
}

/** Forgejo spells the size `Size` (the struct field has no json tag). */
export function toApiPackageFile(f: { file: IPackageFile; blob: IPackageBlob }): ApiPackageFile {
  return {
    id: f.file.id,
    Size: f.blob.size,
    name: f.file.name,
    md5: f.blob.hashMd5,
    sha1: f.blob.hashSha1,
    sha256: f.blob.hashSha256,
    sha512: f.blob.hashSha512,
  };
}
