// Query parameters as data: each route row names one of these schemas, the
// interpreter parses the query string with it before the chain (lib/http/query-params.ts), handlers read
// the typed result, and /swagger.v1.json documents the same declaration. Names, types, enums and
// defaults are transcribed from Forgejo's API description.
//
// A field's `x-parse` says how its text becomes a value, the way Forgejo's form helpers read it:
//   atoi      Go's strconv.Atoi: anything that is not an integer is 0 (ctx.FormInt)
//   bool      Go's ParseBool as ctx.FormBool: absent or empty is the default, anything unparsable false
//   optbool   ctx.FormOptionalBool: absent, empty or unparsable leaves the filter off (undefined)
//   string    the first value as given
//   enum      one of `enum`; anything else is the default, or, with `x-invalid`, an error; with
//             `x-unchecked` any text is kept (the handler decides, when validity depends on another field)
//   list      every value of a repeated parameter, as given; `x-comma` also splits a,b and drops empty
//             items; with `x-invalid`, an item outside the items' `enum` is an error
//   time      RFC 3339 or an error (Forgejo answers Go's parse error); empty is absent
// `x-invalid` is the error message (`{name}` and `{value}` filled in), `x-status` its status (422).
import { Type, type Static, type TSchema } from 'typebox';

export type QueryParse = 'atoi' | 'bool' | 'optbool' | 'string' | 'enum' | 'list' | 'time';

interface FieldOpts {
  description?: string;
  invalid?: string;
  status?: 400 | 422;
}
const meta = (parse: QueryParse, o: FieldOpts) => ({
  'x-parse': parse,
  ...(o.description ? { description: o.description } : {}),
  ...(o.invalid ? { 'x-invalid': o.invalid } : {}),
  ...(o.status ? { 'x-status': o.status } : {}),
});

export const int = (description: string, dflt?: number) =>
  Type.Optional(Type.Integer({ ...meta('atoi', { description }), ...(dflt === undefined ? {} : { default: dflt }) }));
export const bool = (description: string, dflt?: boolean) =>
  Type.Optional(Type.Boolean({ ...meta('bool', { description }), ...(dflt === undefined ? {} : { default: dflt }) }));
export const optBool = (description: string) => Type.Optional(Type.Boolean(meta('optbool', { description })));
export const str = (description: string, dflt?: string) =>
  Type.Optional(Type.String({ ...meta('string', { description }), ...(dflt === undefined ? {} : { default: dflt }) }));
export const oneOf = <const T extends readonly string[]>(values: T, o: FieldOpts & { default?: T[number] } = {}) =>
  Type.Optional(Type.Enum([...values] as T[number][], { ...meta('enum', o), ...(o.default === undefined ? {} : { default: o.default }) }));
/** An enum documented as such whose value is checked by the handler, against another field. */
export const oneOfUnchecked = (values: readonly string[], description: string) =>
  Type.Optional(Type.String({ ...meta('enum', { description }), enum: [...values], 'x-unchecked': true }));
export const list = (description: string, o: FieldOpts & { enum?: readonly string[]; comma?: boolean } = {}) =>
  Type.Array(Type.String(o.enum ? { enum: [...o.enum] } : {}), {
    ...meta('list', { ...o, description }),
    ...(o.comma ? { 'x-comma': true } : {}),
  });
/** A list documented as integers whose items stay text: the handler words the error for one that is not a number. */
export const intList = (description: string) =>
  Type.Array(Type.Unsafe<string>({ type: 'integer' }), { ...meta('list', { description }), 'x-comma': true });
const GO_TIME = 'parsing time "{value}" as "2006-01-02T15:04:05Z07:00": cannot parse "{value}" as "2006"';
export const time = (description: string, o: FieldOpts = {}) =>
  Type.Optional(Type.Unsafe<Date>({ type: 'string', format: 'date-time', ...meta('time', { invalid: GO_TIME, ...o, description }) }));

