// Generated from Forgejo's swagger (definitions section) and hand-checked; see index.ts for the conventions.
// Users, emails, keys, tokens, OAuth2 applications and admin user options.
//
// Conventions: request types (…Option/…Options/…Form) carry Forgejo's Go binding rules as
// `x-binding` + constraint; response types accept `null` for object refs, arrays, maps and date-times.
// `date-time`/`email` formats are kept as `x-format` annotations (never validated).
import { Type, type Static } from 'typebox';
import { INT32, PATTERN_EMAIL, PATTERN_URL_OR_EMPTY, PATTERN_USERNAME, RepositoryMeta } from './common.ts';

export const AccessToken = Type.Object(
  {
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    repositories: Type.Optional(
      Type.Union([Type.Array(RepositoryMeta), Type.Null()], {
        description:
          'Indicates that an access token only has access to the specified repositories.  Will be null if the access token\nis not limited to a set of specified repositories.',
        'x-go-name': 'Repositories',
      }),
    ),
    scopes: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'Scopes' })),
    sha1: Type.Optional(Type.String({ 'x-go-name': 'Token' })),
    token_last_eight: Type.Optional(Type.String({ 'x-go-name': 'TokenLastEight' })),
  },
  { $id: 'AccessToken', title: 'AccessToken represents an API access token.' },
);
export type AccessToken = Static<typeof AccessToken>;

export const BlockedUser = Type.Object(
  {
    block_id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'BlockID' })),
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
  },
  { $id: 'BlockedUser', title: 'BlockedUser represents a blocked user.' },
);
export type BlockedUser = Static<typeof BlockedUser>;

export const RepoTargetOption = Type.Object(
  {
    owner: Type.String({ description: 'Name of user or organisation that owns the repository', 'x-go-name': 'Owner' }),
    name: Type.String({ description: 'Name of repository', 'x-go-name': 'Name' }),
  },
  { $id: 'RepoTargetOption' },
);
export type RepoTargetOption = Static<typeof RepoTargetOption>;

export const CreateAccessTokenOption = Type.Object(
  {
    name: Type.String({ maxLength: 255, 'x-go-name': 'Name' }),
    scopes: Type.Optional(
      Type.Array(Type.String(), {
        'x-go-name': 'Scopes',
        example: [
          'all',
          'read:activitypub',
          'read:issue',
          'write:misc',
          'read:notification',
          'read:organization',
          'read:package',
          'read:repository',
          'read:user',
        ],
      }),
    ),
    repositories: Type.Optional(
      Type.Array(RepoTargetOption, {
        description: 'If provided and not-empty, creates an access token with access only to specified repositories.',
        'x-go-name': 'Repositories',
      }),
    ),
  },
  { $id: 'CreateAccessTokenOption', description: 'CreateAccessTokenOption options when create access token' },
);
export type CreateAccessTokenOption = Static<typeof CreateAccessTokenOption>;

export const CreateEmailOption = Type.Object(
  {
    emails: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { description: 'email addresses to add', 'x-go-name': 'Emails' })),
  },
  { $id: 'CreateEmailOption', description: 'CreateEmailOption options when creating email addresses' },
);
export type CreateEmailOption = Static<typeof CreateEmailOption>;

export const CreateGPGKeyOption = Type.Object(
  {
    armored_public_key: Type.String({ description: 'An armored GPG key to add', 'x-go-name': 'ArmoredKey' }),
    armored_signature: Type.Optional(Type.String({ 'x-go-name': 'Signature' })),
  },
  { $id: 'CreateGPGKeyOption', description: 'CreateGPGKeyOption options create user GPG key' },
);
export type CreateGPGKeyOption = Static<typeof CreateGPGKeyOption>;

export const CreateKeyOption = Type.Object(
  {
    title: Type.String({ maxLength: 255, description: 'Title of the key to add', 'x-go-name': 'Title' }),
    key: Type.String({ description: 'An armored SSH key to add', 'x-go-name': 'Key' }),
    read_only: Type.Optional(
      Type.Boolean({ description: 'Describe if the key has only read access or read/write', 'x-go-name': 'ReadOnly' }),
    ),
  },
  { $id: 'CreateKeyOption', description: 'CreateKeyOption options when creating a key' },
);
export type CreateKeyOption = Static<typeof CreateKeyOption>;

