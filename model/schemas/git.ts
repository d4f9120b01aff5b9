// Generated from Forgejo's swagger (definitions section) and hand-checked; see index.ts for the conventions.
// Git data: commits, trees, blobs, refs, tags, statuses, notes and file contents.
//
// Conventions: request types (…Option/…Options/…Form) carry Forgejo's Go binding rules as
// `x-binding` + constraint; response types accept `null` for object refs, arrays, maps and date-times.
// `date-time`/`email` formats are kept as `x-format` annotations (never validated).
import { Type, type Static } from 'typebox';
import { CommitStatusState, PATTERN_GIT_REF_NAME } from './common.ts';
import { Repository } from './repo.ts';
import { Identity, User } from './user.ts';

export const AnnotatedTagObject = Type.Object(
  {
    sha: Type.Optional(Type.String({ 'x-go-name': 'SHA' })),
    type: Type.Optional(Type.String({ 'x-go-name': 'Type' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'AnnotatedTagObject', description: 'AnnotatedTagObject contains meta information of the tag object' },
);
export type AnnotatedTagObject = Static<typeof AnnotatedTagObject>;

export const CommitUser = Type.Object(
  {
    date: Type.Optional(Type.String({ 'x-go-name': 'Date' })),
    email: Type.Optional(Type.String({ 'x-format': 'email', 'x-go-name': 'Email' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
  },
  { $id: 'CommitUser', title: 'CommitUser contains information of a user in the context of a commit.' },
);
export type CommitUser = Static<typeof CommitUser>;

export const PayloadUser = Type.Object(
  {
    email: Type.Optional(Type.String({ 'x-format': 'email', 'x-go-name': 'Email' })),
    name: Type.Optional(Type.String({ description: 'Full name of the commit author', 'x-go-name': 'Name' })),
    username: Type.Optional(Type.String({ 'x-go-name': 'UserName' })),
  },
  { $id: 'PayloadUser', description: 'PayloadUser represents the author or committer of a commit' },
);
export type PayloadUser = Static<typeof PayloadUser>;

export const PayloadCommitVerification = Type.Object(
  {
    payload: Type.Optional(Type.String({ 'x-go-name': 'Payload' })),
    reason: Type.Optional(Type.String({ 'x-go-name': 'Reason' })),
    signature: Type.Optional(Type.String({ 'x-go-name': 'Signature' })),
    signer: Type.Optional(Type.Union([PayloadUser, Type.Null()], { 'x-go-name': 'Signer' })),
    verified: Type.Optional(Type.Boolean({ 'x-go-name': 'Verified' })),
  },
  { $id: 'PayloadCommitVerification', description: 'PayloadCommitVerification represents the GPG verification of a commit' },
);
export type PayloadCommitVerification = Static<typeof PayloadCommitVerification>;

export const TagArchiveDownloadCount = Type.Object(
  {
    tar_gz: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'TarGz' })),
    zip: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Zip' })),
  },
  { $id: 'TagArchiveDownloadCount', description: 'TagArchiveDownloadCount counts how many times a archive was downloaded' },
);
export type TagArchiveDownloadCount = Static<typeof TagArchiveDownloadCount>;

export const AnnotatedTag = Type.Object(
  {
    archive_download_count: Type.Optional(Type.Union([TagArchiveDownloadCount, Type.Null()], { 'x-go-name': 'ArchiveDownloadCount' })),
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    object: Type.Optional(Type.Union([AnnotatedTagObject, Type.Null()], { 'x-go-name': 'Object' })),
    sha: Type.Optional(Type.String({ 'x-go-name': 'SHA' })),
    tag: Type.Optional(Type.String({ 'x-go-name': 'Tag' })),
    tagger: Type.Optional(Type.Union([CommitUser, Type.Null()], { 'x-go-name': 'Tagger' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
    verification: Type.Optional(Type.Union([PayloadCommitVerification, Type.Null()], { 'x-go-name': 'Verification' })),
  },
  { $id: 'AnnotatedTag', description: 'AnnotatedTag represents an annotated tag' },
);
export type AnnotatedTag = Static<typeof AnnotatedTag>;

export const PayloadCommit = Type.Object(
  {
    added: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'Added' })),
    author: Type.Optional(Type.Union([PayloadUser, Type.Null()], { 'x-go-name': 'Author' })),
    committer: Type.Optional(Type.Union([PayloadUser, Type.Null()], { 'x-go-name': 'Committer' })),
    id: Type.Optional(Type.String({ description: 'sha1 hash of the commit', 'x-go-name': 'ID' })),
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    modified: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'Modified' })),
    removed: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'Removed' })),
    timestamp: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Timestamp' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
    verification: Type.Optional(Type.Union([PayloadCommitVerification, Type.Null()], { 'x-go-name': 'Verification' })),
  },
  { $id: 'PayloadCommit', description: 'PayloadCommit represents a commit' },
);
export type PayloadCommit = Static<typeof PayloadCommit>;

