// What other domains of lib/ may use of lib/users/: they import it from here, never from its files.
export { toApiTeam } from './api/team.ts';
export { toApiUser } from './api/user.ts';
export type { ApiUser, Viewer } from './api/user.ts';
export { avatarHash, checkAvatarImage } from './avatar-store.ts';
export { checkRepoName } from './names.ts';
export { teamUnitsOf } from './teams.ts';
