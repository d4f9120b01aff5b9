// ActivityPub federation (Forgejo's services/federation and modules/activitypub): the key pairs of
// local actors, remote actors fetched and cached with their public keys, and the checks of an
// incoming HTTP signature. Remote addresses follow the [migrations] allow and block lists
// (lib/mirrors/remote-url.ts), so federation reaches no host a migration could not reach.
import { createPublicKey, generateKeyPair, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { Services } from '../http/services.ts';
import { HttpError } from '../http/errors.ts';
import { checkRemoteAllowed } from '../mirrors/index.ts';
import { digestOf, parseSignature, signRequest, signingString, verifySignature } from './http-signature.ts';
import {
  ActorKey,
  FederatedUser,
  FederationHost,
  INSTANCE_ACTOR_ID,
  REMOTE_USER_TYPE,
  type IFederatedUser,
  type IFederationHost,
} from '../../model/federation.ts';
import { User } from '../../model/user.ts';
import { sql, writeSql } from '../../model/sql.ts';

export const ACTIVITY_JSON = 'application/activity+json';
export const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
const FETCH_TIMEOUT_MS = 10_000;
const MAX_ACTOR_BYTES = 1 << 20;
/** How far a signed `Date` may be from our clock (Mastodon's window). */
const MAX_CLOCK_SKEW_MS = 12 * 3600 * 1000;

/** A refusal of federation input, turned into an HTTP status by the caller. */
export class FederationError extends Error {}

const apiBase = (cfg: Config) => `${cfg.appUrl}api/v1/activitypub`;
export const instanceActorUrl = (cfg: Config) => `${apiBase(cfg)}/actor`;
export const userActorUrl = (cfg: Config, id: number) => `${apiBase(cfg)}/user-id/${id}`;
export const repoActorUrl = (cfg: Config, id: number) => `${apiBase(cfg)}/repository-id/${id}`;

// ---- local key pairs ----------------------------------------------------------------------------

const generateRsa = promisify(generateKeyPair);

/** The actor's key pair, created on first use; two processes racing keep the first one stored. */
async function actorKeyRow(em: EntityManager, services: Services, userId: number) {
  const found = await em.findOne(ActorKey, { userId }, { populate: ['privateKeySealed'] });
  if (found) return found;
  const { publicKey, privateKey } = await generateRsa('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  await writeSql(
    em,
    sql`insert into federation_actor_key (user_id, public_key_pem, private_key_sealed, created_at) values (${userId}, ${publicKey}, ${services.secrets.seal(privateKey)}, ${new Date()}) on conflict (user_id) do nothing`,
  );
  return em.findOneOrFail(ActorKey, { userId }, { populate: ['privateKeySealed'], refresh: true });
}

export async function actorPublicKey(em: EntityManager, services: Services, userId: number): Promise<string> {
  return (await actorKeyRow(em, services, userId)).publicKeyPem;
}

async function actorPrivateKey(em: EntityManager, services: Services, userId: number): Promise<string> {
  return services.secrets.open((await actorKeyRow(em, services, userId)).privateKeySealed);
}

// ---- remote actors ------------------------------------------------------------------------------

export interface RemoteActor {
  id: string;
  type: string;
  preferredUsername: string;
  name: string;
  inbox: string;
  key: { id: string; owner: string; publicKeyPem: string };
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The body as text, or null once it grows past `max` bytes (the rest is not read). */
async function readCapped(res: Response, max: number): Promise<string | null> {
  if (!res.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > max) {
      await res.body.cancel();
      return null;
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The [migrations] allow and block lists decide which hosts federation may reach. */
async function allowed(cfg: Config, url: string): Promise<void> {
  try {
    await checkRemoteAllowed(cfg, url);
  } catch (e) {
    if (e instanceof HttpError) throw new FederationError(`${url} may not be reached: ${e.message}`);
    throw e;
  }
}

/** fetch() sets Host from the URL, the value the signature covers. */
const withoutHost = ({ host: _host, ...rest }: Record<string, string>) => rest;

/** GET an ActivityStreams document, signed by the instance actor (servers in "secure mode" ask that). */
async function fetchJson(em: EntityManager, cfg: Config, services: Services, url: string): Promise<Record<string, unknown>> {
  await allowed(cfg, url);
  const signed = signRequest(`${instanceActorUrl(cfg)}#main-key`, await actorPrivateKey(em, services, INSTANCE_ACTOR_ID), {
    method: 'GET',
    url,
  });
  let res: Response;
  try {
    // No redirects: a redirect could lead to a host the allow list refuses.
    res = await fetch(url, {
      headers: { ...withoutHost(signed), accept: `${ACTIVITY_JSON}, application/ld+json` },
      redirect: 'manual',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (e) {
    throw new FederationError(`remote actor ${url} could not be fetched: ${(e as Error).message}`);
  }
  if (res.status !== 200) throw new FederationError(`remote actor ${url} answered ${res.status}`);
  const text = await readCapped(res, MAX_ACTOR_BYTES);
  if (text === null) throw new FederationError(`remote actor ${url} is too large`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new FederationError(`remote actor ${url} is not JSON`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new FederationError(`remote actor ${url} is not an object`);
  return doc as Record<string, unknown>;
}

function isRsaPublicKey(pem: string): boolean {
  if (!pem.includes('-----BEGIN PUBLIC KEY-----')) return false;
  try {
    return createPublicKey(pem).asymmetricKeyType === 'rsa';
  } catch {
    return false; // not a parsable key
  }
}

/** Reads an actor document fetched from `from`: its key (the one named `keyId`, else its only one) must
 *  be owned by the actor, and the actor must live where the document was fetched. */
function actorFrom(doc: Record<string, unknown>, from: URL, keyId?: string): RemoteActor {
  const keys = (Array.isArray(doc.publicKey) ? doc.publicKey : [doc.publicKey]) as Record<string, unknown>[];
  const key = keys.find((k) => k && typeof k === 'object' && (keyId === undefined || str(k.id) === keyId));
  const id = str(doc.id);
  if (!key || !id || !str(key.id)) throw new FederationError(`cannot find publicKey${keyId ? ` with id ${keyId}` : ''} in ${from}`);
  if (str(key.owner) !== id || !URL.canParse(id) || new URL(id).origin !== from.origin)
    throw new FederationError(`key ${str(key.id)} is not owned by the actor ${id}`);
  const pem = str(key.publicKeyPem);
  if (!isRsaPublicKey(pem)) throw new FederationError('could not decode publicKeyPem to an RSA PUBLIC KEY pem block');
  return {
    id,
    type: str(doc.type),
    preferredUsername: str(doc.preferredUsername),
    name: str(doc.name),
    inbox: str(doc.inbox),
    key: { id: str(key.id), owner: id, publicKeyPem: pem },
  };
}

function httpUrl(raw: string, what: string): URL {
  if (!URL.canParse(raw)) throw new FederationError(`${what} is not a URL`);
  const u = new URL(raw);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new FederationError(`${what} is not an http(s) URL`);
  return u;
}

/** The actor that owns `keyId`, read from the document the key id points to. */
export async function fetchActorOfKey(em: EntityManager, cfg: Config, services: Services, keyId: string): Promise<RemoteActor> {
  const keyUrl = httpUrl(keyId, 'keyId');
  keyUrl.hash = '';
  return actorFrom(await fetchJson(em, cfg, services, keyUrl.toString()), keyUrl, keyId);
}

/** The actor at `url` (a person to follow). */
export async function fetchActor(em: EntityManager, cfg: Config, services: Services, url: string): Promise<RemoteActor> {
  const u = httpUrl(url, 'the actor');
  return actorFrom(await fetchJson(em, cfg, services, u.toString()), u);
}

/** POSTs an activity to a remote inbox, signed with the key of local user `fromUserId`. */
export async function deliver(
  em: EntityManager,
  cfg: Config,
  services: Services,
  fromUserId: number,
  inbox: string,
  activity: Record<string, unknown>,
): Promise<void> {
  await allowed(cfg, httpUrl(inbox, 'the inbox').toString());
  const body = JSON.stringify(activity);
  const signed = signRequest(`${userActorUrl(cfg, fromUserId)}#main-key`, await actorPrivateKey(em, services, fromUserId), {
    method: 'POST',
    url: inbox,
    body,
  });
  let res: Response;
  try {
    res = await fetch(inbox, {
      method: 'POST',
      body,
      headers: { ...withoutHost(signed), 'content-type': ACTIVITY_JSON },
      redirect: 'manual',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (e) {
    throw new FederationError(`the inbox ${inbox} could not be reached: ${(e as Error).message}`);
  }
  await res.body?.cancel();
  if (res.status < 200 || res.status > 299) throw new FederationError(`the inbox ${inbox} answered ${res.status}`);
}

function hostOf(actorId: string) {
  const u = new URL(actorId);
  const schema = u.protocol.replace(':', '');
  return { hostFqdn: u.hostname.toLowerCase(), hostPort: u.port ? Number(u.port) : schema === 'https' ? 443 : 80, hostSchema: schema };
}

async function findOrCreateHost(em: EntityManager, actorId: string): Promise<IFederationHost> {
  const h = hostOf(actorId);
  await writeSql(
    em,
    sql`insert into federation_host (host_fqdn, host_port, host_schema, created_at, updated_at) values (${h.hostFqdn}, ${h.hostPort}, ${h.hostSchema}, ${new Date()}, ${new Date()}) on conflict (host_fqdn, host_port) do nothing`,
  );
  return em.findOneOrFail(FederationHost, { hostFqdn: h.hostFqdn, hostPort: h.hostPort });
}

/** Forgejo names a remote person's stand-in `<preferredUsername>-<host>` (PersonID.HostSuffix). */
function standInName(actor: RemoteActor): string {
  const { hostFqdn, hostPort, hostSchema } = hostOf(actor.id);
  const base = (actor.preferredUsername || 'user').replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100);
  const defaultPort = hostPort === (hostSchema === 'https' ? 443 : 80);
  return `${base}-${hostFqdn}${defaultPort ? '' : `-${hostPort}`}`;
}

/** Stores a remote person: its host, a local stand-in user (stars and follows point at it) and its key. */
export async function storePerson(em: EntityManager, cfg: Config, actor: RemoteActor): Promise<IFederatedUser> {
  const host = await findOrCreateHost(em, actor.id);
  const known = await em.findOne(FederatedUser, { externalId: actor.id });
  if (known) {
    known.keyId = actor.key.id;
    known.publicKeyPem = actor.key.publicKeyPem;
    if (actor.inbox) known.inboxUrl = actor.inbox;
    await em.flush();
    return known;
  }
  const name = standInName(actor);
  const user = em.create(User, {
    name,
    lowerName: name.toLowerCase(),
    fullName: actor.name || name,
    email: `f${randomUUID()}@${new URL(cfg.appUrl).hostname}`,
    keepEmailPrivate: true,
    type: REMOTE_USER_TYPE,
    prohibitLogin: true,
    loginName: actor.id,
  });
  await em.flush();
  const fu = em.create(FederatedUser, {
    userId: user.id,
    federationHostId: host.id,
    externalId: actor.id,
    inboxUrl: actor.inbox,
    keyId: actor.key.id,
    publicKeyPem: actor.key.publicKeyPem,
  });
  await em.flush();
  return fu;
}

/** The cached public key of `keyId`, if we have one. */
async function cachedKey(em: EntityManager, keyId: string): Promise<string | null> {
  const user = await em.findOne(FederatedUser, { keyId });
  if (user) return user.publicKeyPem;
  return (await em.findOne(FederationHost, { keyId }))?.publicKeyPem ?? null;
}

/** Fetches the actor of `keyId` and caches its key (with the person, or on its host for an instance actor). */
async function fetchKey(em: EntityManager, cfg: Config, services: Services, keyId: string): Promise<string> {
  const actor = await fetchActorOfKey(em, cfg, services, keyId);
  // Forgejo accepts the keys of persons and of instance actors (Application); no other actor signs.
  if (actor.type === 'Person') {
    try {
      await em.transactional((tx) => storePerson(tx, cfg, actor));
    } catch (e) {
      // Another request stored the same person at the same time: its row is as good as ours.
      if (!(e instanceof UniqueConstraintViolationException)) throw e;
    }
    return actor.key.publicKeyPem;
  }
  if (actor.type === 'Application' || actor.type === 'Service') {
    const host = await findOrCreateHost(em, actor.id);
    host.keyId = actor.key.id;
    host.publicKeyPem = actor.key.publicKeyPem;
    await em.flush();
    return actor.key.publicKeyPem;
  }
  throw new FederationError(`actors of type ${actor.type || '(none)'} cannot sign requests`);
}

// ---- incoming signatures ------------------------------------------------------------------------

export interface IncomingRequest {
  method: string;
  uri: string;
  headers: Record<string, string | string[] | undefined>;
  /** Reads the body as received (for the Digest), called only once the signature verified. */
  readBody: () => Promise<string | undefined>;
}

/** Whether the request says a body follows: it must then be signed with its Digest. */
const announcesBody = (headers: IncomingRequest['headers']) =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

/**
 * Checks an incoming request's signature. Returns the signing key id, or throws FederationError
 * saying why the request is refused. Covered must be `(request-target)`, `host` and `date`, and
 * `digest` (matching the body) when there is a body, so a signature cannot be replayed on another
 * path or host, much later, or with another body.
 */
export async function verifyIncoming(em: EntityManager, cfg: Config, services: Services, req: IncomingRequest): Promise<string> {
  const header = req.headers.signature;
  const sig = typeof header === 'string' ? parseSignature(header) : null;
  if (!sig) throw new FederationError('malformed Signature header');
  if (sig.algorithm !== 'rsa-sha256' && sig.algorithm !== 'hs2019')
    throw new FederationError(`unsupported signature algorithm ${sig.algorithm}`);
  const required = ['(request-target)', 'host', 'date', ...(announcesBody(req.headers) ? ['digest'] : [])];
  const missing = required.filter((h) => !sig.headers.includes(h));
  if (missing.length) throw new FederationError(`signature does not cover ${missing.join(', ')}`);
  const date = Date.parse(String(req.headers.date ?? ''));
  if (Number.isNaN(date) || Math.abs(Date.now() - date) > MAX_CLOCK_SKEW_MS)
    throw new FederationError('Date header missing or out of range');
  const data = signingString(sig.headers, req);
  if (data === null) throw new FederationError('a signed header is missing');
  // A fork: the keys cached here stay stored whatever the request then does.
  const db = em.fork();
  const cached = await cachedKey(db, sig.keyId);
  // Unknown key, or the actor may have rotated its key since we cached it: read it (again).
  const verified =
    (cached && verifySignature(cached, data, sig.signature)) ||
    verifySignature(await fetchKey(db, cfg, services, sig.keyId), data, sig.signature);
  if (!verified) throw new FederationError('signature does not verify');
  // The body is read only for a signer whose signature holds; the signed Digest then vouches for it.
  if (sig.headers.includes('digest') && req.headers.digest !== digestOf((await req.readBody()) ?? ''))
    throw new FederationError('Digest does not match the body');
  return sig.keyId;
}

/** The stored remote person who signed the request (after SIG verified it), if a person signed. */
export async function signerOf(em: EntityManager, headers: Record<string, string | string[] | undefined>): Promise<IFederatedUser | null> {
  const sig = typeof headers.signature === 'string' ? parseSignature(headers.signature) : null;
  return sig ? em.findOne(FederatedUser, { keyId: sig.keyId }) : null;
}
