// Spec, guard table: "SIG — ActivityPub HTTP signature verified" (Forgejo's ReqHTTPSignature). The
// request must carry a draft-cavage `Signature` covering `(request-target) host date` (and
// `digest`, matching the body, when there is one) made with the key its keyId names; an unknown
// key is fetched from its actor (within the [migrations] allow list) and cached with the actor.
// No signature: 401. A signature that cannot be checked or does not verify: 403 (Forgejo answers 400
// for both; the spec fixes no status).
import { FederationError, verifyIncoming } from '../lib/federation/federation.ts';
import { deny, step } from './types.ts';

export const SIG_FAILED = 'request signature verification failed';

export const SIG = step('SIG', 'guard', [], [], async (s) => {
  if (!s.headers.signature) return deny(401, 'missing HTTP signature');
  try {
    await verifyIncoming(s.em, s.config, s.services, {
      method: s.method,
      uri: s.requestUri ?? `/api/v1${s.path}`,
      headers: s.headers,
      readBody: async () => (await s.readBody()).text,
    });
    return null;
  } catch (e) {
    if (!(e instanceof FederationError)) throw e;
    s.services.log.info({ path: s.path, reason: e.message }, 'ActivityPub signature refused');
    return deny(403, `${SIG_FAILED}: ${e.message}`);
  }
});
