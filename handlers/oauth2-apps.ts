// OAuth2 applications of the signed-in user (Forgejo's routers/api/v1/user/app.go). The client
// secret is shown once, on create and on edit (which regenerates it); only a salted hash is kept.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Handler, SignedInCtx } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreateOAuth2ApplicationOptions } from '../model/schemas/index.ts';
import { OAuth2Application, type IOAuth2Application } from '../model/oauth2.ts';
import { toApiOAuth2Application } from '../lib/users/api/account.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { notFound, unprocessable } from '../lib/http/errors.ts';
import { rowId } from '../lib/http/query-values.ts';

const idParam = (v: string | undefined) => rowId(v) ?? 0;

const appJson = toApiOAuth2Application;

/** Forgejo's secrets look like `gto_` + 32 random bytes in lower-case base32. */
function newSecret(): { value: string; hash: string } {
  const bytes = randomBytes(32);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let bits = 0;
  let acc = 0;
  let out = '';
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(acc << (5 - bits)) & 31];
  const value = `gto_${out}`;
  const salt = randomBytes(16).toString('hex');
  return { value, hash: `${salt}$${createHmac('sha256', salt).update(value).digest('hex')}` };
}

/** Forgejo binds `name` and `redirect_uris` as Required (422 `[Field]: Required`). */
function checkOptions(b: CreateOAuth2ApplicationOptions): { name: string; uris: string[] } {
  if (!b.name) throw unprocessable('[Name]: Required');
  if (!b.redirect_uris || b.redirect_uris.length === 0) throw unprocessable('[RedirectURIs]: Required');
  return { name: b.name, uris: b.redirect_uris };
}

async function ownApp(c: SignedInCtx): Promise<IOAuth2Application> {
  const app = await c.em.findOne(OAuth2Application, { id: idParam(c.params.id), uid: c.auth.doer.id });
  if (!app) throw notFound();
  return app;
}

export const list = signedIn(async (c) => {
  const p = pageOf(c);
  const [rows, total] = await c.em.findAndCount(
    OAuth2Application,
    { uid: c.auth.doer.id },
    { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset },
  );
  return json(
    200,
    rows.map((a) => appJson(a)),
    pagingHeaders(c, p, total),
  );
});

export const get = signedIn(async (c) => json(200, appJson(await ownApp(c))));

export const create = signedIn<CreateOAuth2ApplicationOptions>(async (c) => {
  const { name, uris } = checkOptions(c.body);
  const secret = newSecret();
  const app = c.em.create(OAuth2Application, {
    uid: c.auth.doer.id,
    name,
    clientId: randomUUID(),
    clientSecretHash: secret.hash,
    confidentialClient: c.body.confidential_client ?? false,
    redirectUris: uris,
  });
  await c.em.flush();
  return json(201, appJson(app, secret.value));
});

export const edit = signedIn<CreateOAuth2ApplicationOptions>(async (c) => {
  const app = await ownApp(c);
  const { name, uris } = checkOptions(c.body);
  const secret = newSecret();
  app.name = name;
  app.redirectUris = uris;
  app.confidentialClient = c.body.confidential_client ?? false;
  app.clientSecretHash = secret.hash;
  await c.em.flush();
  return json(200, appJson(app, secret.value));
});

export const remove = signedIn(async (c) => {
  const app = await ownApp(c);
  c.em.remove(app);
  await c.em.flush();
  return noContent();
});

/** This family's handlers; `routes.table.ts` names each `oauth2Apps.<key>`. */
export const handlers = {
  list,
  get,
  create,
  edit,
  remove,
} satisfies Record<string, Handler<never, never>>;
