// The signed-in user's settings and avatar (Forgejo's routers/api/v1/user/settings.go, avatar.go).
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { UpdateUserAvatarOption, UserSettingsOptions } from '../model/schemas/index.ts';
import { toApiUserSettings } from '../lib/users/api/account.ts';
import { decodeAvatar, deleteAvatar, storeAvatar } from '../lib/users/avatar-store.ts';
import type { IUser } from '../model/user.ts';
import type { Plain } from '../model/raw.ts';

const settingsJson = toApiUserSettings;

/**
 * The caller, to change. These rows are writes that do not read their context plain, so the caller is
 * the managed entity (lib/auth/auth.ts reads it with the ORM for them) or the Actions pseudo-user,
 * which no flush writes: mutable for that reason alone.
 */
const changeable = (doer: Plain<IUser>): IUser => doer;

export const get = signedIn(async (c) => json(200, settingsJson(c.auth.doer)));

/** Only the fields the body carries change. */
export const edit = signedIn<UserSettingsOptions>(async (c) => {
  const u = changeable(c.auth.doer);
  const b = c.body;
  if (b.full_name !== undefined) u.fullName = b.full_name;
  if (b.website !== undefined) u.website = b.website;
  if (b.description !== undefined) u.description = b.description;
  if (b.location !== undefined) u.location = b.location;
  if (b.pronouns !== undefined) u.pronouns = b.pronouns;
  if (b.language !== undefined) u.language = b.language;
  if (b.theme !== undefined) u.theme = b.theme;
  if (b.diff_view_style !== undefined) u.diffViewStyle = b.diff_view_style;
  if (b.hide_email !== undefined) u.keepEmailPrivate = b.hide_email;
  if (b.hide_pronouns !== undefined) u.hidePronouns = b.hide_pronouns;
  if (b.hide_activity !== undefined) u.hideActivity = b.hide_activity;
  if (b.enable_repo_unit_hints !== undefined) u.enableRepoUnitHints = b.enable_repo_unit_hints;
  await c.em.flush();
  return json(200, settingsJson(u));
});

/** The old image file goes once the new one is recorded. */
export const updateAvatar = signedIn<UpdateUserAvatarOption>(async (c) => {
  const u = changeable(c.auth.doer);
  const data = decodeAvatar(c.body.image);
  const old = u.avatar;
  u.avatar = await storeAvatar(c.config, u.id, data);
  await c.em.flush();
  if (old && old !== u.avatar) await deleteAvatar(c.config, old);
  return noContent();
});

/** Back to the generated default avatar. */
export const removeAvatar = signedIn(async (c) => {
  const u = changeable(c.auth.doer);
  const old = u.avatar;
  u.avatar = '';
  await c.em.flush();
  if (old) await deleteAvatar(c.config, old);
  return noContent();
});

/** This family's handlers; `routes.table.ts` names each `userSettings.<key>`. */
export const handlers = {
  get,
  edit,
  updateAvatar,
  removeAvatar,
} satisfies Record<string, Handler<never, never>>;