export const CreateOAuth2ApplicationOptions = Type.Object(
  {
    confidential_client: Type.Optional(Type.Boolean({ 'x-go-name': 'ConfidentialClient' })),
    name: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'Name' })),
    redirect_uris: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'RedirectURIs' })),
  },
  { $id: 'CreateOAuth2ApplicationOptions', description: 'CreateOAuth2ApplicationOptions holds options to create an oauth2 application' },
);
export type CreateOAuth2ApplicationOptions = Static<typeof CreateOAuth2ApplicationOptions>;

export const CreateUserOption = Type.Object(
  {
    source_id: Type.Optional(Type.Integer({ ...INT32, format: 'int64', 'x-go-name': 'SourceID' })),
    login_name: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'LoginName' })),
    username: Type.String({ 'x-go-name': 'Username', pattern: PATTERN_USERNAME, 'x-binding': 'Username', maxLength: 40 }),
    full_name: Type.Optional(Type.String({ 'x-go-name': 'FullName', maxLength: 100 })),
    email: Type.String({ 'x-format': 'email', 'x-go-name': 'Email', pattern: PATTERN_EMAIL, 'x-binding': 'Email', maxLength: 254 }),
    password: Type.Optional(Type.String({ 'x-go-name': 'Password', maxLength: 255 })),
    must_change_password: Type.Optional(Type.Boolean({ 'x-go-name': 'MustChangePassword' })),
    send_notify: Type.Optional(Type.Boolean({ 'x-go-name': 'SendNotify' })),
    restricted: Type.Optional(Type.Boolean({ 'x-go-name': 'Restricted' })),
    visibility: Type.Optional(
      Type.Union([Type.Literal(''), Type.Literal('public'), Type.Literal('limited'), Type.Literal('private')], {
        'x-go-name': 'Visibility',
      }),
    ),
    created_at: Type.Optional(
      Type.String({
        'x-format': 'date-time',
        description:
          'For explicitly setting the user creation timestamp. Useful when users are\nmigrated from other systems. When omitted, the user\'s creation timestamp\nwill be set to "now".',
        'x-go-name': 'Created',
      }),
    ),
  },
  { $id: 'CreateUserOption', description: 'CreateUserOption create user options' },
);
export type CreateUserOption = Static<typeof CreateUserOption>;

export const DeleteEmailOption = Type.Object(
  {
    emails: Type.Optional(Type.Array(Type.String(), { description: 'email addresses to delete', 'x-go-name': 'Emails' })),
  },
  { $id: 'DeleteEmailOption', description: 'DeleteEmailOption options when deleting email addresses' },
);
export type DeleteEmailOption = Static<typeof DeleteEmailOption>;

export const EditUserOption = Type.Object(
  {
    source_id: Type.Optional(Type.Integer({ ...INT32, format: 'int64', 'x-go-name': 'SourceID' })),
    login_name: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'LoginName' })),
    email: Type.Optional(
      Type.String({ 'x-format': 'email', 'x-go-name': 'Email', pattern: PATTERN_EMAIL, 'x-binding': 'Email', maxLength: 254 }),
    ),
    full_name: Type.Optional(Type.String({ 'x-go-name': 'FullName', maxLength: 100 })),
    password: Type.Optional(Type.String({ 'x-go-name': 'Password', maxLength: 255 })),
    must_change_password: Type.Optional(Type.Boolean({ 'x-go-name': 'MustChangePassword' })),
    website: Type.Optional(Type.String({ 'x-go-name': 'Website', pattern: PATTERN_URL_OR_EMPTY, 'x-binding': 'Url', maxLength: 255 })),
    location: Type.Optional(Type.String({ 'x-go-name': 'Location', maxLength: 50 })),
    pronouns: Type.Optional(Type.String({ 'x-go-name': 'Pronouns', maxLength: 50 })),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description', maxLength: 255 })),
    active: Type.Optional(Type.Boolean({ 'x-go-name': 'Active' })),
    admin: Type.Optional(Type.Boolean({ 'x-go-name': 'Admin' })),
    allow_create_organization: Type.Optional(Type.Boolean({ 'x-go-name': 'AllowCreateOrganization' })),
    allow_git_hook: Type.Optional(Type.Boolean({ 'x-go-name': 'AllowGitHook' })),
    allow_import_local: Type.Optional(Type.Boolean({ 'x-go-name': 'AllowImportLocal' })),
    hide_email: Type.Optional(Type.Boolean({ 'x-go-name': 'HideEmail' })),
    max_repo_creation: Type.Optional(Type.Integer({ ...INT32, format: 'int64', 'x-go-name': 'MaxRepoCreation' })),
    prohibit_login: Type.Optional(Type.Boolean({ 'x-go-name': 'ProhibitLogin' })),
    restricted: Type.Optional(Type.Boolean({ 'x-go-name': 'Restricted' })),
    visibility: Type.Optional(
      Type.Union([Type.Literal(''), Type.Literal('public'), Type.Literal('limited'), Type.Literal('private')], {
        'x-go-name': 'Visibility',
      }),
    ),
  },
  { $id: 'EditUserOption', description: 'EditUserOption edit user options' },
);
export type EditUserOption = Static<typeof EditUserOption>;

