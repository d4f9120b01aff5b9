// The PyPI registry (Forgejo routers/api/packages/pypi), under <ROOT>api/packages/<owner>/pypi/:
//   POST /                                    upload one file as twine sends it (multipart: `content`, `name`,
//                                             `version`, `sha256_digest`, metadata fields; 201)
//   GET  simple/<name>/                       PEP 503 index of every file (PEP 691 JSON when asked for)
//   GET  files/<name>/<version>/<file>        the file
// Names are normalised as Forgejo does (`.` and `_` become `-`, compared case-insensitively). Errors are
// plain text. The upload streams to the spool while it is hashed: a wrong `sha256_digest` stores nothing.
import fs from 'node:fs';
import type formidable from 'formidable';
import type { File as FormidableFile } from 'formidable';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { PackageBlob, PackageFile, PackageVersion, type IPackageVersion } from '../../../model/package.ts';
import { isStorableText } from '../../../model/schemas/storable.ts';
import { bodyCap } from '../../http/request-body.ts';
import {
  addPackageFile,
  DuplicateFileError,
  findPackage,
  findVersion,
  spoolDir,
  SpoolWriter,
  versionFiles,
  type Spooled,
} from '../packages.ts';
import { checkQuota, emptyAnswer, RegistryError, sendFile, uploader, ofOwner, type Registry, type RegistryRequest } from './common.ts';

const TYPE = 'pypi';

// https://peps.python.org/pep-0426/#name and PEP 440's version pattern, as Forgejo checks them.
const normalize = (name: string) => name.replace(/[._]/g, '-');
const NAME = /^(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9.\-_]*[a-zA-Z0-9])$/;
const VERSION = new RegExp(
  '^v?' +
    '(?:[0-9]+!)?' + // epoch
    '[0-9]+(?:\\.[0-9]+)*' + // release segment
    '(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?' + // pre-release
    '(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?' + // post release
    '(?:[-_.]?dev[-_.]?[0-9]*)?' + // dev release
    '(?:\\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?' + // local version
    '$',
);
const MAX_NAME = 255;

interface Metadata {
  author?: string;
  description?: string;
  long_description?: string;
  summary?: string;
  project_url?: string;
  license?: string;
  requires_python?: string;
}

function validUrl(v: string): string | undefined {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Forgejo's Project-URL label normalisation: no punctuation or white space, lower case. */
const normalizeLabel = (label: string) => label.replace(/[\p{P}\s]/gu, '').toLowerCase();

interface Form {
  fields: Record<string, string[]>;
  content: Spooled | null;
  filename: string;
}

/**
 * Reads the multipart body: fields are capped by [api] MAX_BODY_SIZE, the `content` file streams into
 * the spool through a SpoolWriter (other files are skipped). The caller removes `content.file`.
 */
async function readForm(r: RegistryRequest): Promise<Form> {
  if (!/^multipart\/form-data\b/i.test(r.ctx.get('Content-Type')))
    throw new RegistryError(400, "request Content-Type isn't multipart/form-data");
  await fs.promises.mkdir(spoolDir(r.deps.config), { recursive: true });
  const writers = new Map<object, SpoolWriter>();
  // formidable is loaded by the first upload, not by every server at its start (memory).
  const { default: makeForm, errors: formidableErrors } = await import('formidable');
  const form = makeForm({
    maxFieldsSize: bodyCap(r.deps.config),
    maxFileSize: Number.POSITIVE_INFINITY,
    maxTotalFileSize: Number.POSITIVE_INFINITY,
    allowEmptyFiles: true,
    minFileSize: 0,
    filter: (part) => part.name === 'content',
    fileWriteStreamHandler: (file) => {
      const w = new SpoolWriter(r.deps.config);
      if (file) writers.set(file, w);
      return w;
    },
  });
  const removeAll = () => Promise.all([...writers.values()].map((w) => fs.promises.rm(w.file, { force: true })));
  let parsed: [formidable.Fields, formidable.Files];
  try {
    parsed = await form.parse(r.ctx.req);
  } catch (e) {
    await removeAll();
    const code = (e as { httpCode?: number; code?: number }).httpCode;
    if (e instanceof Error && typeof code === 'number')
      throw new RegistryError(
        code === 413 || (e as { code?: number }).code === formidableErrors.maxFieldsSizeExceeded ? 413 : 400,
        e.message,
      );
    throw e;
  }
  const [fields, files] = parsed;
  const file: FormidableFile | undefined = files.content?.[0];
  const writer = file && writers.get(file);
  // Only the first `content` part is kept, as Go's FormFile does.
  for (const [f, w] of writers)
    if (w !== writer) {
      writers.delete(f);
      await fs.promises.rm(w.file, { force: true });
    }
  const clean: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(fields)) if (v) clean[k] = v;
  return { fields: clean, content: writer ? writer.spooled() : null, filename: file?.originalFilename ?? '' };
}

