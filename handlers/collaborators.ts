// Repository collaborators (forgejo-facts 8.3): add at write unless told otherwise, remove.
import type { Handler } from '../lib/handler.ts';
import { noContent } from '../lib/handler.ts';
import type { AddCollaboratorOption } from '../model/schemas/index.ts';
import { Collaboration } from '../model/repo.ts';
import { User } from '../model/user.ts';
import { Mode, parseMode } from '../lib/perm.ts';
import { unprocessable } from '../lib/errors.ts';
import { need, type RequestState } from '../guards/types.ts';

async function collaborator(s: RequestState) {
  const name = s.params.collaborator ?? '';
  const user = await s.em.findOne(User, { lowerName: name.toLowerCase(), type: 0 });
  if (!user) throw unprocessable(`user does not exist [name: ${name}]`);
  return user;
}

export const put: Handler<AddCollaboratorOption> = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const user = await collaborator(c);
  if (user.id === repo.ownerId) throw unprocessable('the repository owner cannot be added as a collaborator');
  if (!user.isActive) throw unprocessable(`user is not active [name: ${user.name}]`);
  const requested = parseMode(c.body.permission);
  const mode = requested >= Mode.read && requested <= Mode.admin ? requested : null;
  const existing = await c.em.findOne(Collaboration, { repoId: repo.id, userId: user.id });
  if (existing) { if (mode !== null) existing.mode = mode; }
  else c.em.create(Collaboration, { repoId: repo.id, userId: user.id, mode: mode ?? Mode.write });
  await c.em.flush();
  return noContent();
};

export const remove: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const user = await collaborator(c);
  await c.em.nativeDelete(Collaboration, { repoId: repo.id, userId: user.id });
  return noContent();
};
