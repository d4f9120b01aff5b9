// api.Activity wire shape (Forgejo's convert.ToActivity): the activity row with its actor, its
// repository as the caller sees it, and its comment when the row names one that still exists.
import type { Config } from '../../../config.ts';
import { opName, type IAction } from '../../../model/action.ts';
import type { IUser } from '../../../model/user.ts';
import { toApiUser, type Viewer } from '../../users/index.ts';
import type { ApiRepo } from '../../repos/index.ts';
import type { ApiComment } from '../../issues/index.ts';
import type { Activity, Wire } from '../../../model/schemas/index.ts';

/** `op_type` of a row whose type Forgejo does not name reads `action-<n>`, as its ActionType.String() does. */
export type ApiActivity = Omit<Wire<Activity>, 'op_type'> & { op_type: NonNullable<Activity['op_type']> | `action-${number}` };
import { fmtTime } from '../../../model/time.ts';

export interface ActivityParts {
  actUser: IUser;
  /** api.Repository, converted by the caller (it needs the caller's permission). */
  repo: ApiRepo;
  /** Whether the repository is private now (lib/activity/feeds.ts reads visibility from the repository). */
  isPrivate: boolean;
  /** api.Comment, when the activity names a comment that still exists. */
  comment: ApiComment | null;
}

export function toApiActivity(cfg: Config, viewer: Viewer, a: IAction, parts: ActivityParts): ApiActivity {
  return {
    id: a.id,
    user_id: a.userId,
    op_type: opName(a.opType) ?? `action-${a.opType}`,
    act_user_id: a.actUserId,
    act_user: toApiUser(cfg, parts.actUser, viewer),
    repo_id: a.repoId,
    repo: parts.repo,
    // Forgejo sets comment_id only together with a loaded comment.
    comment_id: parts.comment ? a.commentId : 0,
    comment: parts.comment,
    ref_name: a.refName,
    is_private: parts.isPrivate,
    content: a.content,
    created: fmtTime(a.createdAt),
  };
}
