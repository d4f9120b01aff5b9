// Generated from Forgejo's swagger (definitions section) and hand-checked; see index.ts for the conventions.
// Organizations and teams.
//
// Conventions: request types (…Option/…Options/…Form) carry Forgejo's Go binding rules as
// `x-binding` + constraint; response types accept `null` for object refs, arrays, maps and date-times.
// `date-time`/`email` formats are kept as `x-format` annotations (never validated).
import { Type, type Static } from 'typebox';
import {
  PATTERN_ALPHA_DASH_DOT,
  PATTERN_ALPHA_DASH_DOT_OR_EMPTY,
  PATTERN_EMAIL_OR_EMPTY,
  PATTERN_URL_OR_EMPTY,
  PATTERN_USERNAME,
} from './common.ts';

export const CreateOrgOption = Type.Object(
  {
    username: Type.String({ 'x-go-name': 'UserName', pattern: PATTERN_USERNAME, 'x-binding': 'Username', maxLength: 40 }),
    full_name: Type.Optional(Type.String({ 'x-go-name': 'FullName', maxLength: 100 })),
    email: Type.Optional(Type.String({ 'x-go-name': 'Email', pattern: PATTERN_EMAIL_OR_EMPTY, 'x-binding': 'Email', maxLength: 255 })),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description', maxLength: 255 })),
    website: Type.Optional(Type.String({ 'x-go-name': 'Website', pattern: PATTERN_URL_OR_EMPTY, 'x-binding': 'Url', maxLength: 255 })),
    location: Type.Optional(Type.String({ 'x-go-name': 'Location', maxLength: 50 })),
    visibility: Type.Optional(
      Type.Union([Type.Literal(''), Type.Literal('public'), Type.Literal('limited'), Type.Literal('private')], {
        description: 'possible values are `public` (default), `limited` or `private`',
        'x-go-name': 'Visibility',
      }),
    ),
    repo_admin_change_team_access: Type.Optional(Type.Boolean({ 'x-go-name': 'RepoAdminChangeTeamAccess' })),
  },
  { $id: 'CreateOrgOption', description: 'CreateOrgOption options for creating an organization' },
);
export type CreateOrgOption = Static<typeof CreateOrgOption>;

export const CreateTeamOption = Type.Object(
  {
    name: Type.String({ 'x-go-name': 'Name', pattern: PATTERN_ALPHA_DASH_DOT, 'x-binding': 'AlphaDashDot', maxLength: 255 }),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description', maxLength: 255 })),
    includes_all_repositories: Type.Optional(Type.Boolean({ 'x-go-name': 'IncludesAllRepositories' })),
    permission: Type.Optional(
      Type.Union([Type.Literal(''), Type.Literal('read'), Type.Literal('write'), Type.Literal('admin')], { 'x-go-name': 'Permission' }),
    ),
    units: Type.Optional(
      Type.Array(Type.String(), {
        'x-go-name': 'Units',
        example: [
          'repo.actions',
          'repo.code',
          'repo.issues',
          'repo.ext_issues',
          'repo.wiki',
          'repo.ext_wiki',
          'repo.pulls',
          'repo.releases',
          'repo.projects',
          'repo.ext_wiki',
        ],
      }),
    ),
    units_map: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        'x-go-name': 'UnitsMap',
        example: {
          'repo.actions': 'none',
          'repo.code': 'read',
          'repo.ext_issues': 'none',
          'repo.ext_wiki': 'none',
          'repo.issues': 'write',
          'repo.packages': 'none',
          'repo.projects': 'none',
          'repo.pulls': 'owner',
          'repo.releases': 'none',
          'repo.wiki': 'admin',
        },
      }),
    ),
    can_create_org_repo: Type.Optional(Type.Boolean({ 'x-go-name': 'CanCreateOrgRepo' })),
  },
  { $id: 'CreateTeamOption', description: 'CreateTeamOption options for creating a team' },
);
export type CreateTeamOption = Static<typeof CreateTeamOption>;

export const EditOrgOption = Type.Object(
  {
    full_name: Type.Optional(Type.String({ 'x-go-name': 'FullName', maxLength: 100 })),
    email: Type.Optional(Type.String({ 'x-go-name': 'Email', pattern: PATTERN_EMAIL_OR_EMPTY, 'x-binding': 'Email', maxLength: 255 })),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description', maxLength: 255 })),
    website: Type.Optional(Type.String({ 'x-go-name': 'Website', pattern: PATTERN_URL_OR_EMPTY, 'x-binding': 'Url', maxLength: 255 })),
    location: Type.Optional(Type.String({ 'x-go-name': 'Location', maxLength: 50 })),
    visibility: Type.Optional(
      Type.Union([Type.Literal(''), Type.Literal('public'), Type.Literal('limited'), Type.Literal('private')], {
        description: 'possible values are `public`, `limited` or `private`',
        'x-go-name': 'Visibility',
      }),
    ),
    repo_admin_change_team_access: Type.Optional(Type.Boolean({ 'x-go-name': 'RepoAdminChangeTeamAccess' })),
  },
  { $id: 'EditOrgOption', description: 'EditOrgOption options for editing an organization' },
);
export type EditOrgOption = Static<typeof EditOrgOption>;

