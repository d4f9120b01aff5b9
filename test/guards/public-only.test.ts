// PUBLIC_ONLY(category) (spec, token kinds, public-only tokens; forgejo-facts 1.2 and 3.4): after the
// scope check, a public-only token gets 403 `token scope is limited to public <what>` when
// - repository / issue / notification: the addressed repository is private, or its owner is not public;
// - organization: the addressed organization, or a context user that is an organization, is not public;
// - user / activitypub: the context user is an individual that is not public;
// - package: the package owner is not public.
// Any other caller passes untouched.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PUBLIC_ONLY } from '../../guards/public-only.ts';
import { Mode } from '../../lib/auth/perm.ts';
import type { Visibility } from '../../model/user.ts';
import { fakeOrg, fakeUser, loadedRepo, loose, permAll, table, token, type Row } from './state.ts';

const alice = fakeUser();
const po = () => token('public-only,all');
const limitedTo = (what: string) => ({ status: 403, message: `token scope is limited to public ${what}` });
const repoOf = (isPrivate: boolean, ownerVisibility: Visibility = 'public') =>
  loadedRepo(permAll(Mode.owner), { owner: fakeUser({ visibility: ownerVisibility }), repo: { isPrivate } });

/** The repository rule, shared by three categories with their own message. */
const repoRows = (what: string): Row[] => [
  {
    name: 'public-only token, public repository of a public owner',
    given: () => ({ doer: alice, token: po(), repo: repoOf(false) }),
    want: null,
  },
  { name: 'public-only token, private repository', given: () => ({ doer: alice, token: po(), repo: repoOf(true) }), want: limitedTo(what) },
  {
    name: 'public-only token, public repository of a limited owner',
    given: () => ({ doer: alice, token: po(), repo: repoOf(false, 'limited') }),
    want: limitedTo(what),
  },
  {
    name: 'public-only token, public repository of a private owner',
    given: () => ({ doer: alice, token: po(), repo: repoOf(false, 'private') }),
    want: limitedTo(what),
  },
  { name: 'all-access token, private repository', given: () => ({ doer: alice, token: token('all'), repo: repoOf(true) }), want: null },
  {
    name: 'repo-specific token, private repository',
    given: () => ({ doer: alice, token: token('read:repository', [1]), repo: repoOf(true) }),
    want: null,
  },
  { name: 'password, private repository', given: () => ({ doer: alice, repo: repoOf(true) }), want: null },
];

table(PUBLIC_ONLY('repository'), repoRows('repos'));
table(PUBLIC_ONLY('issue'), repoRows('issues'));
table(PUBLIC_ONLY('notification'), [
  ...repoRows('notifications'),
  { name: 'public-only token, no repository in the path', given: () => ({ doer: alice, token: po() }), want: null },
]);

table(PUBLIC_ONLY('organization'), [
  { name: 'public organization', given: () => ({ doer: alice, token: po(), org: fakeOrg() }), want: null },
  {
    name: 'limited organization',
    given: () => ({ doer: alice, token: po(), org: fakeOrg({ visibility: 'limited' }) }),
    want: limitedTo('orgs'),
  },
  {
    name: 'private organization',
    given: () => ({ doer: alice, token: po(), org: fakeOrg({ visibility: 'private' }) }),
    want: limitedTo('orgs'),
  },
  {
    name: 'context user is a private organization',
    given: () => ({ doer: alice, token: po(), contextUser: fakeOrg({ visibility: 'private' }) }),
    want: limitedTo('orgs'),
  },
  {
    name: 'context user is a limited organization',
    given: () => ({ doer: alice, token: po(), contextUser: fakeOrg({ visibility: 'limited' }) }),
    want: limitedTo('orgs'),
  },
  {
    name: 'context user is a private individual',
    given: () => ({ doer: alice, token: po(), contextUser: fakeUser({ visibility: 'private' }) }),
    want: null,
  },
  {
    name: 'all-access token, private organization',
    given: () => ({ doer: alice, token: token('all'), org: fakeOrg({ visibility: 'private' }) }),
    want: null,
  },
  { name: 'password, private organization', given: () => ({ doer: alice, org: fakeOrg({ visibility: 'private' }) }), want: null },
]);

const userRows = (what: string): Row[] => [
  { name: 'public individual', given: () => ({ doer: alice, token: po(), contextUser: fakeUser() }), want: null },
  {
    name: 'limited individual',
    given: () => ({ doer: alice, token: po(), contextUser: fakeUser({ visibility: 'limited' }) }),
    want: limitedTo(what),
  },
  {
    name: 'private individual',
    given: () => ({ doer: alice, token: po(), contextUser: fakeUser({ visibility: 'private' }) }),
    want: limitedTo(what),
  },
  {
    name: 'the caller themself, private',
    given: () => ({ doer: alice, token: po(), contextUser: fakeUser({ id: alice.id, visibility: 'private' }) }),
    want: limitedTo(what),
  },
  {
    name: 'private organization as context user: not this rule',
    given: () => ({ doer: alice, token: po(), contextUser: fakeOrg({ visibility: 'private' }) }),
    want: null,
  },
  {
    name: 'all-access token, private individual',
    given: () => ({ doer: alice, token: token('all'), contextUser: fakeUser({ visibility: 'private' }) }),
    want: null,
  },
];
table(PUBLIC_ONLY('user'), userRows('users'));
table(PUBLIC_ONLY('activitypub'), userRows('activitypub'));

table(PUBLIC_ONLY('package'), [
  { name: 'public owner', given: () => ({ doer: alice, token: po(), contextUser: fakeUser() }), want: null },
  {
    name: 'private individual owner',
    given: () => ({ doer: alice, token: po(), contextUser: fakeUser({ visibility: 'private' }) }),
    want: limitedTo('packages'),
  },
  {
    name: 'limited organization owner',
    given: () => ({ doer: alice, token: po(), contextUser: fakeOrg({ visibility: 'limited' }) }),
    want: limitedTo('packages'),
  },
  {
    name: 'private organization owner',
    given: () => ({ doer: alice, token: po(), contextUser: fakeOrg({ visibility: 'private' }) }),
    want: limitedTo('packages'),
  },
  {
    name: 'all-access token, private owner',
    given: () => ({ doer: alice, token: token('all'), contextUser: fakeUser({ visibility: 'private' }) }),
    want: null,
  },
]);

test('PUBLIC_ONLY: names and what each category needs loaded', () => {
  assert.is(PUBLIC_ONLY('repository').name, 'PUBLIC_ONLY(repository)');
  assert.is(PUBLIC_ONLY('repository').kind, 'limit');
  assert.equal([...PUBLIC_ONLY('repository').needs], ['repo']);
  assert.equal([...PUBLIC_ONLY('issue').needs], ['repo']);
  assert.equal([...PUBLIC_ONLY('user').needs], ['user']);
  assert.equal([...PUBLIC_ONLY('package').needs], ['user']);
});

test('PUBLIC_ONLY: unknown categories are refused at construction', () => {
  assert.throws(() => loose(PUBLIC_ONLY)('x'), /PUBLIC_ONLY: unknown category "x"/);
  assert.throws(() => loose(PUBLIC_ONLY)('admin'), /unknown category "admin"/);
  assert.throws(() => loose(PUBLIC_ONLY)('repos'), /unknown category/);
});

test('PUBLIC_ONLY: names inherited from Object.prototype are not categories [STYLE: constructors check their arguments]', () => {
  assert.throws(() => loose(PUBLIC_ONLY)('toString'), /unknown category/);
});

test.run();
