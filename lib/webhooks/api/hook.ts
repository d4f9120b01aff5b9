// api.Hook wire shape (Forgejo's convert.ToHook).
import type { Config } from '../../../config.ts';
import type { IWebhook } from '../../../model/webhook.ts';
import { fmtTime } from '../../../model/time.ts';
import type { Hook, Wire } from '../../../model/schemas/index.ts';
import { apiMetadata } from '../config.ts';
import { eventsArray } from '../webhooks.ts';

export type ApiHook = Wire<Hook>;

/**
 * api.Hook (Forgejo's ToHook). `config` keeps only url and content_type (plus the slack fields), and
 * `metadata` is the type's settings. The secret is never returned, and credentials are write-only
 * here: Forgejo returns the Authorization header decrypted and the telegram bot token and packagist
 * API token in `metadata`; cairn answers them empty so a stored credential never leaves the server
 * (a token the caller put in the hook's URL is the caller's choice, and the URL is shown as given).
 */
export function toApiHook(_cfg: Config, h: IWebhook): ApiHook {
  const config: Record<string, string> = { url: h.url, content_type: h.contentType };
  const metadata = apiMetadata(h.type, h.meta);
  if (h.type === 'slack' && metadata) for (const k of ['channel', 'username', 'icon_url', 'color']) config[k] = String(metadata[k] ?? '');
  return {
    id: h.id,
    type: h.type,
    branch_filter: h.events.branch_filter,
    url: h.url,
    config,
    events: eventsArray(h.events),
    authorization_header: '',
    content_type: h.contentType,
    metadata,
    active: h.isActive,
    updated_at: fmtTime(h.updatedAt),
    created_at: fmtTime(h.createdAt),
  };
}
