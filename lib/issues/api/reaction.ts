// api.Reaction wire shape (Forgejo's routers/api/v1/repo/issue_reaction.go): the user, the
// reaction's name and its time.
import type { Config } from '../../../config.ts';
import type { IReaction } from '../../../model/issue.ts';
import type { IUser } from '../../../model/user.ts';
import { fmtTime } from '../../../model/time.ts';
import type { Reaction, Wire } from '../../../model/schemas/index.ts';
import { toApiUser, type Viewer } from '../../users/index.ts';
import { pseudoUser } from '../../auth/pseudo-users.ts';

export type ApiReaction = Wire<Reaction>;

/** `user`: the reacting user when it still exists (Ghost otherwise). */
export function toApiReaction(cfg: Config, viewer: Viewer, r: IReaction, user: IUser | undefined): ApiReaction {
  // Forgejo shows a migrated reaction under its original author's name, on a stand-in user.
  const u = r.originalAuthor
    ? { ...pseudoUser(-1), name: r.originalAuthor, lowerName: r.originalAuthor.toLowerCase() }
    : (user ?? pseudoUser(-1));
  return { user: toApiUser(cfg, u, viewer), content: r.type, created_at: fmtTime(r.createdAt) };
}
