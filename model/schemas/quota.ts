// Generated from Forgejo's swagger (definitions section) and hand-checked; see index.ts for the conventions.
// Quota groups, rules and usage.
//
// Conventions: request types (…Option/…Options/…Form) carry Forgejo's Go binding rules as
// `x-binding` + constraint; response types accept `null` for object refs, arrays, maps and date-times.
// `date-time`/`email` formats are kept as `x-format` annotations (never validated).
import { Type, type Static } from 'typebox';
import { INT53 } from './common.ts';

export const CreateQuotaRuleOptions = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ ...INT53, format: 'int64', description: 'The limit set by the rule', 'x-go-name': 'Limit' })),
    name: Type.Optional(Type.String({ maxLength: 255, description: 'Name of the rule to create', 'x-go-name': 'Name' })),
    subjects: Type.Optional(Type.Array(Type.String(), { description: 'The subjects affected by the rule', 'x-go-name': 'Subjects' })),
  },
  { $id: 'CreateQuotaRuleOptions', description: 'CreateQuotaRuleOptions represents the options for creating a quota rule' },
);
export type CreateQuotaRuleOptions = Static<typeof CreateQuotaRuleOptions>;

export const CreateQuotaGroupOptions = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 255, description: 'Name of the quota group to create', 'x-go-name': 'Name' })),
    rules: Type.Optional(
      Type.Array(CreateQuotaRuleOptions, {
        description: 'Rules to add to the newly created group.\nIf a rule does not exist, it will be created.',
        'x-go-name': 'Rules',
      }),
    ),
  },
  { $id: 'CreateQuotaGroupOptions', description: 'CreateQutaGroupOptions represents the options for creating a quota group' },
);
export type CreateQuotaGroupOptions = Static<typeof CreateQuotaGroupOptions>;

export const EditQuotaRuleOptions = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ ...INT53, format: 'int64', description: 'The limit set by the rule', 'x-go-name': 'Limit' })),
    subjects: Type.Optional(Type.Array(Type.String(), { description: 'The subjects affected by the rule', 'x-go-name': 'Subjects' })),
  },
  { $id: 'EditQuotaRuleOptions', description: 'EditQuotaRuleOptions represents the options for editing a quota rule' },
);
export type EditQuotaRuleOptions = Static<typeof EditQuotaRuleOptions>;

export const QuotaRuleInfo = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ format: 'int64', description: 'The limit set by the rule', 'x-go-name': 'Limit' })),
    name: Type.Optional(Type.String({ description: 'Name of the rule (only shown to admins)', 'x-go-name': 'Name' })),
    subjects: Type.Optional(
      Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'Subjects the rule affects', 'x-go-name': 'Subjects' }),
    ),
  },
  { $id: 'QuotaRuleInfo', description: 'QuotaRuleInfo contains information about a quota rule' },
);
export type QuotaRuleInfo = Static<typeof QuotaRuleInfo>;

export const QuotaGroup = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'Name of the group', 'x-go-name': 'Name' })),
    rules: Type.Optional(
      Type.Union([Type.Array(QuotaRuleInfo), Type.Null()], { description: 'Rules associated with the group', 'x-go-name': 'Rules' }),
    ),
  },
  { $id: 'QuotaGroup', description: 'QuotaGroup represents a quota group' },
);
export type QuotaGroup = Static<typeof QuotaGroup>;

export const QuotaGroupList = Type.Array(QuotaGroup, {
  $id: 'QuotaGroupList',
  description: 'QuotaGroupList represents a list of quota groups',
});
export type QuotaGroupList = Static<typeof QuotaGroupList>;

export const QuotaUsedSizeAssetsAttachments = Type.Object(
  {
    issues: Type.Optional(
      Type.Integer({ format: 'int64', description: "Storage size used for the user's issue & comment attachments", 'x-go-name': 'Issues' }),
    ),
    releases: Type.Optional(
      Type.Integer({ format: 'int64', description: "Storage size used for the user's release attachments", 'x-go-name': 'Releases' }),
    ),
  },
  {
    $id: 'QuotaUsedSizeAssetsAttachments',
    description: 'QuotaUsedSizeAssetsAttachments represents the size-based attachment quota usage of a user',
  },
);
export type QuotaUsedSizeAssetsAttachments = Static<typeof QuotaUsedSizeAssetsAttachments>;

