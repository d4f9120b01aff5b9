// Wire shape of a push mirror: api.PushMirror (Forgejo's convert.ToPushMirror). The public key is
// Forgejo's SSH push-mirror key, which cairn does not offer: always ''.
import type { IPushMirror } from '../../../model/mirror.ts';
import type { IRepository } from '../../../model/repo.ts';
import type { PushMirror, Wire } from '../../../model/schemas/index.ts';
import { formatDuration, parseDuration } from '../../../model/duration.ts';
import { fmtTime } from '../../../model/time.ts';

export type ApiPushMirror = Wire<PushMirror>;

export function toApiPushMirror(repo: Pick<IRepository, 'name'>, pm: IPushMirror): ApiPushMirror {
  return {
    repo_name: repo.name,
    remote_name: pm.remoteName,
    remote_address: pm.remoteAddress,
    created: fmtTime(pm.createdAt),
    last_update: pm.lastUpdate ? fmtTime(pm.lastUpdate) : null,
    last_error: pm.lastError,
    interval: formatDuration(parseDuration(pm.interval) ?? 0),
    sync_on_commit: pm.syncOnCommit,
    branch_filter: pm.branchFilter,
    public_key: '',
  };
}
