import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Forgejo's UserTypeRemoteUser: the local stand-in of a federated person (stars, follows). */
export const REMOTE_USER_TYPE = 5;
/** The instance actor (`/activitypub/actor`) owns the key with this user id; no user has id 0. */
export const INSTANCE_ACTOR_ID = 0;

/** The RSA key pair of a local actor (a user or the instance); the private key is sealed with the secret key. */
export const ActorKey = defineEntity({
  name: 'ActorKey',
  tableName: 'federation_actor_key',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer().unique(),
    publicKeyPem: p.text(),
    privateKeySealed: p.text().hidden().lazy(true, false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IActorKey = InferEntity<typeof ActorKey>;

/** A remote instance we heard from (Forgejo's federation_host), with its instance actor's key once seen. */
export const FederationHost = defineEntity({
  name: 'FederationHost',
  tableName: 'federation_host',
  properties: {
    id: p.integer().primary().autoincrement(),
    hostFqdn: p.string().length(255),
    hostPort: p.integer(),
    hostSchema: p.string().length(8),
    keyId: p.string().length(2048).nullable().index(),
    publicKeyPem: p.text().nullable(),
    /** The start time of the newest activity processed from this host (Forgejo's out-of-order guard). */
    latestActivity: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['hostFqdn', 'hostPort'] }],
});
export type IFederationHost = InferEntity<typeof FederationHost>;

/** A remote person, its local stand-in user (type REMOTE_USER_TYPE) and its cached public key. */
export const FederatedUser = defineEntity({
  name: 'FederatedUser',
  tableName: 'federated_user',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer().unique(),
    federationHostId: p.integer().index(),
    /** The actor's id (its URI), as the remote names it. */
    externalId: p.string().length(2048).unique(),
    inboxUrl: p.string().length(2048).default(''),
    keyId: p.string().length(2048).index(),
    publicKeyPem: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IFederatedUser = InferEntity<typeof FederatedUser>;
