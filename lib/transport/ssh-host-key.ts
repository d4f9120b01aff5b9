// The built-in SSH server's host key: ed25519, generated once into `<APP_DATA_PATH>/ssh/` (mode 0600)
// and reused on every start, so clients that recorded it in known_hosts keep trusting the server.
// Processes sharing the data directory race to write it; the first writer wins and the others read
// its key, as with the instance secret (server.ts secretKey).
import fs from 'node:fs';
import path from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';

export const hostKeyFile = (dataPath: string) => path.join(dataPath, 'ssh', 'cairn.ed25519');

/** The host key in OpenSSH private key form (what ssh2 reads). */
export function loadOrCreateHostKey(dataPath: string): string {
  const file = hostKeyFile(dataPath);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  // node:crypto writes PKCS#8; ssh2 reads OpenSSH's own format, which sshpk converts to.
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const key = sshpk.parsePrivateKey(pem, 'pkcs8').toString('openssh');
  try {
    fs.writeFileSync(file, key, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return fs.readFileSync(file, 'utf8');
  }
  return key;
}

/** The host key's public half as an OpenSSH line (for known_hosts). */
export function hostPublicKey(privateKey: string): string {
  return sshpk.parsePrivateKey(privateKey, 'openssh').toPublic().toString('ssh');
}

/** The stored host key, or null when none was made yet; nothing is created. */
export function readHostKey(dataPath: string): string | null {
  try {
    return fs.readFileSync(hostKeyFile(dataPath), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * The host key's fingerprint as `ssh-keygen -lf` prints it, without the key's comment:
 * `256 SHA256:<base64> (ED25519)`. The `SHA256:...` part is what ssh shows when it meets the server
 * for the first time ("ED25519 key fingerprint is SHA256:...").
 */
export function hostKeyFingerprint(privateKey: string): string {
  const key = sshpk.parsePrivateKey(privateKey, 'openssh').toPublic();
  return `${key.size} ${key.fingerprint('sha256').toString()} (${key.type.toUpperCase()})`;
}
