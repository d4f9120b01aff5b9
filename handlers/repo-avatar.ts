// `POST/DELETE {R}/avatar`.
import type { Handler } from '../lib/http/handler.ts';
import { noContent } from '../lib/http/handler.ts';
import type { UpdateRepoAvatarOption } from '../model/schemas/index.ts';
import { decodeAvatar } from '../lib/users/avatar-store.ts';
import { clearRepoAvatar, setRepoAvatar } from '../lib/repos/avatar.ts';
import { need } from '../lib/http/request.ts';

export const create: Handler<UpdateRepoAvatarOption> = async (c) => {
  const { repo } = need(c.repo, 'repo');
  await setRepoAvatar(c.config, repo, decodeAvatar(c.body.image));
  await c.em.flush();
  return noContent();
};

export const remove: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  await clearRepoAvatar(c.config, repo);
  await c.em.flush();
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `repoAvatar.<key>`. */
export const handlers = {
  create,
  remove,
} satisfies Record<string, Handler<never, never>>;
