// Forgejo's pseudo users (forgejo-facts 2.10, 12.2): Ghost (-1) and the Actions user (-2). They have
// no row; these stand-ins go through the same code as real users.
import type { IUser } from '../../model/user.ts';

export function pseudoUser(id: -1 | -2): IUser {
  const ghost = id === -1;
  const name = ghost ? 'Ghost' : 'forgejo-actions';
  const standIn: Partial<IUser> = {
    id,
    name,
    lowerName: name.toLowerCase(),
    fullName: ghost ? '' : 'Forgejo Actions',
    email: ghost ? '' : 'noreply@forgejo.org',
    keepEmailPrivate: !ghost,
    isAdmin: false,
    isActive: true,
    prohibitLogin: false,
    mustChangePassword: false,
    restricted: false,
    visibility: 'public',
    type: 0,
    description: '',
    website: '',
    location: '',
    pronouns: '',
    hidePronouns: false,
    language: '',
    avatar: '',
    loginName: ghost ? '' : name,
    sourceId: 0,
    numFollowers: 0,
    numFollowing: 0,
    allowCreateOrganization: false,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    lastLoginAt: null,
  };
  return standIn as IUser;
}
