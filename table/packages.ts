// The package registries' routes (README, "How it fits together"): one row per operation, data only, as
// routes.table.ts is for the API. table/package-interpreter.ts serves them; `npm run routes` lists them
// after the API's rows. Rows are tried in this order, the first whose method and path match wins; a URL
// no row matches is 404. Read a row to know who may call the route: the PKG_ACCESS step is Forgejo's
// reqPackageAccess at the row's level.
import {
  PKG_CALLER,
  PKG_CALLER_RAW_TOKEN,
  OCI_CALLER,
  OCI_TOKEN,
  OCI_SIGNIN_VIEW,
  PKG_OWNER,
  IMAGE_NAME,
  IMAGE_OWNER,
  PKG_ACCESS,
} from '../guards/registry.ts';
import type { RegistryRouteSpec } from './package-spec.ts';

const READ = [PKG_CALLER, PKG_OWNER, PKG_ACCESS('read')];
const WRITE = [PKG_CALLER, PKG_OWNER, PKG_ACCESS('write')];
const CARGO_READ = [PKG_CALLER_RAW_TOKEN, PKG_OWNER, PKG_ACCESS('read')];
const CARGO_WRITE = [PKG_CALLER_RAW_TOKEN, PKG_OWNER, PKG_ACCESS('write')];
const IMAGE_READ = [OCI_CALLER, OCI_TOKEN, IMAGE_NAME, IMAGE_OWNER, PKG_ACCESS('read')];
const IMAGE_WRITE = [OCI_CALLER, OCI_TOKEN, IMAGE_NAME, IMAGE_OWNER, PKG_ACCESS('write')];
const P = ['package'] as const;