export const QuotaUsedSizeAssetsPackages = Type.Object(
  {
    all: Type.Optional(Type.Integer({ format: 'int64', description: "Storage suze used for the user's packages", 'x-go-name': 'All' })),
  },
  {
    $id: 'QuotaUsedSizeAssetsPackages',
    description: 'QuotaUsedSizeAssetsPackages represents the size-based package quota usage of a user',
  },
);
export type QuotaUsedSizeAssetsPackages = Static<typeof QuotaUsedSizeAssetsPackages>;

export const QuotaUsedSizeAssets = Type.Object(
  {
    artifacts: Type.Optional(
      Type.Integer({ format: 'int64', description: "Storage size used for the user's artifacts", 'x-go-name': 'Artifacts' }),
    ),
    attachments: Type.Optional(Type.Union([QuotaUsedSizeAssetsAttachments, Type.Null()], { 'x-go-name': 'Attachments' })),
    packages: Type.Optional(Type.Union([QuotaUsedSizeAssetsPackages, Type.Null()], { 'x-go-name': 'Packages' })),
  },
  { $id: 'QuotaUsedSizeAssets', description: 'QuotaUsedSizeAssets represents the size-based asset usage of a user' },
);
export type QuotaUsedSizeAssets = Static<typeof QuotaUsedSizeAssets>;

export const QuotaUsedSizeGit = Type.Object(
  {
    LFS: Type.Optional(Type.Integer({ format: 'int64', description: "Storage size of the user's Git LFS objects", 'x-go-name': 'LFS' })),
  },
  { $id: 'QuotaUsedSizeGit', description: 'QuotaUsedSizeGit represents the size-based git (lfs) quota usage of a user' },
);
export type QuotaUsedSizeGit = Static<typeof QuotaUsedSizeGit>;

export const QuotaUsedSizeRepos = Type.Object(
  {
    private: Type.Optional(
      Type.Integer({ format: 'int64', description: "Storage size of the user's private repositories", 'x-go-name': 'Private' }),
    ),
    public: Type.Optional(
      Type.Integer({ format: 'int64', description: "Storage size of the user's public repositories", 'x-go-name': 'Public' }),
    ),
  },
  { $id: 'QuotaUsedSizeRepos', description: 'QuotaUsedSizeRepos represents the size-based repository quota usage of a user' },
);
export type QuotaUsedSizeRepos = Static<typeof QuotaUsedSizeRepos>;

export const QuotaUsedSize = Type.Object(
  {
    assets: Type.Optional(Type.Union([QuotaUsedSizeAssets, Type.Null()], { 'x-go-name': 'Assets' })),
    git: Type.Optional(Type.Union([QuotaUsedSizeGit, Type.Null()], { 'x-go-name': 'Git' })),
    repos: Type.Optional(Type.Union([QuotaUsedSizeRepos, Type.Null()], { 'x-go-name': 'Repos' })),
  },
  { $id: 'QuotaUsedSize', description: 'QuotaUsedSize represents the size-based quota usage of a user' },
);
export type QuotaUsedSize = Static<typeof QuotaUsedSize>;

export const QuotaUsed = Type.Object(
  {
    size: Type.Optional(Type.Union([QuotaUsedSize, Type.Null()], { 'x-go-name': 'Size' })),
  },
  { $id: 'QuotaUsed', description: 'QuotaUsed represents the quota usage of a user' },
);
export type QuotaUsed = Static<typeof QuotaUsed>;

export const QuotaInfo = Type.Object(
  {
    groups: Type.Optional(Type.Union([QuotaGroupList, Type.Null()], { 'x-go-name': 'Groups' })),
    used: Type.Optional(Type.Union([QuotaUsed, Type.Null()], { 'x-go-name': 'Used' })),
  },
  { $id: 'QuotaInfo', description: "QuotaInfo represents information about a user's quota" },
);
export type QuotaInfo = Static<typeof QuotaInfo>;

