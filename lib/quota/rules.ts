// Quota rule evaluation, as Forgejo's models/quota (limit_subject.go, rule.go, group.go, used.go).
// Pure: usage comes in, a verdict goes out. The database side is lib/quota.ts.
//
// The semantics, which decide the 413s clients see:
// - subjects nest: `size:all` holds everything; `size:git:all` the repositories (`size:repos:all`,
//   itself public and private) and LFS; `size:assets:all` the attachments (issues and releases),
//   artifacts and packages; the wiki is part of `size:all` only;
// - a rule covers a subject when it lists that subject or one that holds it, so a `size:all` rule
//   speaks for every check; a rule covering the subject passes when the usages of the subjects it
//   lists, summed, are within its limit (`sum <= limit`, so limit 0 still allows zero usage; -1 is
//   no limit);
// - a group passes a subject when every rule of it that covers the subject passes; when none covers
//   it, Forgejo's subjects below it are tried (`size:all`: the repositories, LFS and assets;
//   `size:repos:all`: public and private; `size:assets:all` and its attachments: their parts), and a
//   group none of whose rules speaks for a subject does not pass it;
// - a user passes when at least one of their groups speaks for the subject and passes;
// - a user in no group (and none of [quota] DEFAULT_GROUPS exists) passes.

/** Forgejo's subject names (ParseLimitSubject), in its order; `none` counts nothing. */
export const LIMIT_SUBJECTS = [
  'none',
  'size:all',
  'size:repos:all',
  'size:repos:public',
  'size:repos:private',
  'size:git:all',
  'size:git:lfs',
  'size:assets:all',
  'size:assets:attachments:all',
  'size:assets:attachments:issues',
  'size:assets:attachments:releases',
  'size:assets:artifacts',
  'size:assets:packages:all',
  'size:assets:wiki',
] as const;
export type LimitSubject = (typeof LIMIT_SUBJECTS)[number];

/**
 * Forgejo's documentation calls the wiki subject `size:wiki` while its parser knows
 * `size:assets:wiki`; both are accepted and the parser's spelling is what is stored and shown.
 */
const ALIASES: Record<string, LimitSubject> = { 'size:wiki': 'size:assets:wiki' };

export function parseLimitSubject(raw: string): LimitSubject | null {
  if ((LIMIT_SUBJECTS as readonly string[]).includes(raw)) return raw as LimitSubject;
  return Object.hasOwn(ALIASES, raw) ? ALIASES[raw] : null;
}

/** Forgejo's ErrParseLimitSubjectUnrecognized text, the 422 message of every route that parses subjects. */
export const unrecognizedSubject = (raw: string) => `unrecognized quota limit subject: [subject: ${raw}]`;

/** Bytes used by one owner (Forgejo's quota.Used), the leaves every subject sums. */
export interface QuotaUsage {
  reposPublic: number;
  reposPrivate: number;
  lfs: number;
  attachmentsIssues: number;
  attachmentsReleases: number;
  artifacts: number;
  packages: number;
}
export const NO_USAGE: QuotaUsage = {
  reposPublic: 0,
  reposPrivate: 0,
  lfs: 0,
  attachmentsIssues: 0,
  attachmentsReleases: 0,
  artifacts: 0,
  packages: 0,
};

/**
 * Usage counted for one subject: the sum of the measured parts it holds, each once (`size:all` is the
 * total, `size:git:all` LFS plus the repositories). The wiki is not measured (0), as in Forgejo.
 */
