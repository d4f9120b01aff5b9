import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Compile } from 'typebox/compile';
import {
  ApiSchemas,
  BodySchemas,
  compileBody,
  validateResponse,
  type BodySchemaName,
  type CreateRepoOption,
  type Repository,
} from '../../model/schemas/index.ts';

const msg = (schema: Parameters<typeof compileBody>[0], body: unknown): string | undefined => {
  const r = compileBody(schema)(body);
  return r.ok ? undefined : r.message;
};

test('every ApiSchemas entry compiles and carries its $id', () => {
  const names = Object.keys(ApiSchemas);
  assert.ok(names.length >= 246, `only ${names.length} schemas`);
  for (const [name, schema] of Object.entries(ApiSchemas)) {
    const c = Compile(schema);
    assert.type(c.Check, 'function', name);
    assert.is((schema as { $id?: string }).$id, name, `${name} $id`);
  }
});

test('every BodySchemas entry compiles and accepts an object', () => {
  assert.is(Object.keys(BodySchemas).length, 84);
  for (const schema of Object.values(BodySchemas)) {
    assert.type(compileBody(schema), 'function');
  }
  assert.ok(compileBody(BodySchemas.Activity)({ type: 'Follow', actor: 'https://x/y', object: {} }).ok);
});

test('CreateRepoOption binding rules', () => {
  const S = BodySchemas.CreateRepoOption;
  assert.is(msg(S, {}), '[Name]: Required');
  assert.is(msg(S, { name: '' }), '[Name]: Required');
  assert.is(msg(S, { name: 'a b' }), '[Name]: AlphaDashDot');
  assert.is(msg(S, { name: 'x'.repeat(101) }), '[Name]: MaxSize');
  assert.is(msg(S, { name: 'ok', description: 'd'.repeat(2049) }), '[Description]: MaxSize');
  assert.is(msg(S, { name: 'ok', default_branch: 'a..b' }), '[DefaultBranch]: GitRefName');
  assert.is(msg(S, { name: 'ok', private: 'yes' }), '[Private]: Invalid');
  assert.is(msg(S, { name: 'ok', trust_model: 'bogus' }), '[TrustModel]: In');
  assert.is(msg(S, { name: 'ok', trust_model: 5 }), '[TrustModel]: Invalid');
  assert.is(msg(S, 'nope'), '[]: Invalid');
  assert.is(msg(S, [1]), '[]: Invalid');
  const ok = compileBody(S)({
    name: 'my-repo.v2_x',
    description: 'x',
    private: true,
    auto_init: true,
    default_branch: 'main',
    trust_model: '',
    unknown_field: 1,
    license: null,
  });
  assert.ok(ok.ok);
  if (ok.ok) {
    assert.is(ok.value.name, 'my-repo.v2_x');
    assert.not.ok('license' in ok.value, 'null fields are dropped like Go does');
  }
});

test('EditRepoOption allows partial bodies', () => {
  const S = BodySchemas.EditRepoOption;
  assert.is(msg(S, {}), undefined);
  assert.is(msg(S, { name: 'bad name' }), '[Name]: AlphaDashDot');
  assert.is(msg(S, { website: 'w'.repeat(1025) }), '[Website]: MaxSize');
  assert.is(msg(S, { internal_tracker: { enable_time_tracker: 'x' } }), '[EnableTimeTracker]: Invalid');
});

test('CreateUserOption / EditUserOption', () => {
  const S = BodySchemas.CreateUserOption;
  assert.is(msg(S, { username: 'bob' }), '[Email]: Required');
  assert.is(msg(S, { email: 'bob@example.com' }), '[Username]: Required');
  assert.is(msg(S, { username: 'bob', email: 'not-an-email' }), '[Email]: Email');
  assert.is(msg(S, { username: 'b o b', email: 'bob@example.com' }), '[Username]: Username');
  assert.is(msg(S, { username: 'b'.repeat(41), email: 'bob@example.com' }), '[Username]: MaxSize');
  assert.is(msg(S, { username: 'bob', email: 'bob@example.com', visibility: 'secret' }), '[Visibility]: In');
  assert.is(msg(S, { username: 'bob', email: 'bob@example.com', password: 'p'.repeat(256) }), '[Password]: MaxSize');
  assert.is(msg(S, { username: 'bob', email: 'bob@example.com', password: 'secret', must_change_password: false }), undefined);
  assert.is(msg(BodySchemas.EditUserOption, { email: 'nope' }), '[Email]: Email');
  assert.is(msg(BodySchemas.EditUserOption, { website: 'ftp://x' }), '[Website]: Url');
  assert.is(msg(BodySchemas.EditUserOption, { website: '', active: true }), undefined);
});

