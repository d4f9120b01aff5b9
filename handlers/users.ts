// Users: the signed-in user and user profiles.
import type { Handler } from '../lib/handler.ts';
import { json } from '../lib/handler.ts';
import { toApiUser } from '../model/api-user.ts';
import { isSiteAdmin, need } from '../guards/types.ts';

export const me: Handler = async (c) => json(200, toApiUser(c.config, c.auth.doer!, { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) }));

export const get: Handler = async (c) => json(200, toApiUser(c.config, need(c.contextUser, 'user'), { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) }));
