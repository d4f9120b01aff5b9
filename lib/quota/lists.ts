// What eats into an owner's quota, biggest first (Forgejo's GetQuota{Attachments,Packages,Artifacts}ForUser
// and services/convert/quota.go): the attachments, package versions and artifacts counted by lib/quota.ts.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { Page } from '../http/paging.ts';
import { packageFilesOfOwner } from './quota.ts';
import { executeSql, sql, type Sql } from '../../model/sql.ts';
import { ArtifactStatus } from '../../model/actions.ts';
import { repoApiUrl, repoHtmlUrl } from '../issues/index.ts';
import { pathEscapeSegments } from '../repos/index.ts';

export interface Listed<T> {
  items: T[];
  total: number;
}
type Row = Record<string, string | number | null>;

const rows = (em: EntityManager, q: Sql): Promise<Row[]> => executeSql<Row>(em, q);
const str = (v: string | number | null) => (v === null ? '' : String(v));
const num = (v: string | number | null) => Number(v ?? 0);

/**
 * Attachments of the owner's repositories. `contained_in` is the release, else the comment, else
 * the issue the file belongs to (Forgejo's order); an attachment linked to none has empty URLs.
 */
export async function listQuotaAttachments(em: EntityManager, cfg: Config, ownerId: number, p: Page): Promise<Listed<unknown>> {
  const [{ n }] = await rows(
    em,
    sql`select count(*) as n from attachment a join repository r on r.id = a.repo_id where r.owner_id = ${ownerId}`,
  );
  const found = await rows(
    em,
    sql`select a.id, a.name, a.size, r.owner_name, r.name as repo_name,
            rel.id as release_id, rel.tag_name,
            c.id as comment_id, ci.idx as comment_issue_index, ci.is_pull as comment_issue_is_pull,
            i.idx as issue_index, i.is_pull as issue_is_pull
       from attachment a join repository r on r.id = a.repo_id
       left join "release" rel on rel.id = a.release_id and a.release_id <> 0
       left join comment c on c.id = a.comment_id and a.comment_id <> 0
       left join (select id, "index" as idx, is_pull from issue) ci on ci.id = c.issue_id
       left join (select id, "index" as idx, is_pull from issue) i on i.id = a.issue_id and a.issue_id <> 0
      where r.owner_id = ${ownerId}
      order by a.size desc, a.id asc limit ${p.limit} offset ${p.offset}`,
  );
  const items = found.map((row) => {
    const api = repoApiUrl(cfg, str(row.owner_name), str(row.repo_name));
    const html = repoHtmlUrl(cfg, str(row.owner_name), str(row.repo_name));
    const issueHtml = (index: string | number | null, isPull: unknown) =>
      `${html}/${isPull === true || isPull === 1 ? 'pulls' : 'issues'}/${str(index)}`;
    let containedApi = '';
    let containedHtml = '';
    if (row.release_id !== null) {
      containedApi = `${api}/releases/${row.release_id}`;
      containedHtml = `${html}/releases/tag/${pathEscapeSegments(str(row.tag_name))}`;
    } else if (row.comment_id !== null) {
      containedApi = `${api}/issues/comments/${row.comment_id}`;
      containedHtml = `${issueHtml(row.comment_issue_index, row.comment_issue_is_pull)}#issuecomment-${row.comment_id}`;
    } else if (row.issue_index !== null) {
      containedApi = `${api}/issues/${row.issue_index}`;
      containedHtml = issueHtml(row.issue_index, row.issue_is_pull);
    }
    return {
      name: str(row.name),
      size: num(row.size),
      api_url: `${containedApi}/assets/${row.id}`,
      contained_in: { api_url: containedApi, html_url: containedHtml },
    };
  });
  return { items, total: num(n) };
}

/** Package versions counted for the owner, each with the summed size of its files. */
export async function listQuotaPackages(em: EntityManager, cfg: Config, ownerId: number, p: Page): Promise<Listed<unknown>> {
  const [{ n }] = await rows(em, sql`select count(distinct v.id) as n ${packageFilesOfOwner(ownerId)}`);
  const found = await rows(
    em,
    sql`select v.id, v.version, p.name, p.type, o.name as owner_name, sum(b.size) as size
       ${packageFilesOfOwner(ownerId, sql`join "user" o on o.id = p.owner_id\n  `)}
      group by v.id, v.version, p.name, p.type, o.name
      order by size desc, v.id asc limit ${p.limit} offset ${p.offset}`,
  );
  const esc = encodeURIComponent;
  const items = found.map((row) => ({
    name: str(row.name),
    type: str(row.type),
    version: str(row.version),
    size: num(row.size),
    html_url: `${cfg.appUrl}${esc(str(row.owner_name))}/-/packages/${str(row.type)}/${esc(str(row.name))}/${esc(str(row.version))}`,
  }));
  return { items, total: num(n) };
}

/** Artifacts of the owner's repositories that still take space, linking to their run. */
export async function listQuotaArtifacts(em: EntityManager, cfg: Config, ownerId: number, p: Page): Promise<Listed<unknown>> {
  const gone = [ArtifactStatus.expired, ArtifactStatus.pendingDeletion, ArtifactStatus.deleted];
  const from = sql`from action_artifact a join repository r on r.id = a.repo_id join action_run run on run.id = a.run_id
      where r.owner_id = ${ownerId} and a.status not in (${sql.list(gone)})`;
  const [{ n }] = await rows(em, sql`select count(*) as n ${from}`);
  const found = await rows(
    em,
    sql`select a.id, a.artifact_name, a.file_compressed_size, r.owner_name, r.name as repo_name, run."index" as run_index
       ${from} order by a.file_compressed_size desc, a.id asc limit ${p.limit} offset ${p.offset}`,
  );
  const items = found.map((row) => ({
    name: str(row.artifact_name),
    size: num(row.file_compressed_size),
    html_url: `${repoHtmlUrl(cfg, str(row.owner_name), str(row.repo_name))}/actions/runs/${str(row.run_index)}`,
  }));
  return { items, total: num(n) };
}
