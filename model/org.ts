import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const OrgUser = defineEntity({
  name: 'OrgUser',
  tableName: 'org_user',
  properties: {
    id: p.integer().primary().autoincrement(),
    uid: p.integer().index(),
    orgId: p.integer().index(),
    isPublic: p.boolean().default(false),
  },
  uniques: [{ properties: ['uid', 'orgId'] }],
});
export type IOrgUser = InferEntity<typeof OrgUser>;

export const Team = defineEntity({
  name: 'Team',
  tableName: 'team',
  properties: {
    id: p.integer().primary().autoincrement(),
    orgId: p.integer().index(),
    name: p.string().length(255),
    lowerName: p.string().length(255),
    description: p.string().length(255).default(''),
    /** Access mode: 1 read, 2 write, 3 admin, 4 owner. */
    accessMode: p.smallint().default(1),
    includesAllRepositories: p.boolean().default(false),
    canCreateOrgRepo: p.boolean().default(false),
  },
  uniques: [{ properties: ['orgId', 'lowerName'] }],
});
export type ITeam = InferEntity<typeof Team>;

export const TeamUnit = defineEntity({
  name: 'TeamUnit',
  tableName: 'team_unit',
  properties: {
    id: p.integer().primary().autoincrement(),
    teamId: p.integer().index(),
    orgId: p.integer(),
    type: p.smallint(),
    accessMode: p.smallint(),
  },
  uniques: [{ properties: ['teamId', 'type'] }],
});
export type ITeamUnit = InferEntity<typeof TeamUnit>;

export const TeamUser = defineEntity({
  name: 'TeamUser',
  tableName: 'team_user',
  properties: {
    id: p.integer().primary().autoincrement(),
    teamId: p.integer().index(),
    orgId: p.integer().index(),
    uid: p.integer().index(),
  },
  uniques: [{ properties: ['teamId', 'uid'] }],
});
export type ITeamUser = InferEntity<typeof TeamUser>;

export const TeamRepo = defineEntity({
  name: 'TeamRepo',
  tableName: 'team_repo',
  properties: {
    id: p.integer().primary().autoincrement(),
    teamId: p.integer().index(),
    orgId: p.integer(),
    repoId: p.integer().index(),
  },
  uniques: [{ properties: ['teamId', 'repoId'] }],
});
export type ITeamRepo = InferEntity<typeof TeamRepo>;
