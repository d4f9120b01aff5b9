// Creating users and organizations: one place for the name, e-mail and uniqueness rules.
import type { EntityManager } from '@mikro-orm/core';
import { EmailAddress, User, UserRedirect, type IUser, type Visibility } from '../../model/user.ts';
import { OrgUser, Team, TeamUnit, TeamUser } from '../../model/org.ts';
import { Mode, UNIT_NAMES, Unit } from '../auth/perm.ts';
import { hashPassword } from '../auth/password.ts';
import { checkUserName } from './names.ts';
import { isValidEmail } from './emails.ts';
import { unprocessable } from '../http/errors.ts';

export interface NewUser {
  name: string;
  email: string;
  password?: string;
  fullName?: string;
  isAdmin?: boolean;
  visibility?: Visibility;
  mustChangePassword?: boolean;
  restricted?: boolean;
  loginName?: string;
  sourceId?: number;
}

export async function nameTaken(em: EntityManager, name: string): Promise<boolean> {
  return (await em.count(User, { lowerName: name.toLowerCase() })) > 0;
}

export async function createUser(em: EntityManager, input: NewUser): Promise<IUser> {
  checkUserName(input.name);
  const email = input.email.trim();
  if (!isValidEmail(email)) throw unprocessable(`e-mail invalid [email: ${email}]`);
  if (await nameTaken(em, input.name)) throw unprocessable(`user already exists [name: ${input.name}]`);
  if ((await em.count(EmailAddress, { lowerEmail: email.toLowerCase() })) > 0)
    throw unprocessable(`e-mail already in use [email: ${email}]`);
  const user = em.create(User, {
    name: input.name,
    lowerName: input.name.toLowerCase(),
    email,
    fullName: input.fullName ?? '',
    passwordHash: input.password ? await hashPassword(input.password) : '',
    isAdmin: input.isAdmin ?? false,
    visibility: input.visibility ?? 'public',
    mustChangePassword: input.mustChangePassword ?? false,
    restricted: input.restricted ?? false,
    loginName: input.loginName ?? '',
    sourceId: input.sourceId ?? 0,
  });
  await em.flush();
  em.create(EmailAddress, { uid: user.id, email, lowerEmail: email.toLowerCase(), isActivated: true, isPrimary: true });
  // A name that is taken now can no longer redirect elsewhere.
  await em.nativeDelete(UserRedirect, { lowerName: user.lowerName });
  await em.flush();
  return user;
}

export interface NewOrg {
  name: string;
  fullName?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: Visibility;
  repoAdminChangeTeamAccess?: boolean;
}

/** Creates an organization with its Owners team, the creator its first owner (forgejo-facts 6.4). */
export async function createOrg(em: EntityManager, creator: IUser, input: NewOrg): Promise<IUser> {
  checkUserName(input.name);
  if (await nameTaken(em, input.name)) throw unprocessable(`user already exists [name: ${input.name}]`);
  const org = em.create(User, {
    name: input.name,
    lowerName: input.name.toLowerCase(),
    type: 1,
    fullName: input.fullName ?? '',
    email: input.email ?? '',
    description: input.description ?? '',
    website: input.website ?? '',
    location: input.location ?? '',
    visibility: input.visibility ?? 'public',
    repoAdminChangeTeamAccess: input.repoAdminChangeTeamAccess ?? false,
  });
  await em.flush();
  const owners = em.create(Team, {
    orgId: org.id,
    name: 'Owners',
    lowerName: 'owners',
    accessMode: Mode.owner,
    includesAllRepositories: true,
    canCreateOrgRepo: true,
  });
  await em.flush();
  for (const u of UNIT_NAMES) em.create(TeamUnit, { teamId: owners.id, orgId: org.id, type: Unit[u], accessMode: Mode.owner });
  em.create(TeamUser, { teamId: owners.id, orgId: org.id, uid: creator.id });
  em.create(OrgUser, { orgId: org.id, uid: creator.id, isPublic: false });
  await em.nativeDelete(UserRedirect, { lowerName: org.lowerName });
  await em.flush();
  return org;
}
