// Miscellaneous routes: version, settings, the /swagger redirect.
import type { Handler } from '../lib/http/handler.ts';
import { json } from '../lib/http/handler.ts';
import { API_VERSION } from '../lib/runtime/version.ts';
import { listSetting } from '../config.ts';

export const version: Handler = async () => json(200, { version: API_VERSION });

/** forgejo-facts 5: `GET /swagger` redirects with 303 to AppSubURL/api/swagger. */
export const swagger: Handler = async (c) => ({ status: 303, headers: { Location: `${c.config.appSubUrl}/api/swagger` } });

export const settingsUi: Handler = async (c) =>
  json(200, {
    default_theme: 'forgejo-auto',
    allowed_reactions: listSetting(c.config.UI.REACTIONS),
    custom_emojis: ['git', 'gitea', 'codeberg', 'gitlab', 'github', 'gogs', 'forgejo'],
  });

export const settingsApi: Handler = async (c) =>
  json(200, {
    max_response_items: c.config.API.MAX_RESPONSE_ITEMS,
    default_paging_num: c.config.API.DEFAULT_PAGING_NUM,
    default_git_trees_per_page: c.config.API.DEFAULT_GIT_TREES_PER_PAGE,
    default_max_blob_size: c.config.API.DEFAULT_MAX_BLOB_SIZE,
  });

export const settingsAttachment: Handler = async (c) =>
  json(200, {
    enabled: c.config.ATTACHMENT.ENABLED,
    allowed_types: c.config.ATTACHMENT.ALLOWED_TYPES,
    max_size: c.config.ATTACHMENT.MAX_SIZE,
    max_files: c.config.ATTACHMENT.MAX_FILES,
  });

export const settingsRepository: Handler = async (c) =>
  json(200, {
    mirrors_disabled: c.config.REPOSITORY.DISABLE_MIRRORS,
    http_git_disabled: c.config.REPOSITORY.DISABLE_HTTP_GIT,
    migrations_disabled: c.config.REPOSITORY.DISABLE_MIGRATIONS,
    stars_disabled: c.config.REPOSITORY.DISABLE_STARS,
    forks_disabled: c.config.REPOSITORY.DISABLE_FORKS,
    time_tracking_disabled: false,
    lfs_disabled: !c.config.SERVER.LFS_START_SERVER,
  });

/** This family's handlers; `routes.table.ts` names each `misc.<key>`. */
export const handlers = {
  swagger,
  version,
  settingsUi,
  settingsApi,
  settingsAttachment,
  settingsRepository,
} satisfies Record<string, Handler<never, never>>;
