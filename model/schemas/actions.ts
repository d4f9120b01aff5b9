// Generated from Forgejo's swagger (definitions section) and hand-checked; see index.ts for the conventions.
// Forgejo Actions: runs, jobs, runners, secrets, variables, artifacts.
//
// Conventions: request types (…Option/…Options/…Form) carry Forgejo's Go binding rules as
// `x-binding` + constraint; response types accept `null` for object refs, arrays, maps and date-times.
// `date-time`/`email` formats are kept as `x-format` annotations (never validated).
import { Type, type Static } from 'typebox';
import { Duration } from './common.ts';
import { Repository } from './repo.ts';
import { User } from './user.ts';

export const ActionArtifact = Type.Object(
  {
    archive_download_url: Type.Optional(
      Type.String({ description: 'the URL to download the artifact zip archive', 'x-go-name': 'ArchiveDownloadURL' }),
    ),
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'CreatedAt' })),
    expired: Type.Optional(Type.Boolean({ description: 'whether the artifact has expired', 'x-go-name': 'Expired' })),
    expires_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'ExpiresAt' })),
    id: Type.Optional(Type.Integer({ format: 'int64', description: "the artifact's ID", 'x-go-name': 'ID' })),
    name: Type.Optional(Type.String({ description: "the artifact's name", 'x-go-name': 'Name' })),
    run_id: Type.Optional(
      Type.Integer({ format: 'int64', description: 'the ID of the workflow run that produced this artifact', 'x-go-name': 'RunID' }),
    ),
    size_in_bytes: Type.Optional(
      Type.Integer({ format: 'int64', description: 'the total size of the artifact in bytes', 'x-go-name': 'SizeInBytes' }),
    ),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'UpdatedAt' })),
  },
  { $id: 'ActionArtifact', description: 'ActionArtifact represents an artifact of a workflow run' },
);
export type ActionArtifact = Static<typeof ActionArtifact>;

export const ActionRun = Type.Object(
  {
    ScheduleID: Type.Optional(
      Type.Integer({ format: 'int64', description: 'the cron id for the schedule trigger', 'x-go-name': 'ScheduleID' }),
    ),
    approved_by: Type.Optional(Type.Integer({ format: 'int64', description: 'who approved this action run', 'x-go-name': 'ApprovedBy' })),
    commit_sha: Type.Optional(Type.String({ description: 'the commit sha the action run ran on', 'x-go-name': 'CommitSHA' })),
    created: Type.Optional(
      Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], {
        description: 'when the action run was created',
        'x-go-name': 'Created',
      }),
    ),
    duration: Type.Optional(Type.With(Duration, { 'x-go-name': 'Duration' })),
    event: Type.Optional(Type.String({ description: 'the webhook event that causes the workflow to run', 'x-go-name': 'Event' })),
    event_payload: Type.Optional(
      Type.String({ description: 'the payload of the webhook event that causes the workflow to run', 'x-go-name': 'EventPayload' }),
    ),
    html_url: Type.Optional(Type.String({ description: 'the url of this action run', 'x-go-name': 'HTMLURL' })),
    id: Type.Optional(Type.Integer({ format: 'int64', description: 'the action run id', 'x-go-name': 'ID' })),
    index_in_repo: Type.Optional(
      Type.Integer({ format: 'int64', description: 'a unique number for each run of a repository', 'x-go-name': 'Index' }),
    ),
    is_fork_pull_request: Type.Optional(
      Type.Boolean({
        description:
          'If this is triggered by a PR from a forked repository or an untrusted user, we need to check if it is approved and limit permissions when running the workflow.',
        'x-go-name': 'IsForkPullRequest',
      }),
    ),
    is_ref_deleted: Type.Optional(
      Type.Boolean({ description: 'has the commit/tag/… the action run ran on been deleted', 'x-go-name': 'IsRefDeleted' }),
    ),
    need_approval: Type.Optional(
      Type.Boolean({ description: "may need approval if it's a fork pull request", 'x-go-name': 'NeedApproval' }),
    ),
    prettyref: Type.Optional(Type.String({ description: 'the commit/tag/… the action run ran on', 'x-go-name': 'PrettyRef' })),
    repository: Type.Optional(Type.Union([Repository, Type.Null()], { 'x-go-name': 'Repository' })),
    started: Type.Optional(
      Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], {
        description: 'when the action run was started',
        'x-go-name': 'Started',
      }),
    ),
    status: Type.Optional(Type.String({ description: 'the current status of this run', 'x-go-name': 'Status' })),
    stopped: Type.Optional(
      Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], {
        description: 'when the action run was stopped',
        'x-go-name': 'Stopped',
      }),
    ),
    title: Type.Optional(Type.String({ description: "the action run's title", 'x-go-name': 'Title' })),
    trigger_event: Type.Optional(
      Type.String({
        description: 'the trigger event defined in the `on` configuration of the triggered workflow',
        'x-go-name': 'TriggerEvent',
      }),
    ),
    trigger_user: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'TriggerUser' })),
    updated: Type.Optional(
      Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], {
        description: 'when the action run was last updated',
        'x-go-name': 'Updated',
      }),
    ),
    workflow_id: Type.Optional(Type.String({ description: 'the name of workflow file', 'x-go-name': 'WorkflowID' })),
  },
  { $id: 'ActionRun', description: 'ActionRun represents an action run' },
);
export type ActionRun = Static<typeof ActionRun>;