export const Branch = Type.Object(
  {
    commit: Type.Optional(Type.Union([PayloadCommit, Type.Null()], { 'x-go-name': 'Commit' })),
    effective_branch_protection_name: Type.Optional(Type.String({ 'x-go-name': 'EffectiveBranchProtectionName' })),
    enable_status_check: Type.Optional(Type.Boolean({ 'x-go-name': 'EnableStatusCheck' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    protected: Type.Optional(Type.Boolean({ 'x-go-name': 'Protected' })),
    required_approvals: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'RequiredApprovals' })),
    status_check_contexts: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'StatusCheckContexts' })),
    user_can_merge: Type.Optional(Type.Boolean({ 'x-go-name': 'UserCanMerge' })),
    user_can_push: Type.Optional(Type.Boolean({ 'x-go-name': 'UserCanPush' })),
  },
  { $id: 'Branch', description: 'Branch represents a repository branch' },
);
export type Branch = Static<typeof Branch>;

export const ChangeFileOperation = Type.Object(
  {
    operation: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete')], {
      description: 'indicates what to do with the file',
      'x-go-name': 'Operation',
    }),
    path: Type.String({ description: 'path to the existing or new file', 'x-go-name': 'Path', maxLength: 500 }),
    content: Type.Optional(
      Type.String({ description: 'new or updated file content, must be base64 encoded', 'x-go-name': 'ContentBase64' }),
    ),
    sha: Type.Optional(
      Type.String({ description: 'sha is the SHA for the file that already exists, required for update or delete', 'x-go-name': 'SHA' }),
    ),
    from_path: Type.Optional(Type.String({ description: 'old path of the file to move', 'x-go-name': 'FromPath' })),
  },
  { $id: 'ChangeFileOperation', description: 'ChangeFileOperation for creating, updating or deleting a file' },
);
export type ChangeFileOperation = Static<typeof ChangeFileOperation>;

export const CommitDateOptions = Type.Object(
  {
    author: Type.Optional(Type.String({ 'x-format': 'date-time', 'x-go-name': 'Author' })),
    committer: Type.Optional(Type.String({ 'x-format': 'date-time', 'x-go-name': 'Committer' })),
  },
  { $id: 'CommitDateOptions', description: 'CommitDateOptions store dates for GIT_AUTHOR_DATE and GIT_COMMITTER_DATE' },
);
export type CommitDateOptions = Static<typeof CommitDateOptions>;

