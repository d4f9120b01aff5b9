import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A quota rule (Forgejo's `quota_rule`): a byte limit (-1 = unlimited) over the summed usage of its
 * subjects. Subjects are stored in their canonical spelling (lib/quota/rules.ts).
 */
export const QuotaRule = defineEntity({
  name: 'QuotaRule',
  tableName: 'quota_rule',
  properties: {
    name: p.string().length(255).primary(),
    limit: p.bigint('number'),
    subjects: p.json<string[]>().default('[]'),
  },
});
export type IQuotaRule = InferEntity<typeof QuotaRule>;

/** A named set of rules (Forgejo's `quota_group`); users and organizations are mapped onto groups. */
export const QuotaGroup = defineEntity({
  name: 'QuotaGroup',
  tableName: 'quota_group',
  properties: {
    name: p.string().length(255).primary(),
  },
});
export type IQuotaGroup = InferEntity<typeof QuotaGroup>;

/** A rule of a group (Forgejo's `quota_group_rule_mapping`). */
export const QuotaGroupRule = defineEntity({
  name: 'QuotaGroupRule',
  tableName: 'quota_group_rule_mapping',
  properties: {
    id: p.integer().primary().autoincrement(),
    groupName: p.string().length(255).index(),
    ruleName: p.string().length(255),
  },
  uniques: [{ properties: ['groupName', 'ruleName'] }],
});
export type IQuotaGroupRule = InferEntity<typeof QuotaGroupRule>;

/** Kinds of `QuotaGroupMapping.mappedId`; Forgejo knows only users (organizations are users). */
export const QuotaMappingKind = { user: 0 } as const;

/** A user (or organization) in a group (Forgejo's `quota_group_mapping`). */
export const QuotaGroupMapping = defineEntity({
  name: 'QuotaGroupMapping',
  tableName: 'quota_group_mapping',
  properties: {
    id: p.integer().primary().autoincrement(),
    kind: p.integer().default(QuotaMappingKind.user),
    mappedId: p.integer(),
    groupName: p.string().length(255).index(),
  },
  uniques: [{ properties: ['kind', 'mappedId', 'groupName'] }],
});
export type IQuotaGroupMapping = InferEntity<typeof QuotaGroupMapping>;
