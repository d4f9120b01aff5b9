// Password hashing with PBKDF2-SHA256 from node:crypto (no native build step needed).
import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const derive = promisify(pbkdf2);
const ITERATIONS = 320_000;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16).toString('hex');
  const hash = await derive(password, salt, ITERATIONS, 32, 'sha256');
  return `pbkdf2$sha256$${ITERATIONS}$${salt}$${hash.toString('hex')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, digest, iter, salt, hex] = stored.split('$');
  if (scheme !== 'pbkdf2' || digest !== 'sha256' || !hex) return false;
  const want = Buffer.from(hex, 'hex');
  const got = await derive(password, salt, Number(iter), want.length, 'sha256');
  return timingSafeEqual(want, got);
}
