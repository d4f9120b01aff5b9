// Wire shapes of a user's own account records: api.UserSettings (Forgejo's convert.User2UserSettings)
// and api.OAuth2Application (convert.ToOAuth2Application).
import type { IOAuth2Application } from '../../../model/oauth2.ts';
import type { IUser } from '../../../model/user.ts';
import { fmtTime } from '../../../model/time.ts';
import type { OAuth2Application, UserSettings, Wire } from '../../../model/schemas/index.ts';

export type ApiUserSettings = Wire<UserSettings>;
export type ApiOAuth2Application = Wire<OAuth2Application>;

export function toApiUserSettings(u: IUser): ApiUserSettings {
  return {
    full_name: u.fullName,
    website: u.website,
    description: u.description,
    location: u.location,
    pronouns: u.pronouns,
    language: u.language,
    theme: u.theme,
    diff_view_style: u.diffViewStyle,
    hide_email: u.keepEmailPrivate,
    hide_pronouns: u.hidePronouns,
    hide_activity: u.hideActivity,
    enable_repo_unit_hints: u.enableRepoUnitHints,
  };
}

/** `secret` is shown once, when it is created; otherwise it is empty. */
export function toApiOAuth2Application(a: IOAuth2Application, secret = ''): ApiOAuth2Application {
  return {
    id: a.id,
    name: a.name,
    client_id: a.clientId,
    client_secret: secret,
    confidential_client: a.confidentialClient,
    redirect_uris: a.redirectUris,
    created: fmtTime(a.createdAt),
  };
}
