// `npm publish`: the upload checked (lib/packages/registries/npm-publish.ts parseUpload), linked to a
// repository of this instance when its `repository.url` names one, and stored with its dist-tags.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { repoPermission } from '../../lib/auth/perm.ts';
import { isSiteAdmin } from '../../lib/http/request.ts';
import { addPackageFile, DuplicateFileError, DuplicateVersionError, spool } from '../../lib/packages/packages.ts';
import { checkQuota, RegistryError, uploader, type RegistryRequest } from '../../lib/packages/registries/common.ts';
import { emptyAnswer, readCapped } from './common.ts';
import { TYPE } from '../../lib/packages/registries/npm-metadata.ts';
import { localRepository, parseUpload } from '../../lib/packages/registries/npm-publish.ts';
import { setTag } from '../../lib/packages/registries/npm-tags.ts';

export async function publish(r: RegistryRequest): Promise<void> {
  const creator = uploader(r);
  await checkQuota(r, creator);
  const upload = parseUpload(await readCapped(r));
  // As Forgejo: a `repository.url` naming a repository here links the package to it, which needs write
  // access to that repository's packages (403 otherwise).
  const linked = await localRepository(r, upload.metadata.repository.url);
  if (linked) {
    const perm = await repoPermission(r.em, {
      repo: linked.repo,
      owner: linked.owner,
      doer: creator,
      siteAdmin: isSiteAdmin(r),
      token: r.auth.token,
    });
    if (linked.repo.ownerId !== creator.id && !perm.canWrite('packages'))
      throw new RegistryError(403, 'no permission to upload this package');
  }
  const up = await spool(r.deps.config, Readable.from([upload.data]));
  try {
    await r.em.transactional(async (tx) => {
      const { pkg, version } = await addPackageFile(tx, r.deps.config, {
        ownerId: r.owner.id,
        type: TYPE,
        name: upload.name,
        version: upload.version,
        creator,
        filename: upload.filename,
        upload: up,
        newVersion: true,
        metadata: upload.metadata,
        semverCompatible: true,
      });
      for (const tag of upload.tags) await setTag(tx, pkg.id, version.id, tag, false);
      if (linked && linked.repo.ownerId === r.owner.id) {
        pkg.repoId = linked.repo.id;
        await tx.flush();
      }
    });
  } catch (e) {
    if (e instanceof DuplicateVersionError || e instanceof DuplicateFileError || e instanceof UniqueConstraintViolationException)
      throw new RegistryError(409, 'package version already exists');
    throw e;
  } finally {
    await fs.promises.rm(up.file, { force: true });
  }
  emptyAnswer(r.ctx, 201);
}
