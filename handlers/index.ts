// The handler registry. A table row names its handler by key; a key listed in PENDING has no handler
// yet, so its route runs all its guards and then answers 501 (and `npm run routes` counts it as not
// implemented). Implementing a route = writing the function, registering it here, removing it from PENDING.
import * as misc from './misc.ts';
import * as users from './users.ts';
import * as tokens from './tokens.ts';
import * as adminUsers from './admin-users.ts';
import * as repos from './repos.ts';
import * as collaborators from './collaborators.ts';
import * as orgs from './orgs.ts';
import { PENDING } from './pending.ts';

export const handlers = {
  'misc.getSwagger': misc.swagger,
  'misc.version': misc.version,
  'settings.getUi': misc.settingsUi,
  'settings.getApi': misc.settingsApi,
  'settings.getAttachment': misc.settingsAttachment,
  'settings.getRepository': misc.settingsRepository,
  'users.get': users.get,
  'user.get': users.me,
  'users.listTokens': tokens.list,
  'users.createTokens': tokens.create,
  'users.removeTokens': tokens.remove,
  'user.createRepo': repos.createForMe,
  'admin.createUserRepo': repos.createForUser,
  'repos.get': repos.get,
  'repos.edit': repos.edit,
  'repos.remove': repos.remove,
  'collaborators.put': collaborators.put,
  'collaborators.remove': collaborators.remove,
  'orgs.create': orgs.create,
  'orgs.get': orgs.get,
  'admin.listUsers': adminUsers.list,
  'admin.createUsers': adminUsers.create,
  'admin.editUsers': adminUsers.edit,
  'admin.removeUsers': adminUsers.remove,
};

export { PENDING };
export type HandlerKey = keyof typeof handlers | (typeof PENDING)[number];