export const ActionRunJob = Type.Object(
  {
    attempt: Type.Optional(
      Type.Integer({
        format: 'int64',
        description: 'How many times the job has been attempted including the current attempt.',
        'x-go-name': 'Attempt',
      }),
    ),
    handle: Type.Optional(
      Type.String({ description: 'Opaque identifier that uniquely identifies a single attempt of a job.', 'x-go-name': 'Handle' }),
    ),
    id: Type.Optional(Type.Integer({ format: 'int64', description: 'Identifier of this job.', 'x-go-name': 'ID' })),
    name: Type.Optional(Type.String({ description: 'the action run job name', 'x-go-name': 'Name' })),
    needs: Type.Optional(
      Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'the action run job needed ids', 'x-go-name': 'Needs' }),
    ),
    owner_id: Type.Optional(Type.Integer({ format: 'int64', description: 'the owner id', 'x-go-name': 'OwnerID' })),
    repo_id: Type.Optional(Type.Integer({ format: 'int64', description: 'the repository id', 'x-go-name': 'RepoID' })),
    run_id: Type.Optional(
      Type.Integer({ format: 'int64', description: 'Identifier of the workflow run this job belongs to.', 'x-go-name': 'RunID' }),
    ),
    runs_on: Type.Optional(
      Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'the action run job labels to run on', 'x-go-name': 'RunsOn' }),
    ),
    status: Type.Optional(Type.String({ description: 'the action run job status', 'x-go-name': 'Status' })),
    task_id: Type.Optional(Type.Integer({ format: 'int64', description: 'the action run job latest task id', 'x-go-name': 'TaskID' })),
  },
  { $id: 'ActionRunJob', description: 'ActionRunJob represents a job of a run' },
);
export type ActionRunJob = Static<typeof ActionRunJob>;

export const ActionRunner = Type.Object(
  {
    description: Type.Optional(
      Type.String({ description: 'Description provides optional details about this runner.', 'x-go-name': 'Description' }),
    ),
    ephemeral: Type.Optional(Type.Boolean({ description: 'Indicates if runner is ephemeral runner', 'x-go-name': 'Ephemeral' })),
    id: Type.Optional(Type.Integer({ format: 'int64', description: 'ID uniquely identifies this runner.', 'x-go-name': 'ID' })),
    labels: Type.Optional(
      Type.Union([Type.Array(Type.String()), Type.Null()], {
        description: 'Labels is a list of labels attached to this runner.',
        'x-go-name': 'Labels',
      }),
    ),
    name: Type.Optional(Type.String({ description: 'Name of the runner; not unique.', 'x-go-name': 'Name' })),
    owner_id: Type.Optional(
      Type.Integer({
        format: 'int64',
        description:
          'OwnerID is the identifier of the user or organization this runner belongs to. O if the runner is owned by a\nrepository.',
        'x-go-name': 'OwnerID',
      }),
    ),
    repo_id: Type.Optional(
      Type.Integer({
        format: 'int64',
        description:
          'RepoID is the identifier of the repository this runner belongs to. 0 if the runner belongs to a user or\norganization.',
        'x-go-name': 'RepoID',
      }),
    ),
    status: Type.Optional(
      Type.Union([Type.Literal('offline'), Type.Literal('idle'), Type.Literal('active')], {
        description: 'Status indicates whether this runner is offline, or active, for example.',
        'x-go-name': 'Status',
      }),
    ),
    uuid: Type.Optional(Type.String({ description: 'UUID uniquely identifies this runner.', 'x-go-name': 'UUID' })),
    version: Type.Optional(
      Type.String({ description: 'Version is the self-reported version string of Forgejo Runner.', 'x-go-name': 'Version' }),
    ),
  },
  { $id: 'ActionRunner', description: 'ActionRunner represents a runner' },
);
export type ActionRunner = Static<typeof ActionRunner>;