export const ChangeFilesOptions = Type.Object(
  {
    message: Type.Optional(
      Type.String({
        description: 'message (optional) for the commit of this file. if not supplied, a default message will be used',
        'x-go-name': 'Message',
      }),
    ),
    branch: Type.Optional(
      Type.String({
        description: 'branch (optional) to base this file from. if not given, the default branch is used',
        'x-go-name': 'BranchName',
        pattern: PATTERN_GIT_REF_NAME,
        'x-binding': 'GitRefName',
        maxLength: 100,
      }),
    ),
    new_branch: Type.Optional(
      Type.String({
        description: 'new_branch (optional) will make a new branch from `branch` before creating the file',
        'x-go-name': 'NewBranchName',
        pattern: PATTERN_GIT_REF_NAME,
        'x-binding': 'GitRefName',
        maxLength: 100,
      }),
    ),
    force_overwrite_new_branch: Type.Optional(
      Type.Boolean({
        description: '(optional) will do a force-push if the new branch already exists',
        'x-go-name': 'ForceOverwriteNewBranch',
      }),
    ),
    author: Type.Optional(Type.With(Identity, { 'x-go-name': 'Author' })),
    committer: Type.Optional(Type.With(Identity, { 'x-go-name': 'Committer' })),
    dates: Type.Optional(Type.With(CommitDateOptions, { 'x-go-name': 'Dates' })),
    signoff: Type.Optional(
      Type.Boolean({
        description: 'Add a Signed-off-by trailer by the committer at the end of the commit log message.',
        'x-go-name': 'Signoff',
      }),
    ),
    files: Type.Array(ChangeFileOperation, { description: 'list of file operations', 'x-go-name': 'Files' }),
  },
  {
    $id: 'ChangeFilesOptions',
    description:
      'ChangeFilesOptions options for creating, updating or deleting multiple files\nNote: `author` and `committer` are optional (if only one is given, it will be used for the other, otherwise the authenticated user will be used)',
  },
);
export type ChangeFilesOptions = Static<typeof ChangeFilesOptions>;

export const ChangedFile = Type.Object(
  {
    additions: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Additions' })),
    changes: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Changes' })),
    contents_url: Type.Optional(Type.String({ 'x-go-name': 'ContentsURL' })),
    deletions: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Deletions' })),
    filename: Type.Optional(Type.String({ 'x-go-name': 'Filename' })),
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    previous_filename: Type.Optional(Type.String({ 'x-go-name': 'PreviousFilename' })),
    raw_url: Type.Optional(Type.String({ 'x-go-name': 'RawURL' })),
    status: Type.Optional(Type.String({ 'x-go-name': 'Status' })),
  },
  { $id: 'ChangedFile', description: 'ChangedFile store information about files affected by the pull request' },
);
export type ChangedFile = Static<typeof ChangedFile>;

export const CommitStatus = Type.Object(
  {
    context: Type.Optional(Type.String({ 'x-go-name': 'Context' })),
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    creator: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'Creator' })),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    status: Type.Optional(Type.With(CommitStatusState, { 'x-go-name': 'Status' })),
    target_url: Type.Optional(Type.String({ 'x-go-name': 'TargetURL' })),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Updated' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'CommitStatus', description: 'CommitStatus holds a single status of a single Commit' },
);
export type CommitStatus = Static<typeof CommitStatus>;

export const CombinedStatus = Type.Object(
  {
    commit_url: Type.Optional(Type.String({ 'x-go-name': 'CommitURL' })),
    repository: Type.Optional(Type.Union([Repository, Type.Null()], { 'x-go-name': 'Repository' })),
    sha: Type.Optional(Type.String({ 'x-go-name': 'SHA' })),
    state: Type.Optional(Type.With(CommitStatusState, { 'x-go-name': 'State' })),
    statuses: Type.Optional(Type.Union([Type.Array(CommitStatus), Type.Null()], { 'x-go-name': 'Statuses' })),
    total_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'TotalCount' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'CombinedStatus', description: 'CombinedStatus holds the combined state of several statuses for a single commit' },
);
export type CombinedStatus = Static<typeof CombinedStatus>;

export const CommitAffectedFiles = Type.Object(
  {
    filename: Type.Optional(Type.String({ 'x-go-name': 'Filename' })),
    status: Type.Optional(Type.String({ 'x-go-name': 'Status' })),
  },
  { $id: 'CommitAffectedFiles', description: 'CommitAffectedFiles store information about files affected by the commit' },
);
export type CommitAffectedFiles = Static<typeof CommitAffectedFiles>;

