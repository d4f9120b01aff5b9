// The package registries' table (table/packages.ts): its rows pass the start-up check, their path patterns
// express each registry's quirks, and the check refuses rows an auditor could not trust.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { packageRoutes } from '../table/packages.ts';
import { matchPackageRoute, validatePackageTable } from '../table/package-interpreter.ts';
import type { RegistryRouteSpec } from '../table/package-spec.ts';
import { PKG_ACCESS, PKG_CALLER, PKG_OWNER, IMAGE_NAME } from '../guards/registry.ts';
import { TableError } from '../interpreter.ts';
import { pathSegments } from '../lib/http/url-path.ts';

const rows = validatePackageTable(packageRoutes);

/** The handler and parameters a request's method and path (below the root URL) reach, or null. */
function route(method: string, path: string): { handler: string; params: Record<string, string> } | null {
  const found = matchPackageRoute(rows, method, pathSegments(path)!);
  return found && { handler: found.row.spec.handler, params: found.params };
}

test('npm: a scoped name over two segments, or one with %2f; `-` heads npm paths, not a name', () => {
  assert.equal(route('GET', '/api/packages/alice/npm/@scope%2fpkg'), {
    handler: 'npm.packageDocument',
    params: { owner: 'alice', name: '@scope/pkg' },
  });
  assert.equal(route('GET', '/api/packages/alice/npm/@scope/pkg')?.params.name, '@scope/pkg');
  assert.equal(route('GET', '/api/packages/alice/npm/@scope/pkg/-/1.0.0/pkg-1.0.0.tgz'), {
    handler: 'npm.download',
    params: { owner: 'alice', name: '@scope/pkg', version: '1.0.0', filename: 'pkg-1.0.0.tgz' },
  });
  assert.equal(route('GET', '/api/packages/alice/npm/plain/-/plain-1.0.0.tgz')?.handler, 'npm.downloadByName');
  assert.equal(route('PUT', '/api/packages/alice/npm/-/package/@s/p/dist-tags/beta'), {
    handler: 'npm.addTag',
    params: { owner: 'alice', name: '@s/p', tag: 'beta' },
  });
  assert.equal(
    route('DELETE', '/api/packages/alice/npm/api/packages/alice/npm/@s/p/-/1.0.0/p-1.0.0.tgz/-rev/1')?.handler,
    'npm.removeVersionByFullPath',
  );
  assert.equal(route('GET', '/api/packages/alice/npm/api')?.params.name, 'api');
  assert.is(route('GET', '/api/packages/alice/npm/@scope'), null);
  assert.is(route('GET', '/api/packages/alice/npm/-'), null);
  assert.is(route('GET', '/api/packages/alice/npm/pkg/-rev/1'), null);
});

test('container: an image name holds slashes, the suffix anchors at the end; the token route is GET only', () => {
  assert.equal(route('GET', '/v2/alice/team/app/web/manifests/latest'), {
    handler: 'container.getManifest',
    params: { owner: 'alice', image: 'team/app/web', reference: 'latest' },
  });
  assert.equal(route('PATCH', '/v2/alice/a/b/blobs/uploads/u-1'), {
    handler: 'container.uploadChunk',
    params: { owner: 'alice', image: 'a/b', uuid: 'u-1' },
  });
  assert.equal(route('POST', '/v2/alice/a/blobs/uploads/')?.params.image, 'a');
  assert.equal(route('GET', '/v2/alice/a/manifests/x/manifests/y')?.params.image, 'a/manifests/x');
  assert.equal(route('GET', '/v2/alice/a/tags/list')?.handler, 'container.tagList');
  assert.equal(route('GET', '/v2')?.handler, 'container.ping');
  assert.equal(route('GET', '/v2/token')?.handler, 'container.token');
  assert.is(route('HEAD', '/v2/token'), null);
  assert.is(route('HEAD', '/v2/alice/a/blobs/uploads/u-1'), null, 'a session has no HEAD');
  assert.is(route('GET', '/v2/alice/manifests/latest'), null, 'an image needs a name');
});

