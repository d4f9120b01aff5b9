// api.WatchInfo wire shape, for repositories (routers/api/v1/repo/subscriber.go) and issues
// (repo/issue_subscription.go): Forgejo reports the subject's creation time as `created_at`.
import { fmtTime } from '../../../model/time.ts';
import type { WatchInfo, Wire } from '../../../model/schemas/index.ts';

export type ApiWatchInfo = Wire<WatchInfo>;

/** `url` is the subscription's API URL, `repositoryUrl` the repository's. */
export function toApiWatchInfo(subscribed: boolean, createdAt: Date, url: string, repositoryUrl: string): ApiWatchInfo {
  return { subscribed, ignored: !subscribed, reason: null, created_at: fmtTime(createdAt), url, repository_url: repositoryUrl };
}