export const CommitMeta = Type.Object(
  {
    created: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    sha: Type.Optional(Type.String({ 'x-go-name': 'SHA' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'CommitMeta', title: 'CommitMeta contains meta information of a commit in terms of API.' },
);
export type CommitMeta = Static<typeof CommitMeta>;

export const CommitStats = Type.Object(
  {
    additions: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Additions' })),
    deletions: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Deletions' })),
    total: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Total' })),
  },
  { $id: 'CommitStats', description: 'CommitStats is statistics for a RepoCommit' },
);
export type CommitStats = Static<typeof CommitStats>;

export const RepoCommit = Type.Object(
  {
    author: Type.Optional(Type.Union([CommitUser, Type.Null()], { 'x-go-name': 'Author' })),
    committer: Type.Optional(Type.Union([CommitUser, Type.Null()], { 'x-go-name': 'Committer' })),
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    tree: Type.Optional(Type.Union([CommitMeta, Type.Null()], { 'x-go-name': 'Tree' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
    verification: Type.Optional(Type.Union([PayloadCommitVerification, Type.Null()], { 'x-go-name': 'Verification' })),
  },
  { $id: 'RepoCommit', title: 'RepoCommit contains information of a commit in the context of a repository.' },
);
export type RepoCommit = Static<typeof RepoCommit>;

export const Commit = Type.Object(
  {
    author: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'Author' })),
    commit: Type.Optional(Type.Union([RepoCommit, Type.Null()], { 'x-go-name': 'Commit' })),
    committer: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'Committer' })),
    created: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    files: Type.Optional(Type.Union([Type.Array(CommitAffectedFiles), Type.Null()], { 'x-go-name': 'Files' })),
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    parents: Type.Optional(Type.Union([Type.Array(CommitMeta), Type.Null()], { 'x-go-name': 'Parents' })),
    sha: Type.Optional(Type.String({ 'x-go-name': 'SHA' })),
    stats: Type.Optional(Type.Union([CommitStats, Type.Null()], { 'x-go-name': 'Stats' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'Commit', title: 'Commit contains information generated from a Git commit.' },
);
export type Commit = Static<typeof Commit>;

export const Compare = Type.Object(
  {
    commits: Type.Optional(Type.Union([Type.Array(Commit), Type.Null()], { 'x-go-name': 'Commits' })),
    files: Type.Optional(Type.Union([Type.Array(CommitAffectedFiles), Type.Null()], { 'x-go-name': 'Files' })),
    total_commits: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'TotalCommits' })),
  },
  { $id: 'Compare', title: 'Compare represents a comparison between two commits.' },
);
export type Compare = Static<typeof Compare>;

export const FileLinksResponse = Type.Object(
  {
    git: Type.Optional(Type.Union([Type.String(), Type.Null()], { 'x-go-name': 'GitURL' })),
    html: Type.Optional(Type.Union([Type.String(), Type.Null()], { 'x-go-name': 'HTMLURL' })),
    self: Type.Optional(Type.Union([Type.String(), Type.Null()], { 'x-go-name': 'Self' })),
  },
  { $id: 'FileLinksResponse', description: "FileLinksResponse contains the links for a repo's file" },
);
export type FileLinksResponse = Static<typeof FileLinksResponse>;

export const ContentsResponse = Type.Object(
  {
    _links: Type.Optional(Type.Union([FileLinksResponse, Type.Null()], { 'x-go-name': 'Links' })),
    content: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: '`content` is populated when `type` is `file`, otherwise null',
        'x-go-name': 'Content',
      }),
    ),
    download_url: Type.Optional(Type.Union([Type.String(), Type.Null()], { 'x-go-name': 'DownloadURL' })),
    encoding: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: '`encoding` is populated when `type` is `file`, otherwise null',
        'x-go-name': 'Encoding',
      }),
    ),
    git_url: Type.Optional(Type.Union([Type.String(), Type.Null()], { 'x-go-name': 'GitURL' })),
    html_url: Type.Optional(Type.Union([Type.String(), Type.Null()], { 'x-go-name': 'HTMLURL' })),
    last_commit_sha: Type.Optional(Type.String({ 'x-go-name': 'LastCommitSHA' })),
    last_commit_when: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'LastCommitWhen' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    path: Type.Optional(Type.String({ 'x-go-name': 'Path' })),
    sha: Type.Optional(Type.String({ 'x-go-name': 'SHA' })),
    size: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Size' })),
    submodule_git_url: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: '`submodule_git_url` is populated when `type` is `submodule`, otherwise null',
        'x-go-name': 'SubmoduleGitURL',
      }),
    ),
    target: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: '`target` is populated when `type` is `symlink`, otherwise null',
        'x-go-name': 'Target',
      }),
    ),
    type: Type.Optional(Type.String({ description: '`type` will be `file`, `dir`, `symlink`, or `submodule`', 'x-go-name': 'Type' })),
    url: Type.Optional(Type.Union([Type.String(), Type.Null()], { 'x-go-name': 'URL' })),
  },
  {
    $id: 'ContentsResponse',
    description: "ContentsResponse contains information about a repo's entry's (dir, file, symlink, submodule) metadata and content",
  },
);
export type ContentsResponse = Static<typeof ContentsResponse>;