test('CreateOrgOption / teams', () => {
  const S = BodySchemas.CreateOrgOption;
  assert.is(msg(S, {}), '[UserName]: Required');
  assert.is(msg(S, { username: 'org', website: 'notaurl' }), '[Website]: Url');
  assert.is(msg(S, { username: 'org', website: 'https://example.com', visibility: 'private' }), undefined);
  assert.is(msg(S, { username: 'org', visibility: 'hidden' }), '[Visibility]: In');
  assert.is(msg(S, { username: 'org', location: 'l'.repeat(51) }), '[Location]: MaxSize');
  assert.is(msg(S, { username: 'org', email: 'x' }), '[Email]: Email');
  assert.is(msg(BodySchemas.CreateTeamOption, {}), '[Name]: Required');
  assert.is(msg(BodySchemas.CreateTeamOption, { name: 'a team' }), '[Name]: AlphaDashDot');
  assert.is(msg(BodySchemas.CreateTeamOption, { name: 'devs', permission: 'owner' }), '[Permission]: In');
  assert.is(msg(BodySchemas.CreateTeamOption, { name: 'devs', permission: 'write', units_map: { 'repo.code': 'read' } }), undefined);
  assert.is(msg(BodySchemas.EditTeamOption, { description: 'only this' }), undefined);
  assert.is(msg(BodySchemas.AddCollaboratorOption, { permission: 'whatever' }), undefined);
});

test('labels, branches, tags, hooks, issues, files', () => {
  assert.is(msg(BodySchemas.CreateLabelOption, { name: 'bug' }), '[Color]: Required');
  assert.is(msg(BodySchemas.CreateLabelOption, { name: 'bug', color: 'red' }), '[Color]: Pattern');
  assert.is(msg(BodySchemas.CreateLabelOption, { name: 'bug', color: '#zzzzzz' }), '[Color]: Pattern');
  assert.is(msg(BodySchemas.CreateLabelOption, { name: 'bug', color: '#00aabb' }), undefined);
  assert.is(msg(BodySchemas.CreateLabelOption, { name: 'bug', color: 'fff' }), undefined);
  assert.is(msg(BodySchemas.CreateBranchRepoOption, {}), '[BranchName]: Required');
  assert.is(msg(BodySchemas.CreateBranchRepoOption, { new_branch_name: 'feature/x' }), undefined);
  assert.is(msg(BodySchemas.CreateBranchRepoOption, { new_branch_name: 'bad..name' }), '[BranchName]: GitRefName');
  assert.is(msg(BodySchemas.CreateBranchRepoOption, { new_branch_name: 'b'.repeat(101) }), '[BranchName]: MaxSize');
  assert.is(msg(BodySchemas.CreateTagOption, { tag_name: 'v1.0 ' }), '[TagName]: GitRefName');
  assert.is(msg(BodySchemas.CreateTagOption, { tag_name: 'v1.0.0' }), undefined);
  assert.is(msg(BodySchemas.CreateHookOption, { type: 'gitea' }), '[Config]: Required');
  assert.is(msg(BodySchemas.CreateHookOption, { type: 'gitea', config: { url: 'http://x', content_type: 'json' } }), undefined);
  // Any hook type binds; lib/webhooks/webhooks.ts answers Forgejo's `Invalid hook type: <t>` (test/handlers/hooks.test.ts).
  assert.is(msg(BodySchemas.CreateHookOption, { type: 'nope', config: {} }), undefined);
  assert.is(msg(BodySchemas.CreateHookOption, { config: {} }), '[Type]: Required');
  assert.is(msg(BodySchemas.CreateKeyOption, { title: 't' }), '[Key]: Required');
  assert.is(msg(BodySchemas.CreateAccessTokenOption, { scopes: ['all'] }), '[Name]: Required');
  assert.is(msg(BodySchemas.CreateMilestoneOption, {}), '[Title]: Required');
  assert.is(msg(BodySchemas.CreateIssueOption, { title: '' }), '[Title]: Required');
  assert.is(msg(BodySchemas.CreateIssueOption, { title: 'x', labels: ['a'] }), '[Labels]: Invalid');
  assert.is(msg(BodySchemas.CreateIssueOption, { title: 'x', labels: [1, 2], due_date: 'whenever' }), undefined);
  assert.is(msg(BodySchemas.CreateFileOptions, { message: 'm' }), '[ContentBase64]: Required');
  assert.is(
    msg(BodySchemas.ChangeFilesOptions, { files: [{ operation: 'create', path: 'a' }, { operation: 'create' }] }),
    '[Path]: Required',
  );
  assert.is(msg(BodySchemas.ChangeFilesOptions, { files: [{ operation: 'explode', path: 'a' }] }), '[Operation]: In');
  assert.is(msg(BodySchemas.MergePullRequestForm, {}), '[Do]: Required');
  assert.is(msg(BodySchemas.MergePullRequestForm, { Do: 'squash', delete_branch_after_merge: true }), undefined);
  assert.is(msg(BodySchemas.ApplyDiffPatchFileOptions, { branch: 'main' }), '[SHA]: Required');
  assert.is(msg(BodySchemas.ApplyDiffPatchFileOptions, { sha: 'abc' }), '[Content]: Required');
  assert.is(msg(BodySchemas.UpdateFileOptions, { sha: 'abc', content: 'eA==', branch: 'a b' }), '[BranchName]: GitRefName');
  assert.is(msg(BodySchemas.CreateEmailOption, { emails: ['a@b.c'] }), undefined);
  assert.is(msg(BodySchemas.CreateEmailOption, { emails: 'a@b.c' }), '[Emails]: Invalid');
});

