// Generated from Forgejo's swagger (definitions section) and hand-checked; see index.ts for the conventions.
// Releases, packages and wiki.
//
// Conventions: request types (…Option/…Options/…Form) carry Forgejo's Go binding rules as
// `x-binding` + constraint; response types accept `null` for object refs, arrays, maps and date-times.
// `date-time`/`email` formats are kept as `x-format` annotations (never validated).
import { Type, type Static } from 'typebox';
import { CommitUser, TagArchiveDownloadCount } from './git.ts';
import { Attachment } from './issue.ts';
import { Repository } from './repo.ts';
import { User } from './user.ts';

export const CreateReleaseOption = Type.Object(
  {
    tag_name: Type.String({ maxLength: 255, 'x-go-name': 'TagName' }),
    target_commitish: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'Target' })),
    name: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'Title' })),
    body: Type.Optional(Type.String({ 'x-go-name': 'Note' })),
    draft: Type.Optional(Type.Boolean({ 'x-go-name': 'IsDraft' })),
    prerelease: Type.Optional(Type.Boolean({ 'x-go-name': 'IsPrerelease' })),
    hide_archive_links: Type.Optional(Type.Boolean({ 'x-go-name': 'HideArchiveLinks' })),
  },
  { $id: 'CreateReleaseOption', description: 'CreateReleaseOption options when creating a release' },
);
export type CreateReleaseOption = Static<typeof CreateReleaseOption>;

export const CreateWikiPageOptions = Type.Object(
  {
    content_base64: Type.Optional(Type.String({ description: 'content must be base64 encoded', 'x-go-name': 'ContentBase64' })),
    message: Type.Optional(Type.String({ description: 'optional commit message summarizing the change', 'x-go-name': 'Message' })),
    title: Type.Optional(Type.String({ description: 'page title. leave empty to keep unchanged', 'x-go-name': 'Title' })),
  },
  { $id: 'CreateWikiPageOptions', description: 'CreateWikiPageOptions form for creating wiki' },
);
export type CreateWikiPageOptions = Static<typeof CreateWikiPageOptions>;

export const EditReleaseOption = Type.Object(
  {
    body: Type.Optional(Type.String({ 'x-go-name': 'Note' })),
    draft: Type.Optional(Type.Boolean({ 'x-go-name': 'IsDraft' })),
    hide_archive_links: Type.Optional(Type.Boolean({ 'x-go-name': 'HideArchiveLinks' })),
    name: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'Title' })),
    prerelease: Type.Optional(Type.Boolean({ 'x-go-name': 'IsPrerelease' })),
    tag_name: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'TagName' })),
    target_commitish: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'Target' })),
  },
  { $id: 'EditReleaseOption', description: 'EditReleaseOption options when editing a release' },
);
export type EditReleaseOption = Static<typeof EditReleaseOption>;

export const Package = Type.Object(
  {
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'CreatedAt' })),
    creator: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'Creator' })),
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    owner: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'Owner' })),
    repository: Type.Optional(Type.Union([Repository, Type.Null()], { 'x-go-name': 'Repository' })),
    type: Type.Optional(Type.String({ 'x-go-name': 'Type' })),
    version: Type.Optional(Type.String({ 'x-go-name': 'Version' })),
  },
  { $id: 'Package', description: 'Package represents a package' },
);
export type Package = Static<typeof Package>;

export const PackageFile = Type.Object(
  {
    Size: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Size' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    md5: Type.Optional(Type.String({ 'x-go-name': 'HashMD5' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    sha1: Type.Optional(Type.String({ 'x-go-name': 'HashSHA1' })),
    sha256: Type.Optional(Type.String({ 'x-go-name': 'HashSHA256' })),
    sha512: Type.Optional(Type.String({ 'x-go-name': 'HashSHA512' })),
  },
  { $id: 'PackageFile', description: 'PackageFile represents a package file' },
);
export type PackageFile = Static<typeof PackageFile>;

export const Release = Type.Object(
  {
    archive_download_count: Type.Optional(Type.Union([TagArchiveDownloadCount, Type.Null()], { 'x-go-name': 'ArchiveDownloadCount' })),
    assets: Type.Optional(Type.Union([Type.Array(Attachment), Type.Null()], { 'x-go-name': 'Attachments' })),
    author: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'Author' })),
    body: Type.Optional(Type.String({ 'x-go-name': 'Note' })),
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'CreatedAt' })),
    draft: Type.Optional(Type.Boolean({ 'x-go-name': 'IsDraft' })),
    hide_archive_links: Type.Optional(Type.Boolean({ 'x-go-name': 'HideArchiveLinks' })),
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Title' })),
    prerelease: Type.Optional(Type.Boolean({ 'x-go-name': 'IsPrerelease' })),
    published_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'PublishedAt' })),
    tag_name: Type.Optional(Type.String({ 'x-go-name': 'TagName' })),
    tarball_url: Type.Optional(Type.String({ 'x-go-name': 'TarURL' })),
    target_commitish: Type.Optional(Type.String({ 'x-go-name': 'Target' })),
    upload_url: Type.Optional(Type.String({ 'x-go-name': 'UploadURL' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
    zipball_url: Type.Optional(Type.String({ 'x-go-name': 'ZipURL' })),
  },
  { $id: 'Release', description: 'Release represents a repository release' },
);
export type Release = Static<typeof Release>;

export const WikiCommit = Type.Object(
  {
    author: Type.Optional(Type.Union([CommitUser, Type.Null()], { 'x-go-name': 'Author' })),
    commiter: Type.Optional(Type.Union([CommitUser, Type.Null()], { 'x-go-name': 'Commiter' })),
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    sha: Type.Optional(Type.String({ 'x-go-name': 'ID' })),
  },
  { $id: 'WikiCommit', description: 'WikiCommit page commit/revision' },
);
export type WikiCommit = Static<typeof WikiCommit>;

export const WikiCommitList = Type.Object(
  {
    commits: Type.Optional(Type.Union([Type.Array(WikiCommit), Type.Null()], { 'x-go-name': 'WikiCommits' })),
    count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Count' })),
  },
  { $id: 'WikiCommitList', description: 'WikiCommitList commit/revision list' },
);
export type WikiCommitList = Static<typeof WikiCommitList>;

export const WikiPage = Type.Object(
  {
    commit_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'CommitCount' })),
    content_base64: Type.Optional(Type.String({ description: 'Page content, base64 encoded', 'x-go-name': 'ContentBase64' })),
    footer: Type.Optional(Type.String({ 'x-go-name': 'Footer' })),
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    last_commit: Type.Optional(Type.Union([WikiCommit, Type.Null()], { 'x-go-name': 'LastCommit' })),
    sidebar: Type.Optional(Type.String({ 'x-go-name': 'Sidebar' })),
    sub_url: Type.Optional(Type.String({ 'x-go-name': 'SubURL' })),
    title: Type.Optional(Type.String({ 'x-go-name': 'Title' })),
  },
  { $id: 'WikiPage', description: 'WikiPage a wiki page' },
);
export type WikiPage = Static<typeof WikiPage>;

export const WikiPageMetaData = Type.Object(
  {
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    last_commit: Type.Optional(Type.Union([WikiCommit, Type.Null()], { 'x-go-name': 'LastCommit' })),
    sub_url: Type.Optional(Type.String({ 'x-go-name': 'SubURL' })),
    title: Type.Optional(Type.String({ 'x-go-name': 'Title' })),
  },
  { $id: 'WikiPageMetaData', description: 'WikiPageMetaData wiki page meta information' },
);
export type WikiPageMetaData = Static<typeof WikiPageMetaData>;
