// MEMBER_SELF (Forgejo, PublicizeMember / ConcealMember): a member publicizes or conceals only their
// own membership; anyone else, site admins included, gets 403 with the method's message.
import { test } from 'uvu';
import { MEMBER_SELF } from '../../guards/member-self.ts';
import { fakeUser, table, token } from './state.ts';

const alice = fakeUser();
const bob = fakeUser();
const admin = fakeUser({ isAdmin: true });
const publicize = { status: 403, message: 'Cannot publicize another member' };
const conceal = { status: 403, message: 'Cannot conceal another member' };

table(MEMBER_SELF, [
  { name: 'oneself, PUT', given: () => ({ doer: alice, contextUser: alice, httpMethod: 'PUT' }), want: null },
  { name: 'oneself, DELETE', given: () => ({ doer: alice, contextUser: alice, httpMethod: 'DELETE' }), want: null },
  {
    name: 'oneself by token',
    given: () => ({ doer: alice, token: token('write:organization'), contextUser: alice, httpMethod: 'PUT' }),
    want: null,
  },
  { name: 'another member, PUT', given: () => ({ doer: bob, contextUser: alice, httpMethod: 'PUT' }), want: publicize },
  { name: 'another member, DELETE', given: () => ({ doer: bob, contextUser: alice, httpMethod: 'DELETE' }), want: conceal },
  { name: 'a site admin for someone else', given: () => ({ doer: admin, contextUser: alice, httpMethod: 'PUT' }), want: publicize },
  {
    name: 'same name in another case is another user',
    given: () => ({ doer: fakeUser({ name: alice.name.toUpperCase() }), contextUser: alice, httpMethod: 'DELETE' }),
    want: conceal,
  },
]);

test.run();
