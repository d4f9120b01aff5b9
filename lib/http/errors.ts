// One error type for the whole service, rendered in Forgejo's JSON shapes
// (reference: forgejo-facts 1.1, 1.2): {message, url}, 404 adds `errors`, a few bodies carry only `message`.

export class HttpError extends Error {
  readonly status: number;
  /** Extra keys of the body (404 `errors`, 413 `user_id`), or `bare` for the `{message}`-only replies; response headers (429 `Retry-After`). */
  readonly extra: { errors?: string[]; bare?: boolean; fields?: Record<string, unknown>; headers?: Record<string, string> };
  constructor(status: number, message: string, extra: HttpError['extra'] = {}) {
    super(message);
    this.status = status;
    this.extra = extra;
  }
}

export const notFound = (message = NOT_FOUND, errors: string[] = []) => new HttpError(404, message, { errors });
export const forbidden = (message: string) => new HttpError(403, message);
/**
 * A 403 Forgejo answers for the state of the data (a duplicate protection rule, a re-review on a closed
 * pull), whoever asks: not a permission decision, so it may be built outside guards/.
 */
export const conflict403 = (message: string) => new HttpError(403, message);
export const unprocessable = (message: string) => new HttpError(422, message);
export const conflict = (message: string) => new HttpError(409, message);
export const badRequest = (message: string) => new HttpError(400, message);

/** The messages the spec and Forgejo fix; guards and handlers use these names, never ad-hoc copies. */
export const NOT_FOUND = "The target couldn't be found.";
export const MSG = {
  tokenRequired: 'token is required',
  authMethodNotAllowed: 'auth method not allowed',
  sudoNotAdmin: 'Only administrators allowed to sudo.',
  signinRequired: 'Only signed in user is allowed to call APIs.',
  siteAdmin: 'user should be the site admin',
  self: 'doer should be the site admin or be same as the contextUser',
  repoAdmin: 'user should be an owner or a collaborator with admin write of a repository',
  repoOwner: 'user should be the owner of the repo',
  repoWrite: 'user should have a permission to write to a repo',
  repoRead: 'user should have specific read permission or be a repo admin or a site admin',
  repoAnyRead: 'user should have any permission to read repository or permissions of site admin',
  branchWrite: 'user should have a permission to write to this branch',
  orgOwner: 'Must be an organization owner',
  orgMember: 'Must be an organization member',
  teamMember: 'Must be a team member',
  orgRepoCreate: 'Given user is not allowed to create repository in organization.',
  collaboratorPermission:
    'Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own',
  publicizeOther: 'Cannot publicize another member',
  concealOther: 'Cannot conceal another member',
  teamRepoAdmin: 'Must have admin-level access to the repository',
  webhooksDisabled: 'webhooks disabled by administrator',
  gitHooks: 'must be allowed to edit Git hooks',
  packageAccess: 'user should have specific permission or be a site admin',
  exploreSignin: 'you must be signed in to search for users',
  repoSpecificToken: 'token is restricted to specific repositories and cannot be used for this action',
  archived: (id: number, owner: string, name: string) => `<Repository ${id}:${owner}/${name}> is archived`,
  publicOnly: (what: string) => `token scope is limited to public ${what}`,
  missingScope: (scopes: string[]) => `token does not have at least one of required scope(s): [${scopes.join(' ')}]`,
  quotaExceeded: 'quota exceeded',
  notImplemented: 'not implemented: this route has no handler yet',
} as const;