export const EditTeamOption = Type.Object(
  {
    // swagger marks it required, but the Go binding is `AlphaDashDot;MaxSize(255)` (no Required)
    name: Type.Optional(
      Type.String({ 'x-go-name': 'Name', pattern: PATTERN_ALPHA_DASH_DOT_OR_EMPTY, 'x-binding': 'AlphaDashDot', maxLength: 255 }),
    ),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description', maxLength: 255 })),
    includes_all_repositories: Type.Optional(Type.Boolean({ 'x-go-name': 'IncludesAllRepositories' })),
    permission: Type.Optional(
      Type.Union([Type.Literal(''), Type.Literal('read'), Type.Literal('write'), Type.Literal('admin')], { 'x-go-name': 'Permission' }),
    ),
    units: Type.Optional(
      Type.Array(Type.String(), {
        'x-go-name': 'Units',
        example: [
          'repo.code',
          'repo.issues',
          'repo.ext_issues',
          'repo.wiki',
          'repo.pulls',
          'repo.releases',
          'repo.projects',
          'repo.ext_wiki',
        ],
      }),
    ),
    units_map: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        'x-go-name': 'UnitsMap',
        example: {
          'repo.actions': 'none',
          'repo.code': 'read',
          'repo.ext_issues': 'none',
          'repo.ext_wiki': 'none',
          'repo.issues': 'write',
          'repo.packages': 'none',
          'repo.projects': 'none',
          'repo.pulls': 'owner',
          'repo.releases': 'none',
          'repo.wiki': 'admin',
        },
      }),
    ),
    can_create_org_repo: Type.Optional(Type.Boolean({ 'x-go-name': 'CanCreateOrgRepo' })),
  },
  { $id: 'EditTeamOption', description: 'EditTeamOption options for editing a team' },
);
export type EditTeamOption = Static<typeof EditTeamOption>;

export const Organization = Type.Object(
  {
    avatar_url: Type.Optional(Type.String({ 'x-go-name': 'AvatarURL' })),
    created: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description' })),
    email: Type.Optional(Type.String({ 'x-go-name': 'Email' })),
    full_name: Type.Optional(Type.String({ 'x-go-name': 'FullName' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    location: Type.Optional(Type.String({ 'x-go-name': 'Location' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    repo_admin_change_team_access: Type.Optional(Type.Boolean({ 'x-go-name': 'RepoAdminChangeTeamAccess' })),
    username: Type.Optional(Type.String({ description: 'deprecated', 'x-go-name': 'UserName' })),
    visibility: Type.Optional(Type.String({ 'x-go-name': 'Visibility' })),
    website: Type.Optional(Type.String({ 'x-go-name': 'Website' })),
  },
  { $id: 'Organization', description: 'Organization represents an organization' },
);
export type Organization = Static<typeof Organization>;

export const OrganizationPermissions = Type.Object(
  {
    can_create_repository: Type.Optional(Type.Boolean({ 'x-go-name': 'CanCreateRepository' })),
    can_read: Type.Optional(Type.Boolean({ 'x-go-name': 'CanRead' })),
    can_write: Type.Optional(Type.Boolean({ 'x-go-name': 'CanWrite' })),
    is_admin: Type.Optional(Type.Boolean({ 'x-go-name': 'IsAdmin' })),
    is_owner: Type.Optional(Type.Boolean({ 'x-go-name': 'IsOwner' })),
  },
  { $id: 'OrganizationPermissions', description: 'OrganizationPermissions list different users permissions on an organization' },
);
export type OrganizationPermissions = Static<typeof OrganizationPermissions>;

export const RenameOrgOption = Type.Object(
  {
    new_name: Type.String({
      maxLength: 40,
      description: 'New username for this org. This name cannot be in use yet by any other user.',
      'x-go-name': 'NewName',
    }),
  },
  { $id: 'RenameOrgOption', description: 'RenameOrgOption options when renaming an organization' },
);
export type RenameOrgOption = Static<typeof RenameOrgOption>;

export const Team = Type.Object(
  {
    can_create_org_repo: Type.Optional(Type.Boolean({ 'x-go-name': 'CanCreateOrgRepo' })),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    includes_all_repositories: Type.Optional(Type.Boolean({ 'x-go-name': 'IncludesAllRepositories' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    organization: Type.Optional(Type.Union([Organization, Type.Null()], { 'x-go-name': 'Organization' })),
    permission: Type.Optional(
      Type.Union([Type.Literal('none'), Type.Literal('read'), Type.Literal('write'), Type.Literal('admin'), Type.Literal('owner')], {
        'x-go-name': 'Permission',
      }),
    ),
    units: Type.Optional(
      Type.Union([Type.Array(Type.String()), Type.Null()], {
        'x-go-name': 'Units',
        example: [
          'repo.code',
          'repo.issues',
          'repo.ext_issues',
          'repo.wiki',
          'repo.pulls',
          'repo.releases',
          'repo.projects',
          'repo.ext_wiki',
        ],
      }),
    ),
    units_map: Type.Optional(
      Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], {
        'x-go-name': 'UnitsMap',
        example: {
          'repo.actions': 'none',
          'repo.code': 'read',
          'repo.ext_issues': 'none',
          'repo.ext_wiki': 'none',
          'repo.issues': 'write',
          'repo.packages': 'none',
          'repo.projects': 'none',
          'repo.pulls': 'owner',
          'repo.releases': 'none',
          'repo.wiki': 'admin',
        },
      }),
    ),
  },
  { $id: 'Team', description: 'Team represents a team in an organization' },
);
export type Team = Static<typeof Team>;