export const CreateFileOptions = Type.Object(
  {
    message: Type.Optional(
      Type.String({
        description: 'message (optional) for the commit of this file. if not supplied, a default message will be used',
        'x-go-name': 'Message',
      }),
    ),
    branch: Type.Optional(
      Type.String({
        description: 'branch (optional) to base this file from. if not given, the default branch is used',
        'x-go-name': 'BranchName',
        pattern: PATTERN_GIT_REF_NAME,
        'x-binding': 'GitRefName',
        maxLength: 100,
      }),
    ),
    new_branch: Type.Optional(
      Type.String({
        description: 'new_branch (optional) will make a new branch from `branch` before creating the file',
        'x-go-name': 'NewBranchName',
        pattern: PATTERN_GIT_REF_NAME,
        'x-binding': 'GitRefName',
        maxLength: 100,
      }),
    ),
    force_overwrite_new_branch: Type.Optional(
      Type.Boolean({
        description: '(optional) will do a force-push if the new branch already exists',
        'x-go-name': 'ForceOverwriteNewBranch',
      }),
    ),
    author: Type.Optional(Type.With(Identity, { 'x-go-name': 'Author' })),
    committer: Type.Optional(Type.With(Identity, { 'x-go-name': 'Committer' })),
    dates: Type.Optional(Type.With(CommitDateOptions, { 'x-go-name': 'Dates' })),
    signoff: Type.Optional(
      Type.Boolean({
        description: 'Add a Signed-off-by trailer by the committer at the end of the commit log message.',
        'x-go-name': 'Signoff',
      }),
    ),
    content: Type.String({ description: 'content must be base64 encoded', 'x-go-name': 'ContentBase64' }),
  },
  {
    $id: 'CreateFileOptions',
    description:
      'CreateFileOptions options for creating files\nNote: `author` and `committer` are optional (if only one is given, it will be used for the other, otherwise the authenticated user will be used)',
  },
);
export type CreateFileOptions = Static<typeof CreateFileOptions>;

export const CreateStatusOption = Type.Object(
  {
    context: Type.Optional(Type.String({ 'x-go-name': 'Context' })),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description' })),
    state: Type.Optional(Type.With(CommitStatusState, { 'x-go-name': 'State' })),
    target_url: Type.Optional(Type.String({ 'x-go-name': 'TargetURL' })),
  },
  { $id: 'CreateStatusOption', description: 'CreateStatusOption holds the information needed to create a new CommitStatus for a Commit' },
);
export type CreateStatusOption = Static<typeof CreateStatusOption>;

export const CreateTagOption = Type.Object(
  {
    tag_name: Type.String({ 'x-go-name': 'TagName', pattern: PATTERN_GIT_REF_NAME, 'x-binding': 'GitRefName', maxLength: 50 }),
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    target: Type.Optional(Type.String({ 'x-go-name': 'Target' })),
  },
  { $id: 'CreateTagOption', description: 'CreateTagOption options when creating a tag' },
);
export type CreateTagOption = Static<typeof CreateTagOption>;

