// WH (spec, guard table; "What the service does" 4): webhooks not disabled by the administrator; else
// 403 `webhooks disabled by administrator`. A runtime switch: it does not care who asks.
import { test } from 'uvu';
import { WH } from '../../guards/wh.ts';
import { fakeUser, table } from './state.ts';

const admin = fakeUser({ isAdmin: true });
const off = { SECURITY__DISABLE_WEBHOOKS: 'true' };
const disabled = { status: 403, message: 'webhooks disabled by administrator' };

table(WH, [
  { name: 'webhooks enabled (default)', given: () => ({ doer: fakeUser() }), want: null },
  {
    name: 'webhooks enabled, explicitly',
    given: () => ({ config: { SECURITY__DISABLE_WEBHOOKS: 'false' }, doer: fakeUser() }),
    want: null,
  },
  { name: 'webhooks disabled', given: () => ({ config: off, doer: fakeUser() }), want: disabled },
  { name: 'webhooks disabled, site admin', given: () => ({ config: off, doer: admin }), want: disabled },
  { name: 'webhooks disabled, anonymous', given: () => ({ config: off }), want: disabled },
]);

test.run();