export const ActionTask = Type.Object(
  {
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'CreatedAt' })),
    display_title: Type.Optional(Type.String({ 'x-go-name': 'DisplayTitle' })),
    event: Type.Optional(Type.String({ 'x-go-name': 'Event' })),
    head_branch: Type.Optional(Type.String({ 'x-go-name': 'HeadBranch' })),
    head_sha: Type.Optional(Type.String({ 'x-go-name': 'HeadSHA' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    run_number: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'RunNumber' })),
    run_started_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'RunStartedAt' })),
    status: Type.Optional(Type.String({ 'x-go-name': 'Status' })),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'UpdatedAt' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
    workflow_id: Type.Optional(Type.String({ 'x-go-name': 'WorkflowID' })),
  },
  { $id: 'ActionTask', description: 'ActionTask represents a ActionTask' },
);
export type ActionTask = Static<typeof ActionTask>;

export const ActionTaskResponse = Type.Object(
  {
    total_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'TotalCount' })),
    workflow_runs: Type.Optional(Type.Union([Type.Array(ActionTask), Type.Null()], { 'x-go-name': 'Entries' })),
  },
  { $id: 'ActionTaskResponse', description: 'ActionTaskResponse returns a ActionTask' },
);
export type ActionTaskResponse = Static<typeof ActionTaskResponse>;

export const ActionVariable = Type.Object(
  {
    data: Type.Optional(Type.String({ description: 'the value of the variable', 'x-go-name': 'Data' })),
    name: Type.Optional(Type.String({ description: 'the name of the variable', 'x-go-name': 'Name' })),
    owner_id: Type.Optional(
      Type.Integer({ format: 'int64', description: 'the owner to which the variable belongs', 'x-go-name': 'OwnerID' }),
    ),
    repo_id: Type.Optional(
      Type.Integer({ format: 'int64', description: 'the repository to which the variable belongs', 'x-go-name': 'RepoID' }),
    ),
  },
  { $id: 'ActionVariable', description: 'ActionVariable return value of the query API' },
);
export type ActionVariable = Static<typeof ActionVariable>;

export const CreateOrUpdateSecretOption = Type.Object(
  {
    data: Type.String({
      description:
        'Data of the secret. Special characters will be retained. Line endings will be normalized to LF to match the\nbehaviour of browsers. Encode the data with Base64 if line endings should be retained.',
      'x-go-name': 'Data',
    }),
  },
  { $id: 'CreateOrUpdateSecretOption', title: 'CreateOrUpdateSecretOption defines the properties of the secret to create or update.' },
);
export type CreateOrUpdateSecretOption = Static<typeof CreateOrUpdateSecretOption>;

export const CreateVariableOption = Type.Object(
  {
    value: Type.String({
      description:
        'Value of the variable to create. Special characters will be retained. Line endings will be normalized to LF to\nmatch the behaviour of browsers. Encode the data with Base64 if line endings should be retained.',
      'x-go-name': 'Value',
    }),
  },
  { $id: 'CreateVariableOption', title: 'CreateVariableOption defines the properties of the variable to create.' },
);
export type CreateVariableOption = Static<typeof CreateVariableOption>;

export const Cron = Type.Object(
  {
    exec_times: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ExecTimes' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    next: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Next' })),
    prev: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Prev' })),
    schedule: Type.Optional(Type.String({ 'x-go-name': 'Schedule' })),
  },
  { $id: 'Cron', description: 'Cron represents a Cron task' },
);
export type Cron = Static<typeof Cron>;

