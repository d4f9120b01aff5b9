import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const KeyType = { user: 1, deploy: 2 } as const;

/**
 * An SSH public key: a user's key (`type` 1) or, for the deploy-key routes, a repository's (`type` 2).
 * `content` is the normalised `<algorithm> <base64> [comment]` line; `fingerprint` is `SHA256:...`.
 */
export const PublicKey = defineEntity({
  name: 'PublicKey',
  tableName: 'public_key',
  properties: {
    id: p.integer().primary().autoincrement(),
    ownerId: p.integer().index(),
    name: p.string().length(255),
    fingerprint: p.string().length(255).index(),
    content: p.text(),
    /** Access mode: 1 read, 2 write (user keys are always write). */
    mode: p.smallint().default(2),
    type: p.smallint().default(1),
    verified: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IPublicKey = InferEntity<typeof PublicKey>;

export interface GpgKeyEmail {
  email: string;
  verified: boolean;
}

/** A GPG primary key (`primaryKeyId` empty) or one of its subkeys (Forgejo's gpg_key). */
export const GpgKey = defineEntity({
  name: 'GpgKey',
  tableName: 'gpg_key',
  properties: {
    id: p.integer().primary().autoincrement(),
    ownerId: p.integer().index(),
    keyId: p.string().length(16).index(),
    primaryKeyId: p.string().length(16).default('').index(),
    /** Base64 of the public key packet, as Forgejo returns it in `public_key`. */
    content: p.text(),
    /** When the key itself was created (from the key packet). */
    keyCreatedAt: p.datetime(),
    expiresAt: p.datetime().nullable(),
    addedAt: p.datetime().onCreate(() => new Date()),
    emails: p.json<GpgKeyEmail[]>().default('[]'),
    verified: p.boolean().default(false),
    canSign: p.boolean().default(false),
    canEncryptComms: p.boolean().default(false),
    canEncryptStorage: p.boolean().default(false),
    canCertify: p.boolean().default(false),
  },
});
export type IGpgKey = InferEntity<typeof GpgKey>;

/** The armored key as uploaded, kept to verify signatures later (Forgejo's gpg_key_import). */
export const GpgKeyImport = defineEntity({
  name: 'GpgKeyImport',
  tableName: 'gpg_key_import',
  properties: {
    id: p.integer().primary().autoincrement(),
    keyId: p.string().length(16).unique(),
    content: p.text(),
  },
});
export type IGpgKeyImport = InferEntity<typeof GpgKeyImport>;