export const DeleteFileOptions = Type.Object(
  {
    message: Type.Optional(
      Type.String({
        description: 'message (optional) for the commit of this file. if not supplied, a default message will be used',
        'x-go-name': 'Message',
      }),
    ),
    branch: Type.Optional(
      Type.String({
        description: 'branch (optional) to base this file from. if not given, the default branch is used',
        'x-go-name': 'BranchName',
        pattern: PATTERN_GIT_REF_NAME,
        'x-binding': 'GitRefName',
        maxLength: 100,
      }),
    ),
    new_branch: Type.Optional(
      Type.String({
        description: 'new_branch (optional) will make a new branch from `branch` before creating the file',
        'x-go-name': 'NewBranchName',
        pattern: PATTERN_GIT_REF_NAME,
        'x-binding': 'GitRefName',
        maxLength: 100,
      }),
    ),
    force_overwrite_new_branch: Type.Optional(
      Type.Boolean({
        description: '(optional) will do a force-push if the new branch already exists',
        'x-go-name': 'ForceOverwriteNewBranch',
      }),
    ),
    author: Type.Optional(Type.With(Identity, { 'x-go-name': 'Author' })),
    committer: Type.Optional(Type.With(Identity, { 'x-go-name': 'Committer' })),
    dates: Type.Optional(Type.With(CommitDateOptions, { 'x-go-name': 'Dates' })),
    signoff: Type.Optional(
      Type.Boolean({
        description: 'Add a Signed-off-by trailer by the committer at the end of the commit log message.',
        'x-go-name': 'Signoff',
      }),
    ),
    sha: Type.String({ description: 'sha is the SHA for the file that already exists', 'x-go-name': 'SHA' }),
  },
  {
    $id: 'DeleteFileOptions',
    description:
      'DeleteFileOptions options for deleting files (used for other File structs below)\nNote: `author` and `committer` are optional (if only one is given, it will be used for the other, otherwise the authenticated user will be used)',
  },
);
export type DeleteFileOptions = Static<typeof DeleteFileOptions>;

