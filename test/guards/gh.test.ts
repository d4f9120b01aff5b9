// GH (spec, guard table): caller may edit Git hooks; else 403 `must be allowed to edit Git hooks`.
// Editing hooks needs [security] DISABLE_GIT_HOOKS=false (the default is true) and a site admin.
import { test } from 'uvu';
import { GH } from '../../guards/gh.ts';
import { fakeUser, table, token } from './state.ts';

const admin = fakeUser({ isAdmin: true });
const alice = fakeUser();
const hooksOn = { SECURITY__DISABLE_GIT_HOOKS: 'false' };
const denied = { status: 403, message: 'must be allowed to edit Git hooks' };

table(GH, [
  { name: 'hooks enabled, site admin', given: () => ({ config: hooksOn, doer: admin }), want: null },
  {
    name: 'hooks enabled, site admin by token',
    given: () => ({ config: hooksOn, doer: admin, token: token('write:repository') }),
    want: null,
  },
  { name: 'hooks enabled, ordinary user', given: () => ({ config: hooksOn, doer: alice }), want: denied },
  { name: 'hooks enabled, anonymous', given: () => ({ config: hooksOn }), want: denied },
  { name: 'hooks disabled by default, site admin', given: () => ({ doer: admin }), want: denied },
  { name: 'hooks disabled, site admin', given: () => ({ config: { SECURITY__DISABLE_GIT_HOOKS: 'true' }, doer: admin }), want: denied },
]);

test.run();