test('the first failing field in Go struct order is reported; decode errors win', () => {
  assert.is(msg(BodySchemas.CreateRepoOption, { description: 'd'.repeat(3000) }), '[Name]: Required');
  assert.is(
    msg(BodySchemas.CreateRepoOption, { name: 'ok', description: 'd'.repeat(3000), default_branch: '..' }),
    '[Description]: MaxSize',
  );
  assert.is(msg(BodySchemas.CreateRepoOption, { name: 'x y', private: 'no' }), '[Private]: Invalid');
  assert.is(msg(BodySchemas.CreateRepoOption, { name: 'a b'.repeat(50) }), '[Name]: AlphaDashDot');
  assert.is(msg(BodySchemas.CreateUserOption, {}), '[Username]: Required');
  assert.is(msg(BodySchemas.CreateLabelOption, {}), '[Name]: Required');
  assert.is(msg(BodySchemas.CreateKeyOption, {}), '[Title]: Required');
  assert.is(msg(BodySchemas.CreateHookOption, {}), '[Type]: Required');
  assert.is(msg(BodySchemas.CreatePullRequestOption, { title: 't' }), '[Head]: Required');
  assert.is(msg(BodySchemas.GenerateRepoOption, {}), '[Owner]: Required');
});

const user = {
  id: 1,
  login: 'alice',
  login_name: '',
  source_id: 0,
  full_name: 'Alice',
  email: 'alice@example.com',
  avatar_url: 'http://localhost/avatar',
  html_url: 'http://localhost/alice',
  language: '',
  is_admin: false,
  last_login: '0001-01-01T00:00:00Z',
  created: '2024-01-01T00:00:00Z',
  restricted: false,
  active: true,
  prohibit_login: false,
  location: '',
  pronouns: '',
  website: '',
  description: '',
  visibility: 'public',
  followers_count: 0,
  following_count: 0,
  starred_repos_count: 0,
  username: 'alice',
};
const repo = {
  id: 7,
  owner: user,
  name: 'demo',
  full_name: 'alice/demo',
  description: '',
  empty: false,
  private: false,
  fork: false,
  template: false,
  parent: null,
  mirror: false,
  size: 12,
  language: '',
  languages_url: 'x',
  html_url: 'x',
  url: 'x',
  link: '',
  ssh_url: 'x',
  clone_url: 'x',
  original_url: '',
  website: '',
  stars_count: 0,
  forks_count: 0,
  watchers_count: 1,
  open_issues_count: 0,
  open_pr_counter: 0,
  release_counter: 0,
  default_branch: 'main',
  archived: false,
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
  archived_at: '1970-01-01T00:00:00Z',
  permissions: { admin: true, push: true, pull: true },
  has_issues: true,
  internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true },
  has_wiki: true,
  has_pull_requests: true,
  has_projects: true,
  has_releases: true,
  has_packages: true,
  has_actions: true,
  ignore_whitespace_conflicts: false,
  allow_merge_commits: true,
  allow_rebase: true,
  allow_rebase_explicit: true,
  allow_squash_merge: true,
  allow_fast_forward_only_merge: true,
  allow_rebase_update: true,
  default_delete_branch_after_merge: false,
  default_merge_style: 'merge',
  default_allow_maintainer_edit: false,
  avatar_url: '',
  internal: false,
  mirror_interval: '',
  object_format_name: 'sha1',
  mirror_updated: '0001-01-01T00:00:00Z',
  repo_transfer: null,
  topics: null,
};

test('response schemas: Repository', () => {
  const r = validateResponse(ApiSchemas.Repository, repo);
  assert.ok(r.ok, JSON.stringify(r));
  assert.ok(validateResponse(ApiSchemas.Repository, { ...repo, parent: { ...repo, id: 3, parent: null } }).ok);
  assert.not.ok(validateResponse(ApiSchemas.Repository, { ...repo, id: 'x' }).ok);
  assert.not.ok(validateResponse(ApiSchemas.Repository, { ...repo, owner: { ...user, id: 1.5 } }).ok);
  assert.not.ok(validateResponse(ApiSchemas.Repository, { ...repo, object_format_name: 'md5' }).ok);
  assert.not.ok(validateResponse(ApiSchemas.Repository, { ...repo, name: null }).ok);
  assert.ok(validateResponse(ApiSchemas.User, user).ok);
  assert.ok(validateResponse(ApiSchemas.QuotaGroupList, [{ name: 'g', rules: null }]).ok);
  assert.ok(validateResponse(ApiSchemas.APIValidationError, { message: '[Name]: Required', url: 'x' }).ok);
});

test('static types are usable', () => {
  const body: CreateRepoOption = { name: 'x', private: true, trust_model: 'committer' };
  const name: BodySchemaName = 'MergePullRequestForm';
  const r: Pick<Repository, 'id' | 'parent'> = { id: 1, parent: null };
  assert.is(body.name, 'x');
  assert.ok(name in BodySchemas);
  assert.is(r.parent, null);
});

test.run();