export const FileCommitResponse = Type.Object(
  {
    author: Type.Optional(Type.Union([CommitUser, Type.Null()], { 'x-go-name': 'Author' })),
    committer: Type.Optional(Type.Union([CommitUser, Type.Null()], { 'x-go-name': 'Committer' })),
    created: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    parents: Type.Optional(Type.Union([Type.Array(CommitMeta), Type.Null()], { 'x-go-name': 'Parents' })),
    sha: Type.Optional(Type.String({ 'x-go-name': 'SHA' })),
    tree: Type.Optional(Type.Union([CommitMeta, Type.Null()], { 'x-go-name': 'Tree' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'FileCommitResponse', title: "FileCommitResponse contains information generated from a Git commit for a repo's file." },
);
export type FileCommitResponse = Static<typeof FileCommitResponse>;

export const FileDeleteResponse = Type.Object(
  {
    commit: Type.Optional(Type.Union([FileCommitResponse, Type.Null()], { 'x-go-name': 'Commit' })),
    content: Type.Optional(Type.Unknown({ 'x-go-name': 'Content' })),
    verification: Type.Optional(Type.Union([PayloadCommitVerification, Type.Null()], { 'x-go-name': 'Verification' })),
  },
  { $id: 'FileDeleteResponse', description: "FileDeleteResponse contains information about a repo's file that was deleted" },
);
export type FileDeleteResponse = Static<typeof FileDeleteResponse>;

export const FileResponse = Type.Object(
  {
    commit: Type.Optional(Type.Union([FileCommitResponse, Type.Null()], { 'x-go-name': 'Commit' })),
    content: Type.Optional(Type.Union([ContentsResponse, Type.Null()], { 'x-go-name': 'Content' })),
    verification: Type.Optional(Type.Union([PayloadCommitVerification, Type.Null()], { 'x-go-name': 'Verification' })),
  },
  { $id: 'FileResponse', description: "FileResponse contains information about a repo's file" },
);
export type FileResponse = Static<typeof FileResponse>;

export const FilesResponse = Type.Object(
  {
    commit: Type.Optional(Type.Union([FileCommitResponse, Type.Null()], { 'x-go-name': 'Commit' })),
    // A deleted path answers null in its place (Forgejo's []*ContentsResponse).
    files: Type.Optional(Type.Union([Type.Array(Type.Union([ContentsResponse, Type.Null()])), Type.Null()], { 'x-go-name': 'Files' })),
    verification: Type.Optional(Type.Union([PayloadCommitVerification, Type.Null()], { 'x-go-name': 'Verification' })),
  },
  { $id: 'FilesResponse', description: 'FilesResponse contains information about multiple files from a repo' },
);
export type FilesResponse = Static<typeof FilesResponse>;

export const GitBlob = Type.Object(
  {
    content: Type.Optional(Type.String({ 'x-go-name': 'Content' })),
    encoding: Type.Optional(Type.String({ 'x-go-name': 'Encoding' })),
    sha: Type.Optional(Type.String({ 'x-go-name': 'SHA' })),
    size: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Size' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'GitBlob', description: 'GitBlob represents a git blob' },
);
export type GitBlob = Static<typeof GitBlob>;

export const GitEntry = Type.Object(
  {
    mode: Type.Optional(Type.String({ 'x-go-name': 'Mode' })),
    path: Type.Optional(Type.String({ 'x-go-name': 'Path' })),
    sha: Type.Optional(Type.String({ 'x-go-name': 'SHA' })),
    size: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Size' })),
    type: Type.Optional(Type.String({ 'x-go-name': 'Type' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'GitEntry', description: 'GitEntry represents a git tree' },
);
export type GitEntry = Static<typeof GitEntry>;

export const GitObject = Type.Object(
  {
    sha: Type.Optional(Type.String({ 'x-go-name': 'SHA' })),
    type: Type.Optional(Type.String({ 'x-go-name': 'Type' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'GitObject', title: 'GitObject represents a Git object.' },
);
export type GitObject = Static<typeof GitObject>;

export const GitTreeResponse = Type.Object(
  {
    page: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Page' })),
    sha: Type.Optional(Type.String({ 'x-go-name': 'SHA' })),
    total_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'TotalCount' })),
    tree: Type.Optional(Type.Union([Type.Array(GitEntry), Type.Null()], { 'x-go-name': 'Entries' })),
    truncated: Type.Optional(Type.Boolean({ 'x-go-name': 'Truncated' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'GitTreeResponse', description: 'GitTreeResponse returns a git tree' },
);
export type GitTreeResponse = Static<typeof GitTreeResponse>;

export const Note = Type.Object(
  {
    commit: Type.Optional(Type.Union([Commit, Type.Null()], { 'x-go-name': 'Commit' })),
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
  },
  { $id: 'Note', description: 'Note contains information related to a git note' },
);
export type Note = Static<typeof Note>;

export const NoteOptions = Type.Object(
  {
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
  },
  { $id: 'NoteOptions' },
);
export type NoteOptions = Static<typeof NoteOptions>;

export const Reference = Type.Object(
  {
    object: Type.Optional(Type.Union([GitObject, Type.Null()], { 'x-go-name': 'Object' })),
    ref: Type.Optional(Type.String({ 'x-go-name': 'Ref' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'Reference', title: 'Reference represents a Git reference.' },
);
export type Reference = Static<typeof Reference>;

export const Tag = Type.Object(
  {
    archive_download_count: Type.Optional(Type.Union([TagArchiveDownloadCount, Type.Null()], { 'x-go-name': 'ArchiveDownloadCount' })),
    commit: Type.Optional(Type.Union([CommitMeta, Type.Null()], { 'x-go-name': 'Commit' })),
    id: Type.Optional(Type.String({ 'x-go-name': 'ID' })),
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    tarball_url: Type.Optional(Type.String({ 'x-go-name': 'TarballURL' })),
    zipball_url: Type.Optional(Type.String({ 'x-go-name': 'ZipballURL' })),
  },
  { $id: 'Tag', description: 'Tag represents a repository tag' },
);
export type Tag = Static<typeof Tag>;

export const UpdateFileOptions = Type.Object(
  {
    message: Type.Optional(
      Type.String({
        description: 'message (optional) for the commit of this file. if not supplied, a default message will be used',
        'x-go-name': 'Message',
      }),
    ),
    branch: Type.Optional(
      Type.String({
        description: 'branch (optional) to base this file from. if not given, the default branch is used',
        'x-go-name': 'BranchName',
        pattern: PATTERN_GIT_REF_NAME,
        'x-binding': 'GitRefName',
        maxLength: 100,
      }),
    ),
    new_branch: Type.Optional(
      Type.String({
        description: 'new_branch (optional) will make a new branch from `branch` before creating the file',
        'x-go-name': 'NewBranchName',
        pattern: PATTERN_GIT_REF_NAME,
        'x-binding': 'GitRefName',
        maxLength: 100,
      }),
    ),
    force_overwrite_new_branch: Type.Optional(
      Type.Boolean({
        description: '(optional) will do a force-push if the new branch already exists',
        'x-go-name': 'ForceOverwriteNewBranch',
      }),
    ),
    author: Type.Optional(Type.With(Identity, { 'x-go-name': 'Author' })),
    committer: Type.Optional(Type.With(Identity, { 'x-go-name': 'Committer' })),
    dates: Type.Optional(Type.With(CommitDateOptions, { 'x-go-name': 'Dates' })),
    signoff: Type.Optional(
      Type.Boolean({
        description: 'Add a Signed-off-by trailer by the committer at the end of the commit log message.',
        'x-go-name': 'Signoff',
      }),
    ),
    sha: Type.String({ description: 'sha is the SHA for the file that already exists', 'x-go-name': 'SHA' }),
    content: Type.String({ description: 'content must be base64 encoded', 'x-go-name': 'ContentBase64' }),
    from_path: Type.Optional(
      Type.String({
        description: 'from_path (optional) is the path of the original file which will be moved/renamed to the path in the URL',
        'x-go-name': 'FromPath',
        maxLength: 500,
      }),
    ),
  },
  {
    $id: 'UpdateFileOptions',
    description:
      'UpdateFileOptions options for updating files\nNote: `author` and `committer` are optional (if only one is given, it will be used for the other, otherwise the authenticated user will be used)',
  },
);
export type UpdateFileOptions = Static<typeof UpdateFileOptions>;

// Not in swagger (the diffpatch route documents UpdateFileOptions): Go embeds DeleteFileOptions (FileOptions + required sha) and adds the required patch `content`, i.e. UpdateFileOptions without from_path.
export const ApplyDiffPatchFileOptions = Type.Object(
  {
    message: Type.Optional(
      Type.String({
        description: 'message (optional) for the commit of this file. if not supplied, a default message will be used',
        'x-go-name': 'Message',
      }),
    ),
    branch: Type.Optional(
      Type.String({
        description: 'branch (optional) to base this file from. if not given, the default branch is used',
        'x-go-name': 'BranchName',
        pattern: PATTERN_GIT_REF_NAME,
        'x-binding': 'GitRefName',
        maxLength: 100,
      }),
    ),
    new_branch: Type.Optional(
      Type.String({
        description: 'new_branch (optional) will make a new branch from `branch` before creating the file',
        'x-go-name': 'NewBranchName',
        pattern: PATTERN_GIT_REF_NAME,
        'x-binding': 'GitRefName',
        maxLength: 100,
      }),
    ),
    force_overwrite_new_branch: Type.Optional(
      Type.Boolean({
        description: '(optional) will do a force-push if the new branch already exists',
        'x-go-name': 'ForceOverwriteNewBranch',
      }),
    ),
    author: Type.Optional(Type.With(Identity, { 'x-go-name': 'Author' })),
    committer: Type.Optional(Type.With(Identity, { 'x-go-name': 'Committer' })),
    dates: Type.Optional(Type.With(CommitDateOptions, { 'x-go-name': 'Dates' })),
    signoff: Type.Optional(
      Type.Boolean({
        description: 'Add a Signed-off-by trailer by the committer at the end of the commit log message.',
        'x-go-name': 'Signoff',
      }),
    ),
    sha: Type.String({ description: 'sha is the SHA for the file that already exists', 'x-go-name': 'SHA' }),
    content: Type.String({ description: 'content must be a unified diff (the patch to apply)', 'x-go-name': 'Content' }),
  },
  {
    $id: 'ApplyDiffPatchFileOptions',
    description:
      'ApplyDiffPatchFileOptions options for applying a diff patch\nNote: `author` and `committer` are optional (if only one is given, it will be used for the other, otherwise the authenticated user will be used)',
  },
);
export type ApplyDiffPatchFileOptions = Static<typeof ApplyDiffPatchFileOptions>;
