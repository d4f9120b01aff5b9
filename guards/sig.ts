// Spec, guard table: "SIG — ActivityPub HTTP signature verified". A request must carry a `Signature`
// header whose keyId names a key this instance knows; no remote actor keys are stored yet, so no
// signature can verify and the request is refused.
import { deny, step } from './types.ts';

export const SIG = step('SIG', 'guard', [], [], (s) =>
  s.headers.signature ? deny(403, 'request signature verification failed: unknown key') : deny(401, 'missing HTTP signature'));
