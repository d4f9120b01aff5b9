// api.Release wire shape (Forgejo services/convert ToAPIRelease, models/repo/release.go). Lists are
// converted in one batch: assets and authors take one query each however many releases are listed.
import { readTogether } from '../../../model/reads.ts';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../../config.ts';
import type { IRelease } from '../../../model/release.ts';
import { Attachment, type IAttachment } from '../../../model/attachment.ts';
import { toApiAttachment, usersById, type ApiAttachment } from '../../issues/index.ts';
import { toApiUser, type Viewer } from '../../users/index.ts';
import type { RepoUrls } from './git.ts';
import { fmtTime } from '../../../model/time.ts';
import type { Release, Wire } from '../../../model/schemas/index.ts';

export type ApiRelease = Wire<Release>;

/**
 * Go's url.PathEscape (Forgejo escapes tag and file names with it, or segment by segment with
 * PathEscapeSegments): everything but unreserved characters and `$&+:=@` becomes %XX.
 */
export function goPathEscape(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(b);
    out += b < 0x80 && /[A-Za-z0-9\-_.~$&+:=@]/.test(ch) ? ch : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export const pathEscapeSegments = (s: string) => s.split('/').map(goPathEscape).join('/');

/** Release assets order by name (GetReleaseAttachments). */
export async function releaseAssets(em: EntityManager, releaseIds: number[]): Promise<IAttachment[]> {
  if (releaseIds.length === 0) return [];
  return em.find(Attachment, { releaseId: { $in: releaseIds } }, { orderBy: { name: 'asc', id: 'asc' } });
}

/**
 * Assets as a release lists them: when their names are unique within the release, uploaded ones are
 * linked by `<repo>/releases/download/<tag>/<name>` instead of `/attachments/<uuid>` (Forgejo's
 * CustomDownloadURL); external ones always link to their URL.
 */
export function releaseAssetsToApi(cfg: Config, urls: RepoUrls, r: Pick<IRelease, 'tagName'>, assets: IAttachment[]): ApiAttachment[] {
  const unique = new Set(assets.map((a) => a.name)).size === assets.length;
  return assets.map((a) => {
    const api = toApiAttachment(cfg, a);
    if (unique && !a.externalUrl)
      api.browser_download_url = `${urls.html}/releases/download/${goPathEscape(r.tagName)}/${goPathEscape(a.name)}`;
    return api;
  });
}

export interface ReleaseApiOptions {
  /** `Accept: application/vnd.github+json` asks for GitHub's upload URL template (forgejo-facts 12.5). */
  githubUploadUrl?: boolean;
}

export async function releasesToApi(
  em: EntityManager,
  cfg: Config,
  viewer: Viewer,
  urls: RepoUrls,
  releases: IRelease[],
  opts: ReleaseApiOptions = {},
): Promise<ApiRelease[]> {
  const [assets, users] = await readTogether(em, [
    () =>
      releaseAssets(
        em,
        releases.map((r) => r.id),
      ),
    () =>
      usersById(
        em,
        releases.map((r) => r.publisherId),
      ),
  ]);
  return releases.map((r) => {
    const api = `${urls.api}/releases/${r.id}`;
    const tag = pathEscapeSegments(r.tagName);
    const author = users.get(r.publisherId) ?? users.get(-1)!;
    return {
      id: r.id,
      tag_name: r.tagName,
      target_commitish: r.target,
      name: r.title,
      body: r.note,
      url: api,
      html_url: `${urls.html}/releases/tag/${tag}`,
      tarball_url: `${urls.html}/archive/${tag}.tar.gz`,
      zipball_url: `${urls.html}/archive/${tag}.zip`,
      hide_archive_links: r.hideArchiveLinks,
      upload_url: opts.githubUploadUrl ? `${api}/assets{?name,label}` : `${api}/assets`,
      draft: r.isDraft,
      prerelease: r.isPrerelease,
      created_at: fmtTime(r.createdAt),
      // Forgejo has no separate publication time: both are the release's created_unix.
      published_at: fmtTime(r.createdAt),
      author: toApiUser(cfg, author, viewer),
      assets: releaseAssetsToApi(
        cfg,
        urls,
        r,
        assets.filter((a) => a.releaseId === r.id),
      ),
      archive_download_count: { zip: r.archiveDownloadCount?.zip ?? 0, tar_gz: r.archiveDownloadCount?.tar_gz ?? 0 },
    };
  });
}

export async function releaseToApi(
  em: EntityManager,
  cfg: Config,
  viewer: Viewer,
  urls: RepoUrls,
  r: IRelease,
  opts: ReleaseApiOptions = {},
): Promise<ApiRelease> {
  return (await releasesToApi(em, cfg, viewer, urls, [r], opts))[0]!;
}
