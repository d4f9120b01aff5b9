import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const UserType = { individual: 0, organization: 1 } as const;
export type Visibility = 'public' | 'limited' | 'private';

/** A user or an organization (Forgejo keeps both in one table, told apart by `type`). */
export const User = defineEntity({
  name: 'User',
  tableName: 'user',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(255),
    lowerName: p.string().length(255).unique(),
    fullName: p.string().length(255).default(''),
    email: p.string().length(255).default(''),
    keepEmailPrivate: p.boolean().default(false),
    passwordHash: p.string().length(255).default('').hidden().lazy(true, false),
    type: p.smallint().default(0),
    isAdmin: p.boolean().default(false),
    isActive: p.boolean().default(true),
    prohibitLogin: p.boolean().default(false),
    restricted: p.boolean().default(false),
    mustChangePassword: p.boolean().default(false),
    visibility: p.string().length(16).default('public').$type<Visibility>(),
    description: p.text().default(''),
    website: p.string().length(1024).default(''),
    location: p.string().length(255).default(''),
    pronouns: p.string().length(255).default(''),
    language: p.string().length(16).default(''),
    theme: p.string().length(64).default(''),
    diffViewStyle: p.string().length(32).default(''),
    hideActivity: p.boolean().default(false),
    hidePronouns: p.boolean().default(false),
    /** Kept in step with the follow table (Forgejo's num_followers / num_following). */
    numFollowers: p.integer().default(0),
    numFollowing: p.integer().default(0),
    enableRepoUnitHints: p.boolean().default(true),
    avatar: p.string().length(64).default(''),
    loginName: p.string().length(255).default(''),
    sourceId: p.integer().default(0),
    maxRepoCreation: p.integer().default(-1),
    allowCreateOrganization: p.boolean().default(true),
    repoAdminChangeTeamAccess: p.boolean().default(false),
    /** TOTP secret, encrypted with the instance secret key; empty when two-factor is off. */
    totpSecret: p.text().default('').hidden().lazy(true, false),
    totpLastUsed: p.string().length(16).default('').hidden().lazy(true, false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    lastLoginAt: p.datetime().nullable(),
  },
});
export type IUser = InferEntity<typeof User>;

/** Old lower-case names of renamed users and organizations (spec, path resolution rule 2). */
export const UserRedirect = defineEntity({
  name: 'UserRedirect',
  tableName: 'user_redirect',
  properties: {
    id: p.integer().primary().autoincrement(),
    lowerName: p.string().length(255).unique(),
    redirectUserId: p.integer().index(),
  },
});
export type IUserRedirect = InferEntity<typeof UserRedirect>;

export const EmailAddress = defineEntity({
  name: 'EmailAddress',
  tableName: 'email_address',
  properties: {
    id: p.integer().primary().autoincrement(),
    uid: p.integer().index(),
    email: p.string().length(255),
    lowerEmail: p.string().length(255).unique(),
    isActivated: p.boolean().default(false),
    isPrimary: p.boolean().default(false),
  },
});
export type IEmailAddress = InferEntity<typeof EmailAddress>;
