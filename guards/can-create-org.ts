// Forgejo's CanCreateOrganization for `POST /orgs`: site admins, or users whose account allows creating
// organizations (restricted users included); else 403.
import { deny, isSiteAdmin, step } from './types.ts';

export const CAN_CREATE_ORG = step('CAN_CREATE_ORG', 'guard', [], [], (s) =>
  isSiteAdmin(s) || s.auth.doer?.allowCreateOrganization ? null : deny(403, 'Given user is not allowed to create organization.'),
);
