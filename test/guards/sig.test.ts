// SIG (spec, guard table): the ActivityPub HTTP signature must verify. No remote actor key is stored
// yet, so no request can pass: unsigned and signed-by-an-unknown-key requests are both refused.
// The spec fixes no status for a failed signature; the rows pin that the step denies with a 4xx.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SIG } from '../../guards/sig.ts';
import { fakeUser, state, type Given } from './state.ts';

const signed = 'keyId="https://remote.example/api/v1/activitypub/user-id/1#main-key",algorithm="rsa-sha256",headers="(request-target) host date",signature="AAAA"';
const rows: [string, Given][] = [
  ['no signature, anonymous', {}],
  ['no signature, signed-in user', { doer: fakeUser() }],
  ['no signature, site admin', { doer: fakeUser({ isAdmin: true }) }],
  ['signature by an unknown key', { headers: { signature: signed } }],
];

for (const [name, given] of rows) {
  test(`SIG: ${name} is refused`, async () => {
    const out = await SIG.run(state(given));
    assert.ok(out && out.status >= 400 && out.status < 500, JSON.stringify(out));
  });
}

test.run();
