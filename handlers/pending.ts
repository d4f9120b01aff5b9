// Handler keys of routes that have no handler yet (see handlers/index.ts).
export const PENDING = [
  'activitypub.createActorInbox', 'activitypub.createRepositoryIdInbox', 'activitypub.createUserIdInbox', 'activitypub.getRepositoryId',
  'activitypub.getUserId', 'activitypub.getUserIdActivities', 'activitypub.listActor', 'activitypub.listActorOutbox',
  'activitypub.listRepositoryIdOutbox', 'activitypub.listUserIdActivitiesActivity', 'activitypub.listUserIdOutbox', 'admin.createQuotaGroups',
  'admin.createQuotaRules', 'admin.createUsersQuotaGroups', 'admin.editQuotaRules', 'admin.getQuotaGroups',
  'admin.getQuotaRules', 'admin.listQuotaGroups', 'admin.listQuotaGroupsUsers', 'admin.listQuotaRules',
  'admin.listUsersQuota', 'admin.putQuotaGroupsRules', 'admin.putQuotaGroupsUsers', 'admin.removeQuotaGroups',
  'admin.removeQuotaGroupsRules', 'admin.removeQuotaGroupsUsers', 'admin.removeQuotaRules', 'flags.get',
  'flags.list', 'flags.put', 'flags.putItem', 'flags.remove',
  'flags.removeItem', 'misc.getNodeinfo', 'orgs.listQuota', 'orgs.listQuotaArtifacts',
  'orgs.listQuotaAttachments', 'orgs.listQuotaCheck', 'orgs.listQuotaPackages', 'packages.createLink',
  'packages.createUnlink', 'packages.get', 'packages.getItem', 'packages.listFiles',
  'packages.remove', 'user.createActivitypubFollow', 'user.listQuota', 'user.listQuotaArtifacts',
  'user.listQuotaAttachments', 'user.listQuotaCheck', 'user.listQuotaPackages',
] as const;
