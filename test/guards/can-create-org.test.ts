// CAN_CREATE_ORG (Forgejo's CanCreateOrganization): site admins and users allowed to create
// organizations pass; others get 403. Public-only/repo-specific tokens lose the admin override.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CAN_CREATE_ORG } from '../../guards/can-create-org.ts';
import type { RequestState } from '../../guards/types.ts';

const state = (
  doer: { isAdmin: boolean; allowCreateOrganization: boolean } | null,
  token: { publicOnly: boolean; repoIds: number[] | null } | null = null,
) => ({ auth: { doer, method: 'token', sudoer: null, token } }) as unknown as RequestState;

test('allowed users and site admins pass; others get 403', async () => {
  assert.is(await CAN_CREATE_ORG.run(state({ isAdmin: false, allowCreateOrganization: true })), null);
  assert.is(await CAN_CREATE_ORG.run(state({ isAdmin: true, allowCreateOrganization: false })), null);
  const denied = await CAN_CREATE_ORG.run(state({ isAdmin: false, allowCreateOrganization: false }));
  assert.equal(denied, { status: 403, message: 'Given user is not allowed to create organization.' });
  const po = await CAN_CREATE_ORG.run(state({ isAdmin: true, allowCreateOrganization: false }, { publicOnly: true, repoIds: null }));
  assert.is(po && 'status' in po ? po.status : 0, 403);
});

test.run();
