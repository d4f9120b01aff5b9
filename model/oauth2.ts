import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** An OAuth2 application registered by a user. The client secret is only kept as a hash. */
export const OAuth2Application = defineEntity({
  name: 'OAuth2Application',
  tableName: 'oauth2_application',
  properties: {
    id: p.integer().primary().autoincrement(),
    uid: p.integer().index(),
    name: p.string().length(255),
    clientId: p.string().length(64).unique(),
    clientSecretHash: p.string().length(255).default('').hidden().lazy(true, false),
    confidentialClient: p.boolean().default(true),
    redirectUris: p.json<string[]>().default('[]'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IOAuth2Application = InferEntity<typeof OAuth2Application>;