// biome-ignore format: one row per line, as in routes.table.ts
export const packageRoutes: readonly RegistryRouteSpec[] = [
  // generic (Forgejo routers/api/packages/generic)
  { method: 'GET', path: '/api/packages/{owner}/generic/{name}/{version}/{filename}', scope: P, chain: READ, handler: 'generic.download' },
  { method: 'HEAD', path: '/api/packages/{owner}/generic/{name}/{version}/{filename}', scope: P, chain: READ, handler: 'generic.download' },
  { method: 'PUT', path: '/api/packages/{owner}/generic/{name}/{version}/{filename}', scope: P, chain: WRITE, handler: 'generic.upload' },
  { method: 'DELETE', path: '/api/packages/{owner}/generic/{name}/{version}/{filename}', scope: P, chain: WRITE, handler: 'generic.removeFile' },
  { method: 'DELETE', path: '/api/packages/{owner}/generic/{name}/{version}', scope: P, chain: WRITE, handler: 'generic.removeVersion' },

  // npm: a name is `name`, `@scope/name` or `@scope%2fname` (the npm-name matcher)
  { method: 'GET', path: '/api/packages/{owner}/npm/-/v1/search', scope: P, chain: READ, handler: 'npm.search' },
  { method: 'HEAD', path: '/api/packages/{owner}/npm/-/v1/search', scope: P, chain: READ, handler: 'npm.search' },
  { method: 'GET', path: '/api/packages/{owner}/npm/-/package/{name:npm-name}/dist-tags', scope: P, chain: READ, handler: 'npm.listTags' },
  { method: 'HEAD', path: '/api/packages/{owner}/npm/-/package/{name:npm-name}/dist-tags', scope: P, chain: READ, handler: 'npm.listTags' },
  { method: 'PUT', path: '/api/packages/{owner}/npm/-/package/{name:npm-name}/dist-tags/{tag}', scope: P, chain: WRITE, handler: 'npm.addTag' },
  { method: 'DELETE', path: '/api/packages/{owner}/npm/-/package/{name:npm-name}/dist-tags/{tag}', scope: P, chain: WRITE, handler: 'npm.removeTag' },
  // The tarball's path as npm names it when it resolves it against a default registry (a scope's registry).
  { method: 'DELETE', path: '/api/packages/{owner}/npm/api/packages/{owner2}/npm/{name:npm-name}/-/{version}/{filename}/-rev/{rev}', scope: P, chain: WRITE, handler: 'npm.removeVersionByFullPath' },
  { method: 'GET', path: '/api/packages/{owner}/npm/{name:npm-name}', scope: P, chain: READ, handler: 'npm.packageDocument' },
  { method: 'HEAD', path: '/api/packages/{owner}/npm/{name:npm-name}', scope: P, chain: READ, handler: 'npm.packageDocument' },
  { method: 'PUT', path: '/api/packages/{owner}/npm/{name:npm-name}', scope: P, chain: WRITE, handler: 'npm.publish' },
  { method: 'DELETE', path: '/api/packages/{owner}/npm/{name:npm-name}/-rev/{rev}', scope: P, chain: WRITE, handler: 'npm.removePackage' },
  { method: 'PUT', path: '/api/packages/{owner}/npm/{name:npm-name}/-rev/{rev}', scope: P, chain: WRITE, handler: 'npm.updatePackument' },
  { method: 'GET', path: '/api/packages/{owner}/npm/{name:npm-name}/-/{filename}', scope: P, chain: READ, handler: 'npm.downloadByName' },
  { method: 'HEAD', path: '/api/packages/{owner}/npm/{name:npm-name}/-/{filename}', scope: P, chain: READ, handler: 'npm.downloadByName' },
  { method: 'GET', path: '/api/packages/{owner}/npm/{name:npm-name}/-/{version}/{filename}', scope: P, chain: READ, handler: 'npm.download' },
  { method: 'HEAD', path: '/api/packages/{owner}/npm/{name:npm-name}/-/{version}/{filename}', scope: P, chain: READ, handler: 'npm.download' },
  { method: 'DELETE', path: '/api/packages/{owner}/npm/{name:npm-name}/-/{version}/{filename}/-rev/{rev}', scope: P, chain: WRITE, handler: 'npm.removeVersion' },

  // PyPI: twine's upload, the simple index (PEP 503), files
  { method: 'POST', path: '/api/packages/{owner}/pypi', scope: P, chain: WRITE, handler: 'pypi.upload' },
  { method: 'GET', path: '/api/packages/{owner}/pypi/simple/{name}', scope: P, chain: READ, handler: 'pypi.simpleIndex' },
  { method: 'HEAD', path: '/api/packages/{owner}/pypi/simple/{name}', scope: P, chain: READ, handler: 'pypi.simpleIndex' },
  { method: 'GET', path: '/api/packages/{owner}/pypi/files/{name}/{version}/{filename}', scope: P, chain: READ, handler: 'pypi.download' },
  { method: 'HEAD', path: '/api/packages/{owner}/pypi/files/{name}/{version}/{filename}', scope: P, chain: READ, handler: 'pypi.download' },

  // Cargo: the web API, and the sparse index (the token comes as the whole Authorization header)
  { method: 'GET', path: '/api/packages/{owner}/cargo/api/v1/crates', scope: P, chain: CARGO_READ, handler: 'cargo.search' },
  { method: 'HEAD', path: '/api/packages/{owner}/cargo/api/v1/crates', scope: P, chain: CARGO_READ, handler: 'cargo.search' },
  { method: 'PUT', path: '/api/packages/{owner}/cargo/api/v1/crates/new', scope: P, chain: CARGO_WRITE, handler: 'cargo.publish' },
  { method: 'GET', path: '/api/packages/{owner}/cargo/api/v1/crates/{name}/owners', scope: P, chain: CARGO_READ, handler: 'cargo.owners' },
  { method: 'HEAD', path: '/api/packages/{owner}/cargo/api/v1/crates/{name}/owners', scope: P, chain: CARGO_READ, handler: 'cargo.owners' },
  { method: 'GET', path: '/api/packages/{owner}/cargo/api/v1/crates/{name}/{version}/download', scope: P, chain: CARGO_READ, handler: 'cargo.download' },
  { method: 'HEAD', path: '/api/packages/{owner}/cargo/api/v1/crates/{name}/{version}/download', scope: P, chain: CARGO_READ, handler: 'cargo.download' },
  { method: 'DELETE', path: '/api/packages/{owner}/cargo/api/v1/crates/{name}/{version}/yank', scope: P, chain: CARGO_WRITE, handler: 'cargo.yank' },
  { method: 'PUT', path: '/api/packages/{owner}/cargo/api/v1/crates/{name}/{version}/unyank', scope: P, chain: CARGO_WRITE, handler: 'cargo.unyank' },
  { method: 'GET', path: '/api/packages/{owner}/cargo/config.json', scope: P, chain: CARGO_READ, handler: 'cargo.config' },
  { method: 'HEAD', path: '/api/packages/{owner}/cargo/config.json', scope: P, chain: CARGO_READ, handler: 'cargo.config' },
  { method: 'GET', path: '/api/packages/{owner}/cargo/{name:cargo-index}', scope: P, chain: CARGO_READ, handler: 'cargo.indexFile' },
  { method: 'HEAD', path: '/api/packages/{owner}/cargo/{name:cargo-index}', scope: P, chain: CARGO_READ, handler: 'cargo.indexFile' },

  // Maven: group, artifact, version and file as a path of any depth
  { method: 'GET', path: '/api/packages/{owner}/maven/{path+}', scope: P, chain: READ, handler: 'maven.download' },
  { method: 'HEAD', path: '/api/packages/{owner}/maven/{path+}', scope: P, chain: READ, handler: 'maven.download' },
  { method: 'PUT', path: '/api/packages/{owner}/maven/{path+}', scope: P, chain: WRITE, handler: 'maven.upload' },

  // Container (OCI distribution): an image name may hold slashes
  { method: 'GET', path: '/v2/', scope: [], chain: [OCI_CALLER, OCI_TOKEN], handler: 'container.ping' },
  { method: 'HEAD', path: '/v2/', scope: [], chain: [OCI_CALLER, OCI_TOKEN], handler: 'container.ping' },
  { method: 'GET', path: '/v2/token', scope: [], chain: [OCI_CALLER, OCI_SIGNIN_VIEW], handler: 'container.token' },
  { method: 'GET', path: '/v2/{owner}/{image+}/tags/list', scope: P, chain: IMAGE_READ, handler: 'container.tagList' },
  { method: 'HEAD', path: '/v2/{owner}/{image+}/tags/list', scope: P, chain: IMAGE_READ, handler: 'container.tagList' },
  { method: 'POST', path: '/v2/{owner}/{image+}/blobs/uploads', scope: P, chain: IMAGE_WRITE, handler: 'container.startUpload' },
  // An upload session is the uploader's: reading its state needs write access too, as Forgejo's route group does.
  { method: 'GET', path: '/v2/{owner}/{image+}/blobs/uploads/{uuid}', scope: P, chain: IMAGE_WRITE, handler: 'container.uploadStatus' },
  { method: 'PATCH', path: '/v2/{owner}/{image+}/blobs/uploads/{uuid}', scope: P, chain: IMAGE_WRITE, handler: 'container.uploadChunk' },
  { method: 'PUT', path: '/v2/{owner}/{image+}/blobs/uploads/{uuid}', scope: P, chain: IMAGE_WRITE, handler: 'container.finishUpload' },
  { method: 'DELETE', path: '/v2/{owner}/{image+}/blobs/uploads/{uuid}', scope: P, chain: IMAGE_WRITE, handler: 'container.cancelUpload' },
  { method: 'GET', path: '/v2/{owner}/{image+}/blobs/{digest}', scope: P, chain: IMAGE_READ, handler: 'container.getBlob' },
  { method: 'HEAD', path: '/v2/{owner}/{image+}/blobs/{digest}', scope: P, chain: IMAGE_READ, handler: 'container.getBlob' },
  { method: 'DELETE', path: '/v2/{owner}/{image+}/blobs/{digest}', scope: P, chain: IMAGE_WRITE, handler: 'container.deleteBlob' },
  { method: 'GET', path: '/v2/{owner}/{image+}/manifests/{reference}', scope: P, chain: IMAGE_READ, handler: 'container.getManifest' },
  { method: 'HEAD', path: '/v2/{owner}/{image+}/manifests/{reference}', scope: P, chain: IMAGE_READ, handler: 'container.getManifest' },
  { method: 'PUT', path: '/v2/{owner}/{image+}/manifests/{reference}', scope: P, chain: IMAGE_WRITE, handler: 'container.putManifest' },
  { method: 'DELETE', path: '/v2/{owner}/{image+}/manifests/{reference}', scope: P, chain: IMAGE_WRITE, handler: 'container.deleteManifest' },
];
