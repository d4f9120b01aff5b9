// Symmetric encryption for secrets that must be read back (TOTP seeds, action secrets):
// AES-256-GCM with a key derived from [security] SECRET_KEY; and MACs for tokens the instance signs.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

export class SecretBox {
  private readonly key: Buffer;
  constructor(secret: string) {
    this.key = createHash('sha256').update(`cairn:${secret}`).digest();
  }
  seal(plain: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return `v1.${iv.toString('base64url')}.${c.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
  }
  /** HMAC-SHA256 of `data` under a key of its own for each `purpose` (signed tokens). */
  mac(purpose: string, data: string): Buffer {
    const key = createHmac('sha256', this.key).update(`mac:${purpose}`).digest();
    return createHmac('sha256', key).update(data).digest();
  }
  open(sealed: string): string {
    const [v, iv, tag, body] = sealed.split('.');
    if (v !== 'v1') throw new Error('unknown secret format');
    const d = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    d.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
  }
}