export function usageFor(u: QuotaUsage, subject: LimitSubject): number {
  const repos = u.reposPublic + u.reposPrivate;
  const attachments = u.attachmentsIssues + u.attachmentsReleases;
  const assets = attachments + u.artifacts + u.packages;
  switch (subject) {
    case 'size:all':
      return repos + u.lfs + assets;
    case 'size:repos:all':
      return repos;
    case 'size:repos:public':
      return u.reposPublic;
    case 'size:repos:private':
      return u.reposPrivate;
    case 'size:git:all':
      return u.lfs + repos;
    case 'size:git:lfs':
      return u.lfs;
    case 'size:assets:all':
      return assets;
    case 'size:assets:attachments:all':
      return attachments;
    case 'size:assets:attachments:issues':
      return u.attachmentsIssues;
    case 'size:assets:attachments:releases':
      return u.attachmentsReleases;
    case 'size:assets:artifacts':
      return u.artifacts;
    case 'size:assets:packages:all':
      return u.packages;
    case 'none':
    case 'size:assets:wiki':
      return 0;
  }
}

/** The subject that holds each one directly (`none` is held by nothing and holds nothing). */
const PARENT: Partial<Record<LimitSubject, LimitSubject>> = {
  'size:repos:all': 'size:git:all',
  'size:repos:public': 'size:repos:all',
  'size:repos:private': 'size:repos:all',
  'size:git:all': 'size:all',
  'size:git:lfs': 'size:git:all',
  'size:assets:all': 'size:all',
  'size:assets:attachments:all': 'size:assets:all',
  'size:assets:attachments:issues': 'size:assets:attachments:all',
  'size:assets:attachments:releases': 'size:assets:attachments:all',
  'size:assets:artifacts': 'size:assets:all',
  'size:assets:packages:all': 'size:assets:all',
  'size:assets:wiki': 'size:all',
};

/** The subject and every subject that holds it, innermost first. */
function subjectAndHolders(subject: LimitSubject): LimitSubject[] {
  const out: LimitSubject[] = [subject];
  for (let s = PARENT[subject]; s; s = PARENT[s]) out.push(s);
  return out;
}

/** The subjects a group is asked about when none of its rules covers the subject (Forgejo's affectsMap). */
const BELOW: Partial<Record<LimitSubject, LimitSubject[]>> = {
  'size:all': ['size:repos:all', 'size:git:lfs', 'size:assets:all'],
  'size:repos:all': ['size:repos:public', 'size:repos:private'],
  'size:assets:all': ['size:assets:attachments:all', 'size:assets:artifacts', 'size:assets:packages:all'],
  'size:assets:attachments:all': ['size:assets:attachments:issues', 'size:assets:attachments:releases'],
};

export interface RuleLike {
  limit: number;
  subjects: readonly string[];
}
export interface GroupLike {
  rules: readonly RuleLike[];
}

interface Verdict {
  ok: boolean;
  has: boolean;
}

function evaluateRule(rule: RuleLike, used: QuotaUsage, subject: LimitSubject): Verdict {
  if (!subjectAndHolders(subject).some((s) => rule.subjects.includes(s))) return { ok: false, has: false };
  if (rule.limit === -1) return { ok: true, has: true };
  let sum = 0;
  for (const s of rule.subjects) {
    const parsed = parseLimitSubject(s);
    if (parsed) sum += usageFor(used, parsed);
  }
  return { ok: sum <= rule.limit, has: true };
}

export function evaluateGroup(group: GroupLike, used: QuotaUsage, subject: LimitSubject): Verdict {
  let has = false;
  for (const rule of group.rules) {
    const v = evaluateRule(rule, used, subject);
    if (!v.has) continue;
    if (!v.ok) return { ok: false, has: true };
    has = true;
  }
  if (has) return { ok: true, has };
  // No rule covers the subject, so none covers what holds it either: the group may speak through parts.
  for (const part of BELOW[subject] ?? []) {
    const v = evaluateGroup(group, used, part);
    if (!v.has) continue;
    if (!v.ok) return { ok: false, has: true };
    has = true;
  }
  return { ok: true, has };
}

/** Whether `used` is acceptable for `subject` under a user's groups (see the header). */
export function evaluateGroups(groups: readonly GroupLike[], used: QuotaUsage, subject: LimitSubject): boolean {
  if (groups.length === 0) return true;
  return groups.some((g) => {
    const v = evaluateGroup(g, used, subject);
    return v.has && v.ok;
  });
}
