// MIGRATIONS_GATE (Forgejo's Migrate): 403 when [repository] DISABLE_MIGRATIONS is set, and for
// `mirror: true` when [repository] DISABLE_MIRRORS is set.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MIGRATIONS_GATE } from '../../guards/migrations.ts';
import { fakeUser, table } from './state.ts';

const alice = fakeUser();
const off = { status: 403, message: 'the site administrator has disabled migrations' };
const noMirrors = { status: 403, message: 'the site administrator has disabled the creation of new pull mirrors' };

table(MIGRATIONS_GATE, [
  { name: 'migrations on', given: () => ({ doer: alice, body: { clone_addr: 'x', repo_name: 'y' } }), want: null },
  {
    name: 'migrations off',
    given: () => ({ doer: alice, config: { REPOSITORY__DISABLE_MIGRATIONS: 'true' }, body: { mirror: false } }),
    want: off,
  },
  {
    name: 'a mirror while mirrors are off',
    given: () => ({ doer: alice, config: { REPOSITORY__DISABLE_MIRRORS: 'true' }, body: { mirror: true } }),
    want: noMirrors,
  },
  {
    name: 'a plain migration while mirrors are off',
    given: () => ({ doer: alice, config: { REPOSITORY__DISABLE_MIRRORS: 'true' }, body: { mirror: false } }),
    want: null,
  },
]);

test('MIGRATIONS_GATE reads the body', () => {
  assert.equal([...MIGRATIONS_GATE.needs], ['body']);
});

test.run();
