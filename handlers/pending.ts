// Handler keys of routes that have no handler yet (see handlers/index.ts).
export const PENDING = [
  'activitypub.createActorInbox', 'activitypub.createRepositoryIdInbox', 'activitypub.createUserIdInbox', 'activitypub.getRepositoryId',
  'activitypub.getUserId', 'activitypub.getUserIdActivities', 'activitypub.listActor', 'activitypub.listActorOutbox',
  'activitypub.listRepositoryIdOutbox', 'activitypub.listUserIdActivitiesActivity', 'activitypub.listUserIdOutbox', 'flags.get',
  'flags.list', 'flags.put', 'flags.putItem', 'flags.remove',
  'flags.removeItem', 'misc.getNodeinfo', 'user.createActivitypubFollow',
] as const;