async function upload(r: RegistryRequest): Promise<void> {
  const creator = uploader(r);
  await checkQuota(r, creator);
  const form = await readForm(r);
  try {
    const value = (name: string) => form.fields[name]?.[0] ?? '';
    const up = form.content;
    if (!up) throw new RegistryError(400, 'http: no such file');
    if (value('sha256_digest').toLowerCase() !== up.sha256) throw new RegistryError(400, 'hash mismatch');
    const name = normalize(value('name'));
    const version = value('version');
    if (!NAME.test(name) || !VERSION.test(version) || name.length > MAX_NAME || version.length > MAX_NAME)
      throw new RegistryError(400, 'invalid name or version');
    const filename = form.filename;
    if (
      filename === '' ||
      filename.length > MAX_NAME ||
      /[/\\]/.test(filename) ||
      filename === '.' ||
      filename === '..' ||
      !isStorableText(filename)
    )
      throw new RegistryError(400, 'invalid filename');
    let homepage = '';
    for (const entry of form.fields.project_urls ?? []) {
      const cut = entry.indexOf(',');
      if (cut >= 0 && normalizeLabel(entry.slice(0, cut)) === 'homepage') {
        homepage = entry.slice(cut + 1).trim();
        break;
      }
    }
    if (homepage === '') homepage = value('home_page');
    const metadata: Metadata = {
      author: value('author') || undefined,
      description: value('description') || undefined,
      long_description: value('long_description') || undefined,
      summary: value('summary') || undefined,
      project_url: validUrl(homepage),
      license: value('license') || undefined,
      requires_python: value('requires_python') || undefined,
    };
    for (const [k, v] of Object.entries(metadata))
      if (typeof v === 'string' && !isStorableText(v)) throw new RegistryError(400, `invalid ${k}`);
    await r.em.transactional((tx) =>
      addPackageFile(tx, r.deps.config, {
        ownerId: r.owner.id,
        type: TYPE,
        name,
        version,
        creator,
        filename,
        upload: up,
        metadata,
      }),
    );
  } catch (e) {
    if (e instanceof DuplicateFileError || e instanceof UniqueConstraintViolationException)
      throw new RegistryError(409, 'package file already exists');
    throw e;
  } finally {
    if (form.content) await fs.promises.rm(form.content.file, { force: true });
  }
  emptyAnswer(r.ctx, 201);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const requiresPython = (v: IPackageVersion) => {
  const m = v.metadata;
  return typeof m === 'object' && m !== null && 'requires_python' in m && typeof m.requires_python === 'string' ? m.requires_python : '';
};

/** PEP 503 HTML, or PEP 691 JSON when the client asks for `application/vnd.pypi.simple.v1+json`. */
async function simpleIndex(r: RegistryRequest, id: string): Promise<void> {
  const pkg = await findPackage(r.em, r.owner.id, TYPE, normalize(id));
  const versions = pkg ? await r.em.find(PackageVersion, { packageId: pkg.id }) : [];
  if (!pkg || versions.length === 0) throw new RegistryError(404, 'package does not exist');
  // Forgejo sorts the versions as strings.
  versions.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
  const files = await r.em.find(PackageFile, { versionId: { $in: versions.map((v) => v.id) } }, { orderBy: { id: 'asc' } });
  const blobs = new Map(
    (files.length ? await r.em.find(PackageBlob, { id: { $in: files.map((f) => f.blobId) } }) : []).map((b) => [b.id, b]),
  );
  const base = `${r.deps.config.appUrl}api/packages/${r.owner.name}/pypi`;
  const entries = versions.flatMap((v) =>
    files
      .filter((f) => f.versionId === v.id)
      .flatMap((f) => {
        const blob = blobs.get(f.blobId);
        return blob
          ? [
              {
                name: f.name,
                url: `${base}/files/${encodeURIComponent(pkg.lowerName)}/${encodeURIComponent(v.version)}/${encodeURIComponent(f.name)}`,
                requiresPython: requiresPython(v),
                sha256: blob.hashSha256,
                size: blob.size,
              },
            ]
          : [];
      }),
  );
  const { ctx } = r;
  ctx.status = 200;
  if ((ctx.get('Accept') || '').includes('application/vnd.pypi.simple.v1+json')) {
    ctx.type = 'application/vnd.pypi.simple.v1+json';
    ctx.body = JSON.stringify({
      meta: { 'api-version': '1.1' },
      name: pkg.name,
      versions: versions.map((v) => v.version),
      files: entries.map((e) => ({
        filename: e.name,
        url: e.url,
        'requires-python': e.requiresPython,
        hashes: { sha256: e.sha256 },
        size: e.size,
      })),
    });
    return;
  }
  const links = entries.map(
    (e) =>
      `    <a href="${escapeHtml(`${e.url}#sha256=${e.sha256}`)}"${e.requiresPython ? ` data-requires-python="${escapeHtml(e.requiresPython)}"` : ''}>${escapeHtml(e.name)}</a><br>\n`,
  );
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!DOCTYPE html>\n<html>\n  <head>\n    <meta name="pypi:repository-version" content="1.0">\n    <title>Links for ${escapeHtml(pkg.name)}</title>\n  </head>\n  <body>\n    <h1>Links for ${escapeHtml(pkg.name)}</h1>\n${links.join('')}  </body>\n</html>\n`;
}

async function download(r: RegistryRequest, id: string, version: string, filename: string): Promise<void> {
  const found = await findVersion(r.em, { ownerId: r.owner.id, type: TYPE, name: normalize(id), version });
  if (!found) throw new RegistryError(404, 'package does not exist');
  const lower = filename.toLowerCase();
  const entry = (await versionFiles(r.em, found.version.id)).find((f) => f.file.lowerName === lower);
  if (!entry) throw new RegistryError(404, 'package file does not exist');
  await sendFile(r, found.version.id, entry);
}

export const pypi: Registry = {
  type: TYPE,
  handlers: {
    upload: ofOwner((r) => upload(r)),
    simpleIndex: ofOwner((r, p) => simpleIndex(r, p.name!)),
    download: ofOwner((r, p) => download(r, p.name!, p.version!, p.filename!)),
  },
};