test('maven: a path of any depth; cargo: the sparse index path must be the crate’s own', () => {
  assert.equal(route('PUT', '/api/packages/alice/maven/com/example/lib/1.0/lib-1.0.jar'), {
    handler: 'maven.upload',
    params: { owner: 'alice', path: 'com/example/lib/1.0/lib-1.0.jar' },
  });
  assert.is(route('GET', '/api/packages/alice/maven'), null);
  assert.equal(route('GET', '/api/packages/alice/cargo/se/rd/Serde'), {
    handler: 'cargo.indexFile',
    params: { owner: 'alice', name: 'Serde' },
  });
  assert.equal(route('GET', '/api/packages/alice/cargo/3/a/abc')?.params.name, 'abc');
  assert.equal(route('GET', '/api/packages/alice/cargo/1/a')?.params.name, 'a');
  assert.is(route('GET', '/api/packages/alice/cargo/xx/rd/serde'), null);
  assert.is(route('GET', '/api/packages/alice/cargo/2/abc'), null);
  assert.equal(route('GET', '/api/packages/alice/cargo/config.json')?.handler, 'cargo.config');
  assert.equal(route('GET', '/api/packages/alice/cargo/api/v1/crates/new/owners')?.handler, 'cargo.owners');
  assert.is(route('GET', '/api/packages/alice/cargo/api/v1/crates/new'), null);
});

test('pypi and generic: fixed shapes, and the method picks the row', () => {
  assert.equal(route('POST', '/api/packages/alice/pypi/')?.handler, 'pypi.upload');
  assert.equal(route('GET', '/api/packages/alice/pypi/simple/demo')?.params.name, 'demo');
  assert.is(route('GET', '/api/packages/alice/pypi'), null);
  assert.equal(route('DELETE', '/api/packages/alice/generic/g/1.0')?.handler, 'generic.removeVersion');
  assert.equal(route('DELETE', '/api/packages/alice/generic/g/1.0/f.bin')?.handler, 'generic.removeFile');
  assert.is(route('GET', '/api/packages/alice/generic/g/1.0'), null);
  assert.is(route('GET', '/api/packages/alice/generic/g/1.0/f.bin/extra'), null);
});

test('every row that names an owner checks access at its level: reads read, writes write', () => {
  for (const r of packageRoutes) {
    const access = r.chain.map((s) => s.name).filter((n) => n.startsWith('PKG_ACCESS('));
    if (r.handler === 'container.ping' || r.handler === 'container.token') {
      assert.equal(access, [], r.handler);
      continue;
    }
    const level = r.method === 'GET' || r.method === 'HEAD' ? 'read' : 'write';
    // Reading an upload session's state is the uploader's business (write), as in Forgejo.
    assert.equal(access, [`PKG_ACCESS(${r.handler === 'container.uploadStatus' ? 'write' : level})`], `${r.method} ${r.path}`);
  }
});

const rejects = (table: RegistryRouteSpec[], text: string) => {
  try {
    validatePackageTable(table);
  } catch (e) {
    assert.instance(e, TableError);
    assert.ok((e as Error).message.includes(text), (e as Error).message);
    return;
  }
  assert.unreachable(`accepted: ${text}`);
};
const row = (over: Partial<RegistryRouteSpec>): RegistryRouteSpec => ({
  method: 'GET',
  path: '/api/packages/{owner}/generic/{name}/{version}/{filename}',
  scope: ['package'],
  chain: [PKG_CALLER, PKG_OWNER, PKG_ACCESS('read')],
  handler: 'generic.download',
  ...over,
});

test('the start-up check refuses rows an auditor could not trust', () => {
  rejects([row({ chain: [PKG_CALLER, PKG_OWNER] })], 'without checking access');
  rejects([row({ chain: [PKG_CALLER, PKG_ACCESS('read')] })], 'PKG_ACCESS(read) needs owner');
  rejects([row({ handler: 'npm.publish' })], "is not one of generic's");
  rejects([row({ handler: 'generic.nothing' })], 'unknown handler generic.nothing');
  rejects([row({ path: '/api/packages/{owner}/generic/{name:nope}' })], 'unknown matcher nope');
  rejects([row({ path: '/api/packages/{owner}/{type}/x' })], 'names no registry');
  rejects([row({}), row({})], 'duplicate route');
  rejects([row({ scope: [] })], 'scope must be [package]');
  rejects([row({ path: '/v2/', handler: 'container.ping', chain: [PKG_CALLER] })], 'scope must be empty');
  rejects([row({ path: '/v2/{owner}/{image+}/tags/list', handler: 'container.tagList' })], 'needs image');
  validatePackageTable([
    row({}),
    row({
      path: '/v2/{owner}/{image+}/tags/list',
      handler: 'container.tagList',
      chain: [PKG_CALLER, IMAGE_NAME, PKG_OWNER, PKG_ACCESS('read')],
    }),
  ]);
});

test.run();