// Shared fields.
const page = int('page number of results to return (1-based)', 1);
const limit = int('page size of results');
const PAGED = { page, limit } as const;
const q = str('keyword');
const since = time('Only show items updated after the given time. This is a timestamp in RFC 3339 format');
const before = time('Only show items updated before the given time. This is a timestamp in RFC 3339 format');
const ref = str("The name of the commit/branch/tag. Default the repository's default branch");
const fingerprint = str('fingerprint of the key');
const date = str('the date of the activities to be found (YYYY-MM-DD)');
const USER_SORTS = ['oldest', 'newest', 'alphabetically', 'reversealphabetically', 'recentupdate', 'leastupdate'] as const;
const ISSUE_SORTS = [
  'relevance',
  'latest',
  'oldest',
  'recentupdate',
  'leastupdate',
  'mostcomment',
  'leastcomment',
  'nearduedate',
  'farduedate',
] as const;
const STATUS_SORTS = ['oldest', 'recentupdate', 'leastupdate', 'leastindex', 'highestindex'] as const;
const STATUS_STATES = ['pending', 'success', 'error', 'failure', 'warning'] as const;
const LABEL_SORTS = ['mostissues', 'leastissues', 'reversealphabetically'] as const;
const RUN_STATUSES = ['unknown', 'waiting', 'running', 'success', 'failure', 'cancelled', 'skipped', 'blocked'] as const;
const RUN_STATUS_OPTS = { enum: RUN_STATUSES, invalid: 'unknown status: {value}', status: 400 } as const;
const PACKAGE_TYPES = [
  'alpine',
  'cargo',
  'chef',
  'composer',
  'conan',
  'conda',
  'container',
  'cran',
  'debian',
  'generic',
  'go',
  'helm',
  'maven',
  'npm',
  'nuget',
  'pub',
  'pypi',
  'rpm',
  'rubygems',
  'swift',
  'vagrant',
] as const;
const ORDER_BY = [
  'name',
  'id',
  'newest',
  'oldest',
  'recentupdate',
  'leastupdate',
  'reversealphabetically',
  'alphabetically',
  'reversesize',
  'size',
  'reversegitsize',
  'gitsize',
  'reverselfssize',
  'lfssize',
  'moststars',
  'feweststars',
  'mostforks',
  'fewestforks',
] as const;
const REPO_SORTS = ['alpha', 'created', 'updated', 'size', 'git_size', 'lfs_size', 'id', 'stars', 'forks'] as const;
const statusTypes = list('filter notifications by status type (repeatable)');
const commitFlags = {
  stat: bool('include diff stats for every commit (disable for speedup)', true),
  verification: bool('include verification for every commit (disable for speedup)', true),
  files: bool('include a list of affected files for every commit (disable for speedup)', true),
};