export const Email = Type.Object(
  {
    email: Type.Optional(Type.String({ 'x-format': 'email', 'x-go-name': 'Email' })),
    primary: Type.Optional(Type.Boolean({ 'x-go-name': 'Primary' })),
    user_id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'UserID' })),
    username: Type.Optional(Type.String({ 'x-go-name': 'UserName' })),
    verified: Type.Optional(Type.Boolean({ 'x-go-name': 'Verified' })),
  },
  { $id: 'Email', description: 'Email an email address belonging to a user' },
);
export type Email = Static<typeof Email>;

export const GPGKeyEmail = Type.Object(
  {
    email: Type.Optional(Type.String({ 'x-go-name': 'Email' })),
    verified: Type.Optional(Type.Boolean({ 'x-go-name': 'Verified' })),
  },
  { $id: 'GPGKeyEmail', description: 'GPGKeyEmail an email attached to a GPGKey' },
);
export type GPGKeyEmail = Static<typeof GPGKeyEmail>;

const GPGKeyFields = {
  can_certify: Type.Optional(Type.Boolean({ 'x-go-name': 'CanCertify' })),
  can_encrypt_comms: Type.Optional(Type.Boolean({ 'x-go-name': 'CanEncryptComms' })),
  can_encrypt_storage: Type.Optional(Type.Boolean({ 'x-go-name': 'CanEncryptStorage' })),
  can_sign: Type.Optional(Type.Boolean({ 'x-go-name': 'CanSign' })),
  created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
  emails: Type.Optional(Type.Union([Type.Array(GPGKeyEmail), Type.Null()], { 'x-go-name': 'Emails' })),
  expires_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Expires' })),
  id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
  key_id: Type.Optional(Type.String({ 'x-go-name': 'KeyID' })),
  primary_key_id: Type.Optional(Type.String({ 'x-go-name': 'PrimaryKeyID' })),
  public_key: Type.Optional(Type.String({ 'x-go-name': 'PublicKey' })),
  verified: Type.Optional(Type.Boolean({ 'x-go-name': 'Verified' })),
};
/** GPGKey as embedded in another GPGKey (`subkeys`): Forgejo fills the self-reference only one level deep, so the cycle is unrolled once and the nested `subkeys` is left unchecked. */
const GPGKeyNested = Type.Object(
  {
    ...GPGKeyFields,
    subkeys: Type.Optional(Type.Unknown({ 'x-go-name': 'SubsKey' })),
  },
  { description: 'GPGKey a user GPG key to sign commit and tag in repository (nested)' },
);
export const GPGKey = Type.Object(
  {
    ...GPGKeyFields,
    subkeys: Type.Optional(Type.Union([Type.Array(GPGKeyNested), Type.Null()], { 'x-go-name': 'SubsKey' })),
  },
  { $id: 'GPGKey', description: 'GPGKey a user GPG key to sign commit and tag in repository' },
);
export type GPGKey = Static<typeof GPGKey>;

export const Identity = Type.Object(
  {
    email: Type.Optional(Type.String({ 'x-format': 'email', 'x-go-name': 'Email' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
  },
  { $id: 'Identity', description: "Identity for a person's identity like an author or committer" },
);
export type Identity = Static<typeof Identity>;

export const OAuth2Application = Type.Object(
  {
    client_id: Type.Optional(Type.String({ 'x-go-name': 'ClientID' })),
    client_secret: Type.Optional(Type.String({ 'x-go-name': 'ClientSecret' })),
    confidential_client: Type.Optional(Type.Boolean({ 'x-go-name': 'ConfidentialClient' })),
    created: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    redirect_uris: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'RedirectURIs' })),
  },
  { $id: 'OAuth2Application', title: 'OAuth2Application represents an OAuth2 application.' },
);
export type OAuth2Application = Static<typeof OAuth2Application>;

