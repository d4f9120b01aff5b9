// The generic registry (Forgejo routers/api/packages/generic/generic.go), under <ROOT>api/packages/<owner>/generic/:
//   PUT    <name>/<version>/<file>   upload one file (201; 409 when present)
//   GET    <name>/<version>/<file>   download (HEAD too)
//   DELETE <name>/<version>/<file>   delete one file (204)
//   DELETE <name>/<version>          delete the version (204)
import fs from 'node:fs';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { PackageFile } from '../../../model/package.ts';
import {
  addPackageFile,
  DuplicateFileError,
  findVersion,
  removePackageFile,
  removePackageVersion,
  spool,
  versionFiles,
} from '../packages.ts';
import { checkQuota, emptyAnswer, RegistryError, sendFile, uploader, ofOwner, type Registry, type RegistryRequest } from './common.ts';

const TYPE = 'generic';

const missing = () => new RegistryError(404, 'package does not exist');

// Forgejo generic.go: names of letters, digits and `-_+.`; file names a wider set, no outer spaces.
const NAME = /^[-_+.A-Za-z0-9]+$/;
const FILE_NAME = /^[-_+=:;.()[\]{}~!@#$%^& A-Za-z0-9]+$/;

/** The `package`, `package_version` and `package_file` name columns are varchar(255). */
const MAX_NAME = 255;

function checkNames(name: string, version: string, filename: string): void {
  if (!NAME.test(name) || name.length > MAX_NAME || name === '..' || (name.length === 1 && !/[A-Za-z0-9]/.test(name)))
    throw new RegistryError(400, 'invalid package name');
  if (!FILE_NAME.test(filename) || filename.length > MAX_NAME || filename.trim() !== filename || filename === '.' || filename === '..')
    throw new RegistryError(400, 'invalid filename');
  if (version.trim() !== version || version === '' || version.length > MAX_NAME) throw new RegistryError(400, 'invalid package version');
}

async function upload(r: RegistryRequest, name: string, version: string, filename: string): Promise<void> {
  const creator = uploader(r);
  checkNames(name, version, filename);
  await checkQuota(r, creator);
  const up = await spool(r.deps.config, r.ctx.req);
  try {
    await r.em.transactional((tx) =>
      addPackageFile(tx, r.deps.config, {
        ownerId: r.owner.id,
        type: TYPE,
        name,
        version,
        creator,
        filename,
        upload: up,
      }),
    );
  } catch (e) {
    // A concurrent upload of the same file loses on the unique index, as a sequential one does on the check.
    if (e instanceof DuplicateFileError || e instanceof UniqueConstraintViolationException)
      throw new RegistryError(409, 'package file already exists');
    throw e;
  } finally {
    await fs.promises.rm(up.file, { force: true });
  }
  emptyAnswer(r.ctx, 201);
}

async function download(r: RegistryRequest, name: string, version: string, filename: string): Promise<void> {
  const found = await findVersion(r.em, { ownerId: r.owner.id, type: TYPE, name, version });
  const lower = filename.toLowerCase();
  const entry = found && (await versionFiles(r.em, found.version.id)).find((f) => f.file.lowerName === lower);
  if (!found || !entry) throw missing();
  await sendFile(r, found.version.id, entry);
}

async function removeFile(r: RegistryRequest, name: string, version: string, filename: string): Promise<void> {
  await r.em.transactional(async (tx) => {
    const found = await findVersion(tx, { ownerId: r.owner.id, type: TYPE, name, version });
    const file = found && (await tx.findOne(PackageFile, { versionId: found.version.id, lowerName: filename.toLowerCase() }));
    if (!found || !file) throw missing();
    await removePackageFile(tx, r.deps.config, found.version, file);
  });
  r.ctx.status = 204;
}

async function removeVersion(r: RegistryRequest, name: string, version: string): Promise<void> {
  await r.em.transactional(async (tx) => {
    const found = await findVersion(tx, { ownerId: r.owner.id, type: TYPE, name, version });
    if (!found) throw missing();
    await removePackageVersion(tx, r.deps.config, found.version);
  });
  r.ctx.status = 204;
}

export const generic: Registry = {
  type: TYPE,
  handlers: {
    download: ofOwner((r, p) => download(r, p.name!, p.version!, p.filename!)),
    upload: ofOwner((r, p) => upload(r, p.name!, p.version!, p.filename!)),
    removeFile: ofOwner((r, p) => removeFile(r, p.name!, p.version!, p.filename!)),
    removeVersion: ofOwner((r, p) => removeVersion(r, p.name!, p.version!)),
  },
};