/** Every query declaration a route row may name. */
export const QuerySchemas = {
  Paged: Type.Object(PAGED),
  Ref: Type.Object({ ref }),
  Search: Type.Object({ q, ...PAGED }),
  Keys: Type.Object({ fingerprint, ...PAGED }),
  RepoKeys: Type.Object({ key_id: int('the key_id to search for'), fingerprint, ...PAGED }),
  Feeds: Type.Object({ date, ...PAGED }),
  UserFeeds: Type.Object({ 'only-performed-by': bool('if true, only show actions performed by the requested user'), date, ...PAGED }),
  TimeRange: Type.Object({ since, before, ...PAGED }),
  Runners: Type.Object({
    visible: bool('whether to include all visible runners (true) or only those directly owned by the owner (false)'),
    ...PAGED,
  }),
  RunnerJobs: Type.Object({ labels: str('a comma separated list of run job labels to search for') }),
  QuotaCheck: Type.Object({ subject: str('subject of the quota') }),
  Notifications: Type.Object({
    all: bool('If true, show notifications marked as read. Default value is false'),
    'status-types': statusTypes,
    'subject-type': list('filter notifications by subject type (repeatable)', { enum: ['issue', 'pull', 'repository'] }),
    since,
    before,
    ...PAGED,
  }),
  NotificationsRead: Type.Object({
    last_read_at: time('Describes the last point that notifications were checked. Anything updated since this time will not be updated.', {
      status: 400,
    }),
    all: bool('If true, mark all notifications on this repo. Default value is false'),
    'status-types': statusTypes,
    'to-status': str('Status to mark notifications as, Defaults to read.'),
  }),
  NotificationThread: Type.Object({ 'to-status': str('Status to mark notifications as', 'read') }),
  UserSearch: Type.Object({
    q,
    uid: int('ID of the user to search for'),
    sort: oneOf(USER_SORTS, { description: 'sort users by attribute' }),
    ...PAGED,
  }),
  AdminUsers: Type.Object({
    source_id: int("ID of the user's login source to search for"),
    login_name: str("user's login name to search for"),
    is_2fa_enabled: optBool('whether the users have two-factor authentication enabled'),
    sort: oneOf(USER_SORTS, { description: 'sort users by attribute' }),
    ...PAGED,
  }),
  Purge: Type.Object({ purge: bool('purge the user from the system completely') }),
  Unadopted: Type.Object({
    ...PAGED,
    pattern: str('pattern of repositories to search for'),
    query: str("the same as `pattern`: the name Forgejo's handler reads"),
  }),
  MyRepos: Type.Object({
    ...PAGED,
    order_by: oneOf(ORDER_BY, { default: 'name', invalid: 'Invalid order_by: "{value}"', description: 'order the repositories' }),
  }),
  RepoSearch: Type.Object({
    q,
    topic: bool('Limit search to repositories with keyword as topic'),
    includeDesc: bool('include search of keyword within repository description'),
    uid: int('search only for repos that the user with the given id owns or contributes to'),
    priority_owner_id: int('repo owner to prioritize in the results'),
    team_id: int('search only for repos that belong to the given team id'),
    starredBy: int('search only for repos that the user with the given id has starred'),
    private: bool('include private repositories this user has access to (defaults to true)'),
    is_private: bool('show only public, private or all repositories (defaults to all)'),
    template: bool('include template repositories this user has access to (defaults to true)'),
    archived: bool('show only archived, non-archived or all repositories (defaults to all)'),
    mode: oneOf(['fork', 'source', 'mirror', 'collaborative'], {
      invalid: 'Invalid search mode: "{value}"',
      description: 'type of repository to search for',
    }),
    exclusive: bool('if `uid` is given, search only for repos that the user owns'),
    sort: oneOfUnchecked(REPO_SORTS, 'sort repos by attribute'),
    order: oneOfUnchecked(['asc', 'desc'], 'sort order, either "asc" (ascending) or "desc" (descending); only with `sort`'),
    ...PAGED,
  }),
  IssueSearch: Type.Object({
    state: oneOf(['open', 'closed', 'all'], { description: 'State of the issue', default: 'open' }),
    labels: str('Filter by labels (comma separated)'),
    milestones: str('Filter by milestone names (comma separated)'),
    q,
    priority_repo_id: int('Repository ID to prioritize in the results'),
    type: oneOf(['issues', 'pulls'], { description: 'Filter by type (Issues or Pulls) if set' }),
    since,
    before,
    assigned: bool('Filter issues or pulls assigned to the authenticated user', false),
    created: bool('Filter issues or pulls created by the authenticated user', false),
    mentioned: bool('Filter issues or pulls mentioning the authenticated user', false),
    review_requested: bool("Filter pull requests where the authenticated user's review was requested", false),
    reviewed: bool('Filter pull requests reviewed by the authenticated user', false),
    owner: str('Filter by repository owner'),
    team: str('Filter by team (requires organization owner parameter)'),
    ...PAGED,
    sort: oneOf(ISSUE_SORTS, { description: 'Type of sort', default: 'latest' }),
  }),
  IssueList: Type.Object({
    state: oneOf(['closed', 'open', 'all'], { description: 'whether issue is open or closed', default: 'open' }),
    labels: str('comma separated list of labels'),
    q: str('search string'),
    type: oneOf(['issues', 'pulls'], { description: 'filter by type (issues / pulls) if set' }),
    milestones: str('comma separated list of milestone names or ids'),
    since,
    before,
    created_by: str('Only show items which were created by the given user'),
    assigned_by: str('Only show items for which the given user is assigned'),
    mentioned_by: str('Only show items in which the given user was mentioned'),
    ...PAGED,
    sort: oneOf(ISSUE_SORTS, { description: 'Type of sort', default: 'latest' }),
  }),
  Comments: Type.Object({ since, before, ...PAGED }),
  CommentRange: Type.Object({ since, before }),
  TrackedTimes: Type.Object({ user: str('optional filter by user (available for issue managers)'), since, before, ...PAGED }),
  Milestones: Type.Object({
    state: str('Milestone state, Recognized values are open, closed and all. Defaults to "open"'),
    name: str('filter by milestone name'),
    ...PAGED,
  }),
  Labels: Type.Object({ sort: oneOf(LABEL_SORTS, { description: 'Specifies the sorting method' }), ...PAGED }),
  Releases: Type.Object({
    draft: optBool('filter (exclude / include) drafts, if you dont have repo write access none will show'),
    'pre-release': optBool('filter (exclude / include) pre-releases'),
    q: str('Search string'),
    ...PAGED,
  }),
  AssetUpload: Type.Object({
    name: str('name of the attachment'),
    external_url: str("URL of an external asset instead of an upload (Go's FormValue reads the form or the query)"),
  }),
  AttachmentUpload: Type.Object({
    name: str('name of the attachment'),
    updated_at: str("time of the attachment's creation. This is a timestamp in RFC 3339 format"),
  }),
  HookTest: Type.Object({ ref: str('The name of the commit/branch/tag, indicates which commit will be loaded to the webhook payload.') }),
  AdminHooks: Type.Object({
    ...PAGED,
    type: oneOf(['system', 'default', 'all'], { description: 'system, default or both kinds of webhooks', default: 'system' }),
  }),
  WikiRevisions: Type.Object({ page }),
  Statuses: Type.Object({
    sort: oneOf(STATUS_SORTS, { description: 'type of sort' }),
    state: oneOfUnchecked(STATUS_STATES, 'type of state (any other value matches no status)'),
    ...PAGED,
  }),
  Commits: Type.Object({
    sha: str("SHA or branch to start listing commits from (usually 'master')"),
    path: str('filepath of a file/dir'),
    ...commitFlags,
    ...PAGED,
    not: str('commits that match the given specifier will not be listed.'),
    since: time('Only commits after this date will be returned (ISO 8601 format)', {
      invalid: 'invalid since: parsing time "{value}" as "2006-01-02T15:04:05Z07:00": cannot parse',
    }),
    until: time('Only commits before this date will be returned (ISO 8601 format)', {
      invalid: 'invalid until: parsing time "{value}" as "2006-01-02T15:04:05Z07:00": cannot parse',
    }),
  }),
  CommitFlags: Type.Object(commitFlags),
  NoteFlags: Type.Object({ verification: commitFlags.verification, files: commitFlags.files }),
  Tree: Type.Object({
    recursive: bool('show all directories and files', false),
    page: int(
      "page number; the 'truncated' field in the response will be true if there are still more items after this page, false if the last page",
    ),
    per_page: int('number of items per page'),
  }),
  Blobs: Type.Object({ shas: str('a comma separated list of blob-sha (mind the overall URL-length limit of ~2,083 chars)') }),
  Pulls: Type.Object({
    state: str('State of pull request', 'open'),
    sort: str('Type of sort'),
    milestone: int('ID of the milestone'),
    labels: intList('Label IDs'),
    poster: str('Filter by pull request author'),
    base: str('Filter by target base branch of the pull request'),
    head: str('Filter by head branch of the pull request'),
    ...PAGED,
  }),
  PullByBranch: Type.Object({ state: str('State of the pull request (open, closed; anything else: any)') }),
  PullDiff: Type.Object({
    binary: bool('whether to include binary file changes. if true, the diff is applicable with `git apply`', false),
  }),
  PullUpdate: Type.Object({ style: str('how to update pull request (merge or rebase)') }),
  PullCommits: Type.Object({ ...PAGED, verification: commitFlags.verification, files: commitFlags.files }),
  PullFiles: Type.Object({
    'skip-to': str('skip to given file'),
    whitespace: oneOf(['ignore-all', 'ignore-change', 'ignore-eol', 'show-all'], { description: 'whitespace behavior' }),
    ...PAGED,
  }),
  ActionTasks: Type.Object({ ...PAGED, status: list('Returns tasks with the given statuses (repeatable)', RUN_STATUS_OPTS) }),
  Artifacts: Type.Object({ name: str('name of the artifact'), ...PAGED }),
  JobLogs: Type.Object({ attempt: int('attempt of the job; the latest when not given') }),
  Runs: Type.Object({
    ...PAGED,
    event: list('Returns workflow run triggered by the specified events (repeatable)'),
    status: list('Returns workflow runs with the given statuses (repeatable)', RUN_STATUS_OPTS),
    run_number: int('Returns the workflow run with the provided run number'),
    head_sha: str('Only returns workflow runs that are associated with the specified head_sha'),
    ref: str('Only returns workflow runs that are associated with the specified ref'),
    workflow_id: str('Only returns workflow runs of the workflow with this file name'),
  }),
  Packages: Type.Object({
    ...PAGED,
    type: oneOfUnchecked(PACKAGE_TYPES, 'package type filter (any other value matches no package)'),
    q: str('name filter'),
  }),
  TeamSearch: Type.Object({ q, include_desc: bool('include search within team description (defaults to true)', true), ...PAGED }),
} as const satisfies Record<string, TSchema>;

export type QuerySchemaName = keyof typeof QuerySchemas;
/** What a handler reads for a row naming `N`. */
export type QueryOf<N extends QuerySchemaName> = Static<(typeof QuerySchemas)[N]>;
/** The parsed query of any row: every declared name, present when given or defaulted. */
export type QueryValues = Readonly<Record<string, unknown>>;