export const QuotaUsedArtifact = Type.Object(
  {
    html_url: Type.Optional(Type.String({ description: 'HTML URL to the action run containing the artifact', 'x-go-name': 'HTMLURL' })),
    name: Type.Optional(Type.String({ description: 'Name of the artifact', 'x-go-name': 'Name' })),
    size: Type.Optional(Type.Integer({ format: 'int64', description: 'Size of the artifact (compressed)', 'x-go-name': 'Size' })),
  },
  { $id: 'QuotaUsedArtifact', description: "QuotaUsedArtifact represents an artifact counting towards a user's quota" },
);
export type QuotaUsedArtifact = Static<typeof QuotaUsedArtifact>;

export const QuotaUsedArtifactList = Type.Array(QuotaUsedArtifact, {
  $id: 'QuotaUsedArtifactList',
  description: "QuotaUsedArtifactList represents a list of artifacts counting towards a user's quota",
});
export type QuotaUsedArtifactList = Static<typeof QuotaUsedArtifactList>;

export const QuotaUsedAttachment = Type.Object(
  {
    api_url: Type.Optional(Type.String({ description: 'API URL for the attachment', 'x-go-name': 'APIURL' })),
    contained_in: Type.Optional(
      Type.Union(
        [
          Type.Object({
            api_url: Type.Optional(
              Type.String({ description: 'API URL for the object that contains this attachment', 'x-go-name': 'APIURL' }),
            ),
            html_url: Type.Optional(
              Type.String({ description: 'HTML URL for the object that contains this attachment', 'x-go-name': 'HTMLURL' }),
            ),
          }),
          Type.Null(),
        ],
        { description: 'Context for the attachment: URLs to the containing object', 'x-go-name': 'ContainedIn' },
      ),
    ),
    name: Type.Optional(Type.String({ description: 'Filename of the attachment', 'x-go-name': 'Name' })),
    size: Type.Optional(Type.Integer({ format: 'int64', description: 'Size of the attachment (in bytes)', 'x-go-name': 'Size' })),
  },
  { $id: 'QuotaUsedAttachment', description: "QuotaUsedAttachment represents an attachment counting towards a user's quota" },
);
export type QuotaUsedAttachment = Static<typeof QuotaUsedAttachment>;

export const QuotaUsedAttachmentList = Type.Array(QuotaUsedAttachment, {
  $id: 'QuotaUsedAttachmentList',
  description: "QuotaUsedAttachmentList represents a list of attachment counting towards a user's quota",
});
export type QuotaUsedAttachmentList = Static<typeof QuotaUsedAttachmentList>;

export const QuotaUsedPackage = Type.Object(
  {
    html_url: Type.Optional(Type.String({ description: 'HTML URL to the package version', 'x-go-name': 'HTMLURL' })),
    name: Type.Optional(Type.String({ description: 'Name of the package', 'x-go-name': 'Name' })),
    size: Type.Optional(Type.Integer({ format: 'int64', description: 'Size of the package version', 'x-go-name': 'Size' })),
    type: Type.Optional(Type.String({ description: 'Type of the package', 'x-go-name': 'Type' })),
    version: Type.Optional(Type.String({ description: 'Version of the package', 'x-go-name': 'Version' })),
  },
  { $id: 'QuotaUsedPackage', description: "QuotaUsedPackage represents a package counting towards a user's quota" },
);
export type QuotaUsedPackage = Static<typeof QuotaUsedPackage>;

export const QuotaUsedPackageList = Type.Array(QuotaUsedPackage, {
  $id: 'QuotaUsedPackageList',
  description: "QuotaUsedPackageList represents a list of packages counting towards a user's quota",
});
export type QuotaUsedPackageList = Static<typeof QuotaUsedPackageList>;

export const SetUserQuotaGroupsOptions = Type.Object(
  {
    groups: Type.Array(Type.String(), { description: 'Quota groups the user shall have', 'x-go-name': 'Groups' }),
  },
  { $id: 'SetUserQuotaGroupsOptions', description: 'SetUserQuotaGroupsOptions represents the quota groups of a user' },
);
export type SetUserQuotaGroupsOptions = Static<typeof SetUserQuotaGroupsOptions>;
