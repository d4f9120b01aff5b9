// The container registry (OCI distribution spec; Forgejo routers/api/packages/container), at <ROOT>v2/:
//   GET  /v2/                                      200 once the client holds a token, else 401 with the Bearer challenge
//   GET  /v2/token                                 a registry token for the caller (Basic credentials, or anonymous)
//   POST /v2/<owner>/<image>/blobs/uploads/         `?digest=` monolithic upload (201), else a new upload session (202)
//   GET|PATCH|PUT|DELETE .../blobs/uploads/<uuid>   session status, append a chunk, finish with `?digest=`, cancel
//   HEAD|GET|DELETE .../blobs/<digest>
//   HEAD|GET|PUT|DELETE .../manifests/<tag|digest>  image manifests and indexes (OCI and Docker media types)
//   GET  .../tags/list                             `?n=&last=` paging
// The routes are rows of table/packages.ts; who may call them is their steps' business (guards/registry.ts).
// An image is a package of type `container`; uploaded blobs are files of its internal version `_`, and every
// manifest is a version named by its tag (or its digest when pushed untagged) holding `manifest.json` and a file
// per blob it references, so a blob stays while a manifest needs it. Errors are `{"errors":[{code,message}]}`.
import {
  requestOf,
  type Registry,
  type RegistryHandler,
  type RegistryParams,
  type RegistryState,
} from '../../lib/packages/registries/common.ts';
import { E, type ImageRequest, TYPE } from '../../lib/packages/registries/container-storage.ts';
import { answer, renderError } from './container-answer.ts';
import { mintToken } from '../../lib/packages/registries/container-token.ts';
import { startUpload, uploadStatus, uploadChunk, finishUpload, cancelUpload, getBlob, deleteBlob } from './container-blobs.ts';
import { putManifest, getManifest, deleteManifest, tagList } from './container-manifests.ts';

/** A handler of one image of the owner (the caller, the owner and the image resolved by the row's steps). */
const ofImage = (run: (r: ImageRequest, p: RegistryParams) => Promise<void>): RegistryHandler => ({
  needs: ['caller', 'owner', 'image'],
  run: (s, p) => {
    if (s.image === undefined) throw new Error('container row without the image its handler needs');
    return run({ ...requestOf(s), image: s.image }, p);
  },
});

/** `GET /v2/`: the client learns it holds a usable token (the row's steps refuse it otherwise). */
async function ping(s: RegistryState): Promise<void> {
  answer(s.ctx, 200);
}

/** `GET /v2/token`: a registry token for the caller the row's steps authenticated. */
async function token(s: RegistryState): Promise<void> {
  if (!s.auth) throw E.unauthorized();
  s.ctx.status = 200;
  s.ctx.body = { token: mintToken(s.deps, s.auth) };
}

export const container: Registry = {
  type: TYPE,
  handlers: {
    ping: { needs: ['caller'], run: ping },
    token: { needs: ['caller'], run: token },
    tagList: ofImage((r) => tagList(r)),
    startUpload: ofImage((r) => startUpload(r)),
    uploadStatus: ofImage((r, p) => uploadStatus(r, p.uuid!)),
    uploadChunk: ofImage((r, p) => uploadChunk(r, p.uuid!)),
    finishUpload: ofImage((r, p) => finishUpload(r, p.uuid!)),
    cancelUpload: ofImage((r, p) => cancelUpload(r, p.uuid!)),
    getBlob: ofImage((r, p) => getBlob(r, p.digest!)),
    deleteBlob: ofImage((r, p) => deleteBlob(r, p.digest!)),
    getManifest: ofImage((r, p) => getManifest(r, p.reference!)),
    putManifest: ofImage((r, p) => putManifest(r, p.reference!)),
    deleteManifest: ofImage((r, p) => deleteManifest(r, p.reference!)),
  },
  renderError: (ctx, err, appUrl) => renderError(ctx, appUrl, err),
};
