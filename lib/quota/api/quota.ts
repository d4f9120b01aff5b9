// Quota wire shapes (Forgejo services/convert/quota.go). Rule and group names are shown to admins
// only; Go's `omitempty` drops them (and empty subject lists) elsewhere.
import type { IQuotaRule } from '../../../model/quota.ts';
import type { QuotaUsage } from '../rules.ts';
import type { GroupWithRules } from '../quota.ts';
import type { QuotaGroup, QuotaInfo, QuotaRuleInfo, Wire } from '../../../model/schemas/index.ts';

export type ApiQuotaRule = Wire<QuotaRuleInfo, 'name' | 'subjects'>;
export type ApiQuotaGroup = Wire<QuotaGroup, 'name' | 'rules'> & { rules: ApiQuotaRule[] };
export type ApiQuotaInfo = Wire<QuotaInfo>;

export function toApiQuotaRule(rule: IQuotaRule, withName: boolean): ApiQuotaRule {
  return {
    ...(withName && rule.name !== '' ? { name: rule.name } : {}),
    limit: rule.limit,
    ...(rule.subjects.length > 0 ? { subjects: [...rule.subjects] } : {}),
  };
}

export function toApiQuotaGroup(group: GroupWithRules, withNames: boolean): ApiQuotaGroup {
  return {
    ...(withNames && group.name !== '' ? { name: group.name } : {}),
    rules: group.rules.map((r) => toApiQuotaRule(r, withNames)),
  };
}

export function toApiQuotaInfo(used: QuotaUsage, groups: GroupWithRules[], withNames: boolean): ApiQuotaInfo {
  return {
    used: {
      size: {
        repos: { public: used.reposPublic, private: used.reposPrivate },
        git: { LFS: used.lfs },
        assets: {
          attachments: { issues: used.attachmentsIssues, releases: used.attachmentsReleases },
          artifacts: used.artifacts,
          packages: { all: used.packages },
        },
      },
    },
    groups: groups.map((g) => toApiQuotaGroup(g, withNames)),
  };
}