export const User = Type.Object(
  {
    active: Type.Optional(Type.Boolean({ description: 'Is user active', 'x-go-name': 'IsActive' })),
    avatar_url: Type.Optional(Type.String({ description: "URL to the user's avatar", 'x-go-name': 'AvatarURL' })),
    created: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    description: Type.Optional(Type.String({ description: "the user's description", 'x-go-name': 'Description' })),
    email: Type.Optional(Type.String({ 'x-format': 'email', 'x-go-name': 'Email' })),
    followers_count: Type.Optional(Type.Integer({ format: 'int64', description: 'user counts', 'x-go-name': 'Followers' })),
    following_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Following' })),
    full_name: Type.Optional(Type.String({ description: "the user's full name", 'x-go-name': 'FullName' })),
    html_url: Type.Optional(Type.String({ description: "URL to the user's profile page", 'x-go-name': 'HTMLURL' })),
    id: Type.Optional(Type.Integer({ format: 'int64', description: "the user's id", 'x-go-name': 'ID' })),
    is_admin: Type.Optional(Type.Boolean({ description: 'Is the user an administrator', 'x-go-name': 'IsAdmin' })),
    language: Type.Optional(Type.String({ description: 'User locale', 'x-go-name': 'Language' })),
    last_login: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'LastLogin' })),
    location: Type.Optional(Type.String({ description: "the user's location", 'x-go-name': 'Location' })),
    login: Type.Optional(Type.String({ description: "the user's username", 'x-go-name': 'UserName' })),
    login_name: Type.Optional(
      Type.String({ description: "the user's authentication sign-in name.", 'x-go-name': 'LoginName', default: 'empty' }),
    ),
    prohibit_login: Type.Optional(Type.Boolean({ description: 'Is user login prohibited', 'x-go-name': 'ProhibitLogin' })),
    pronouns: Type.Optional(Type.String({ description: "the user's pronouns", 'x-go-name': 'Pronouns' })),
    restricted: Type.Optional(Type.Boolean({ description: 'Is user restricted', 'x-go-name': 'Restricted' })),
    source_id: Type.Optional(
      Type.Integer({ format: 'int64', description: "The ID of the user's Authentication Source", 'x-go-name': 'SourceID' }),
    ),
    starred_repos_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'StarredRepos' })),
    visibility: Type.Optional(
      Type.String({ description: 'User visibility level option: public, limited, private', 'x-go-name': 'Visibility' }),
    ),
    website: Type.Optional(Type.String({ description: "the user's website", 'x-go-name': 'Website' })),
  },
  { $id: 'User', description: 'User represents a user' },
);
export type User = Static<typeof User>;

export const PublicKey = Type.Object(
  {
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    fingerprint: Type.Optional(Type.String({ 'x-go-name': 'Fingerprint' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    key: Type.Optional(Type.String({ 'x-go-name': 'Key' })),
    key_type: Type.Optional(Type.String({ 'x-go-name': 'KeyType' })),
    read_only: Type.Optional(Type.Boolean({ 'x-go-name': 'ReadOnly' })),
    title: Type.Optional(Type.String({ 'x-go-name': 'Title' })),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Updated' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
    user: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'User' })),
    verified: Type.Optional(Type.Boolean({ 'x-go-name': 'Verified' })),
  },
  { $id: 'PublicKey', description: 'PublicKey publickey is a user key to push code to repository' },
);
export type PublicKey = Static<typeof PublicKey>;

export const RenameUserOption = Type.Object(
  {
    new_username: Type.String({
      maxLength: 40,
      description: 'New username for this user. This name cannot be in use yet by any other user.',
      'x-go-name': 'NewName',
    }),
  },
  { $id: 'RenameUserOption', description: 'RenameUserOption options when renaming a user' },
);
export type RenameUserOption = Static<typeof RenameUserOption>;

