// Organizations: create and read.
import type { Handler } from '../lib/handler.ts';
import { json } from '../lib/handler.ts';
import type { CreateOrgOption } from '../model/schemas/index.ts';
import { createOrg } from '../lib/accounts.ts';
import { forbidden } from '../lib/errors.ts';
import { toApiOrg } from '../model/api-user.ts';
import { isSiteAdmin, need } from '../guards/types.ts';

export const create: Handler<CreateOrgOption> = async (c) => {
  const doer = c.auth.doer!;
  if (!isSiteAdmin(c) && (!doer.allowCreateOrganization || doer.restricted)) throw forbidden('Given user is not allowed to create organization.');
  const b = c.body;
  const org = await createOrg(c.em, doer, {
    name: b.username,
    fullName: b.full_name,
    email: b.email,
    description: b.description,
    website: b.website,
    location: b.location,
    visibility: b.visibility || undefined,
    repoAdminChangeTeamAccess: b.repo_admin_change_team_access,
  });
  return json(201, toApiOrg(c.config, org));
};

export const get: Handler = async (c) => json(200, toApiOrg(c.config, need(c.org, 'org')));
