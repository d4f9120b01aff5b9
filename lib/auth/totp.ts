// Time-based one-time passwords for two-factor sign-in (forgejo-facts 2.3), with otpauth.
import { Secret, TOTP } from 'otpauth';

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpFor(secretBase32: string, account: string): TOTP {
  return new TOTP({ issuer: 'cairn', label: account, secret: Secret.fromBase32(secretBase32), digits: 6, period: 30, algorithm: 'SHA1' });
}

/** Returns the matched time step, or null. A code is accepted one period either side of now. */
export function checkTotp(secretBase32: string, code: string): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = totpFor(secretBase32, '');
  const delta = totp.validate({ token: code, window: 1 });
  return delta === null ? null : Math.floor(Date.now() / 1000 / 30) + delta;
}