export const DispatchWorkflowOption = Type.Object(
  {
    inputs: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'Input keys and values configured in the workflow file.',
        'x-go-name': 'Inputs',
      }),
    ),
    ref: Type.String({ description: 'Git reference for the workflow', 'x-go-name': 'Ref' }),
    return_run_info: Type.Optional(
      Type.Boolean({ description: 'Flag to return the run info', 'x-go-name': 'ReturnRunInfo', default: false }),
    ),
  },
  { $id: 'DispatchWorkflowOption', description: 'DispatchWorkflowOption options when dispatching a workflow' },
);
export type DispatchWorkflowOption = Static<typeof DispatchWorkflowOption>;

export const DispatchWorkflowRun = Type.Object(
  {
    id: Type.Optional(Type.Integer({ format: 'int64', description: 'the workflow run id', 'x-go-name': 'ID' })),
    jobs: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'the jobs name', 'x-go-name': 'Jobs' })),
    run_number: Type.Optional(
      Type.Integer({ format: 'int64', description: 'a unique number for each run of a repository', 'x-go-name': 'RunNumber' }),
    ),
  },
  { $id: 'DispatchWorkflowRun', description: 'DispatchWorkflowRun represents a workflow run' },
);
export type DispatchWorkflowRun = Static<typeof DispatchWorkflowRun>;

export const ListActionRunResponse = Type.Object(
  {
    total_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'TotalCount' })),
    workflow_runs: Type.Optional(Type.Union([Type.Array(ActionRun), Type.Null()], { 'x-go-name': 'Entries' })),
  },
  { $id: 'ListActionRunResponse', description: 'ListActionRunResponse return a list of ActionRun' },
);
export type ListActionRunResponse = Static<typeof ListActionRunResponse>;

export const RegisterRunnerOptions = Type.Object(
  {
    description: Type.Optional(Type.String({ description: 'Description of the runner to register.', 'x-go-name': 'Description' })),
    ephemeral: Type.Optional(
      Type.Boolean({
        description: 'Register as ephemeral runner https://forgejo.org/docs/latest/admin/actions/security/#ephemeral-runner',
        'x-go-name': 'Ephemeral',
      }),
    ),
    name: Type.String({
      maxLength: 255,
      description: 'Name of the runner to register. The name of the runner does not have to be unique.',
      'x-go-name': 'Name',
    }),
  },
  { $id: 'RegisterRunnerOptions', title: 'RegisterRunnerOptions declares the accepted options for registering runners.' },
);
export type RegisterRunnerOptions = Static<typeof RegisterRunnerOptions>;

export const RegisterRunnerResponse = Type.Object(
  {
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    token: Type.Optional(Type.String({ 'x-go-name': 'Token' })),
    uuid: Type.Optional(Type.String({ 'x-go-name': 'UUID' })),
  },
  { $id: 'RegisterRunnerResponse', title: 'RegisterRunnerResponse contains the details of the just registered runner.' },
);
export type RegisterRunnerResponse = Static<typeof RegisterRunnerResponse>;

export const RegistrationToken = Type.Object(
  {
    token: Type.Optional(Type.String({ 'x-go-name': 'Token' })),
  },
  { $id: 'RegistrationToken', description: 'RegistrationToken is a string used to register a runner with a server' },
);
export type RegistrationToken = Static<typeof RegistrationToken>;

export const Secret = Type.Object(
  {
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    name: Type.Optional(Type.String({ description: "the secret's name", 'x-go-name': 'Name' })),
  },
  { $id: 'Secret', description: 'Secret represents a secret' },
);
export type Secret = Static<typeof Secret>;

export const UpdateVariableOption = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        maxLength: 255,
        description:
          "New name for the variable. If the field is empty, the variable name won't be updated. Forgejo will convert it to\nuppercase.",
        'x-go-name': 'Name',
      }),
    ),
    value: Type.String({
      description:
        'Value of the variable to update. Special characters will be retained. Line endings will be normalized to LF to\nmatch the behaviour of browsers. Encode the data with Base64 if line endings should be retained.',
      'x-go-name': 'Value',
    }),
  },
  { $id: 'UpdateVariableOption', title: 'UpdateVariableOption defines the properties of the variable to update.' },
);
export type UpdateVariableOption = Static<typeof UpdateVariableOption>;
