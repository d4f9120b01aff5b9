// Quota accounting (spec, Limits 1; Forgejo's models/quota): what an owner uses, which groups and
// rules apply to them, and whether a write may go ahead. Usage is counted against the owner of the
// repository that holds the bytes, as Forgejo does, so an upload to someone else's issue counts for
// the repository owner. The rule logic itself is lib/quota-rules.ts.
import type { EntityManager } from '@mikro-orm/core';
import { listSetting, type Config } from '../../config.ts';
import { QuotaGroup, QuotaGroupMapping, QuotaGroupRule, QuotaMappingKind, QuotaRule, type IQuotaRule } from '../../model/quota.ts';
import { ArtifactStatus } from '../../model/actions.ts';
import { lfsBytesOfOwner } from '../transport/index.ts';
import { executeSql, sql, type Sql } from '../../model/sql.ts';
import { evaluateGroups, parseLimitSubject, type LimitSubject, type QuotaUsage } from './rules.ts';

/** The subjects route rows may check with Q(subject, target) (spec, guard table). */
export const QUOTA_SUBJECTS = [
  'size:repos:all',
  'size:git:all',
  'size:assets:attachments:releases',
  'size:assets:attachments:issues',
  'size:wiki',
] as const;
export type QuotaSubject = (typeof QUOTA_SUBJECTS)[number];

export interface GroupWithRules {
  name: string;
  rules: IQuotaRule[];
}

type Row = Record<string, string | number | null>;
const rows = (em: EntityManager, q: Sql): Promise<Row[]> => executeSql<Row>(em, q);
const num = (v: string | number | null | undefined) => Number(v ?? 0);

/** Artifacts whose bytes are gone (or going) take no space. */
const GONE_ARTIFACTS = [ArtifactStatus.expired, ArtifactStatus.pendingDeletion, ArtifactStatus.deleted];

/** Bytes used by `ownerId` (Forgejo's GetUsedForUser). */
export async function quotaUsage(em: EntityManager, ownerId: number): Promise<QuotaUsage> {
  const [repos] = await rows(
    em,
    sql`select coalesce(sum(case when is_private then size else 0 end), 0) as private,
            coalesce(sum(case when is_private then 0 else size end), 0) as public
       from repository where owner_id = ${ownerId}`,
  );
  const [att] = await rows(
    em,
    sql`select coalesce(sum(case when a.release_id <> 0 then a.size else 0 end), 0) as releases,
            coalesce(sum(case when a.release_id <> 0 then 0 else a.size end), 0) as issues
       from attachment a join repository r on r.id = a.repo_id where r.owner_id = ${ownerId}`,
  );
  const [art] = await rows(
    em,
    sql`select coalesce(sum(a.file_compressed_size), 0) as size
       from action_artifact a join repository r on r.id = a.repo_id
      where r.owner_id = ${ownerId} and a.status not in (${sql.list(GONE_ARTIFACTS)})`,
  );
  const [pkg] = await rows(em, sql`select coalesce(sum(b.size), 0) as size ${packageFilesOfOwner(ownerId)}`);
  const [lfs] = await rows(em, lfsBytesOfOwner(ownerId));
  return {
    reposPublic: num(repos!.public),
    reposPrivate: num(repos!.private),
    lfs: num(lfs!.size),
    attachmentsIssues: num(att!.issues),
    attachmentsReleases: num(att!.releases),
    artifacts: num(art!.size),
    packages: num(pkg!.size),
  };
}

/**
 * Package files counted for an owner (Forgejo's "packages" query): those of packages linked to one
 * of the owner's repositories, and the owner's unlinked packages; `joined` is joined in before the
 * repository (a join on `p` from the program, such as the owning user).
 */
export const packageFilesOfOwner = (ownerId: number, joined: Sql = sql.empty): Sql => sql`from package_file f
  join package_blob b on b.id = f.blob_id
  join package_version v on v.id = f.version_id
  join package p on p.id = v.package_id
  ${joined}left join repository r on r.id = p.repo_id
  where (r.owner_id = ${ownerId} or (p.repo_id = 0 and p.owner_id = ${ownerId}))`;

/** Rules of the named groups, in the order they were added to each group. */
async function rulesOf(em: EntityManager, groupNames: string[]): Promise<Map<string, IQuotaRule[]>> {
  const out = new Map<string, IQuotaRule[]>(groupNames.map((n) => [n, []]));
  if (groupNames.length === 0) return out;
  const links = await em.find(QuotaGroupRule, { groupName: { $in: groupNames } }, { orderBy: { id: 'asc' } });
  const rules = await em.find(QuotaRule, { name: { $in: [...new Set(links.map((l) => l.ruleName))] } });
  const byName = new Map(rules.map((r) => [r.name, r]));
  for (const l of links) {
    const r = byName.get(l.ruleName);
    if (r) out.get(l.groupName)!.push(r);
  }
  return out;
}

/** Groups (with their rules) by name, ordered by name; names that do not exist are left out. */
export async function groupsNamed(em: EntityManager, names: string[]): Promise<GroupWithRules[]> {
  if (names.length === 0) return [];
  const groups = await em.find(QuotaGroup, { name: { $in: names } }, { orderBy: { name: 'asc' } });
  const rules = await rulesOf(
    em,
    groups.map((g) => g.name),
  );
  return groups.map((g) => ({ name: g.name, rules: rules.get(g.name)! }));
}

/** A user's groups; one in no group gets the existing groups of [quota] DEFAULT_GROUPS (Forgejo GetGroupsForUser). */
export async function groupsForUser(em: EntityManager, cfg: Config, userId: number): Promise<GroupWithRules[]> {
  const mapped = await em.find(QuotaGroupMapping, { kind: QuotaMappingKind.user, mappedId: userId });
  const names = mapped.length > 0 ? mapped.map((m) => m.groupName) : listSetting(cfg.QUOTA.DEFAULT_GROUPS);
  return groupsNamed(em, names);
}

/** Whether `userId` is within quota for `subject` (Forgejo EvaluateForUser); always true with quota off. */
export async function withinQuota(em: EntityManager, cfg: Config, userId: number, subject: LimitSubject): Promise<boolean> {
  if (!cfg.QUOTA.ENABLED) return true;
  const groups = await groupsForUser(em, cfg, userId);
  // No group: nothing limits the user, and the usage queries can be skipped.
  if (groups.length === 0) return true;
  return evaluateGroups(groups, await quotaUsage(em, userId), subject);
}

/** Whether `ownerId` is over a limit for the Q subject (spec, Limits 1). */
export async function quotaExceeded(em: EntityManager, cfg: Config, ownerId: number, subject: QuotaSubject): Promise<boolean> {
  const parsed = parseLimitSubject(subject);
  if (!parsed) throw new Error(`quota subject without a limit subject: ${subject}`);
  return !(await withinQuota(em, cfg, ownerId, parsed));
}
