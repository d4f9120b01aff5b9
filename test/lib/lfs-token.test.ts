// The git-lfs-authenticate token: signed with the instance secret, bound to its claims, expiring.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SecretBox } from '../../lib/auth/secretbox.ts';
import { looksLikeLfsToken, signLfsToken, verifyLfsToken } from '../../lib/transport/lfs-token.ts';
import { readPointer } from '../../lib/transport/lfs-pointer.ts';

const box = new SecretBox('one instance');
const claims = { RepoID: 7, Op: 'upload' as const, UserID: 3, DeployKeyID: 0 };

test('a token verifies with the same secret until it expires', () => {
  const now = Date.now();
  const { token, expiresAt } = signLfsToken(box, claims, 60_000, now);
  assert.ok(looksLikeLfsToken(token));
  assert.is(expiresAt.getTime(), Math.floor((now + 60_000) / 1000) * 1000);
  assert.equal(
    { ...verifyLfsToken(box, token, now + 1000) },
    { ...claims, nbf: Math.floor(now / 1000), exp: Math.floor((now + 60_000) / 1000) },
  );
  assert.is(verifyLfsToken(box, token, now + 61_000), null);
  // Another process of the same instance (same secret) accepts it; another instance does not.
  assert.ok(verifyLfsToken(new SecretBox('one instance'), token, now));
  assert.is(verifyLfsToken(new SecretBox('another instance'), token, now), null);
});

test('a tampered token is refused', () => {
  const { token } = signLfsToken(box, claims, 60_000);
  const [h, body, sig] = token.split('.');
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), RepoID: 8 })).toString('base64url');
  assert.is(verifyLfsToken(box, `${h}.${forged}.${sig}`), null);
  assert.is(verifyLfsToken(box, `${h}.${body}.`), null);
  assert.is(verifyLfsToken(box, 'a.b.c'), null);
  assert.is(looksLikeLfsToken('0123456789abcdef0123456789abcdef01234567'), false);
});

test('LFS pointers are read as Forgejo reads them', () => {
  const oid = 'a'.repeat(64);
  assert.equal(readPointer(Buffer.from(`version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 12\n`)), { oid, size: 12 });
  assert.is(readPointer(Buffer.from(`version https://git-lfs.github.com/spec/v1\noid sha256:${oid.slice(1)}\nsize 12\n`)), null);
  assert.is(readPointer(Buffer.from(`version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize -1\n`)), null);
  assert.is(readPointer(Buffer.from('just a file\n')), null);
});

test.run();