export const StopWatch = Type.Object(
  {
    created: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    duration: Type.Optional(Type.String({ 'x-go-name': 'Duration' })),
    issue_index: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'IssueIndex' })),
    issue_title: Type.Optional(Type.String({ 'x-go-name': 'IssueTitle' })),
    repo_name: Type.Optional(Type.String({ 'x-go-name': 'RepoName' })),
    repo_owner_name: Type.Optional(Type.String({ 'x-go-name': 'RepoOwnerName' })),
    seconds: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Seconds' })),
  },
  { $id: 'StopWatch', description: 'StopWatch represent a running stopwatch' },
);
export type StopWatch = Static<typeof StopWatch>;

export const UpdateUserAvatarOption = Type.Object(
  {
    // Go binding: Required
    image: Type.String({ description: 'image must be base64 encoded', 'x-go-name': 'Image' }),
  },
  { $id: 'UpdateUserAvatarOption', description: 'UpdateUserAvatarUserOption options when updating the user avatar' },
);
export type UpdateUserAvatarOption = Static<typeof UpdateUserAvatarOption>;

export const UserSettings = Type.Object(
  {
    description: Type.Optional(Type.String({ 'x-go-name': 'Description' })),
    diff_view_style: Type.Optional(Type.String({ 'x-go-name': 'DiffViewStyle' })),
    enable_repo_unit_hints: Type.Optional(Type.Boolean({ 'x-go-name': 'EnableRepoUnitHints' })),
    full_name: Type.Optional(Type.String({ 'x-go-name': 'FullName' })),
    hide_activity: Type.Optional(Type.Boolean({ 'x-go-name': 'HideActivity' })),
    hide_email: Type.Optional(Type.Boolean({ description: 'Privacy', 'x-go-name': 'HideEmail' })),
    hide_pronouns: Type.Optional(Type.Boolean({ 'x-go-name': 'HidePronouns' })),
    language: Type.Optional(Type.String({ 'x-go-name': 'Language' })),
    location: Type.Optional(Type.String({ 'x-go-name': 'Location' })),
    pronouns: Type.Optional(Type.String({ 'x-go-name': 'Pronouns' })),
    theme: Type.Optional(Type.String({ 'x-go-name': 'Theme' })),
    website: Type.Optional(Type.String({ 'x-go-name': 'Website' })),
  },
  { $id: 'UserSettings', description: 'UserSettings represents user settings' },
);
export type UserSettings = Static<typeof UserSettings>;

export const UserSettingsOptions = Type.Object(
  {
    full_name: Type.Optional(Type.String({ 'x-go-name': 'FullName', maxLength: 100 })),
    website: Type.Optional(Type.String({ 'x-go-name': 'Website', pattern: PATTERN_URL_OR_EMPTY, 'x-binding': 'Url', maxLength: 255 })),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description', maxLength: 255 })),
    location: Type.Optional(Type.String({ 'x-go-name': 'Location', maxLength: 50 })),
    pronouns: Type.Optional(Type.String({ 'x-go-name': 'Pronouns', maxLength: 50 })),
    language: Type.Optional(Type.String({ maxLength: 16, 'x-go-name': 'Language' })),
    theme: Type.Optional(Type.String({ maxLength: 64, 'x-go-name': 'Theme' })),
    diff_view_style: Type.Optional(Type.String({ maxLength: 32, 'x-go-name': 'DiffViewStyle' })),
    enable_repo_unit_hints: Type.Optional(Type.Boolean({ 'x-go-name': 'EnableRepoUnitHints' })),
    hide_activity: Type.Optional(Type.Boolean({ 'x-go-name': 'HideActivity' })),
    hide_email: Type.Optional(Type.Boolean({ description: 'Privacy', 'x-go-name': 'HideEmail' })),
    hide_pronouns: Type.Optional(Type.Boolean({ 'x-go-name': 'HidePronouns' })),
  },
  { $id: 'UserSettingsOptions', description: 'UserSettingsOptions represents options to change user settings' },
);
export type UserSettingsOptions = Static<typeof UserSettingsOptions>;

export const VerifyGPGKeyOption = Type.Object(
  {
    key_id: Type.String({ description: 'An Signature for a GPG key token', 'x-go-name': 'KeyID' }),
    armored_signature: Type.Optional(Type.String({ 'x-go-name': 'Signature' })),
  },
  { $id: 'VerifyGPGKeyOption', description: 'VerifyGPGKeyOption options verifies user GPG key' },
);
export type VerifyGPGKeyOption = Static<typeof VerifyGPGKeyOption>;
