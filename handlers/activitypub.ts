// ActivityPub and NodeInfo (Forgejo's routers/api/v1/activitypub/*.go, routers/api/v1/misc/nodeinfo.go
// and services/federation). Actors (the instance, users, repositories) are ActivityStreams documents
// with an RSA public key; inboxes accept what Forgejo acts on: a Like of a repository (a star by the
// remote person's local stand-in) and a Follow of a user (and its Undo). Every inbox and outbox sits
// behind SIG, which verified the signature and stored the signing person before the handler runs.
import type { Handler, HandlerCtx, Reply } from '../lib/http/handler.ts';
import { network, noContent, transactionOf } from '../lib/http/handler.ts';
import { HttpError, notFound, unprocessable } from '../lib/http/errors.ts';
import { need } from '../lib/http/request.ts';
import {
  ACTIVITY_JSON,
  AS_CONTEXT,
  FederationError,
  actorPublicKey,
  deliver,
  fetchActor,
  instanceActorUrl,
  repoActorUrl,
  signerOf,
  storePerson,
  userActorUrl,
} from '../lib/federation/federation.ts';
import { API_VERSION } from '../lib/runtime/version.ts';
import { publicActivityOf } from '../lib/activity/feeds.ts';
import { toForgeUserActivity, type ForgeUserActivity } from '../lib/federation/api/forge-activity.ts';
import { rowId } from '../lib/http/query-values.ts';
import { follow, isFollowing, unfollow } from '../lib/users/follows.ts';
import { setStar } from '../lib/repos/social.ts';
import { avatarUrl } from '../lib/users/api/user.ts';
import { FederationHost, INSTANCE_ACTOR_ID, type IFederatedUser } from '../model/federation.ts';
import { User } from '../model/user.ts';
import { Issue, Comment } from '../model/issue.ts';
import type { APActivity, APRemoteFollowOption } from '../model/schemas/index.ts';

/** An ActivityStreams document, sent as `application/activity+json`. Its `@context` is the one
 *  string the API description's `ActivityPub` type allows (Forgejo itself sends a list that adds the
 *  security and ForgeFed contexts); peers read `publicKey` and the other names as plain JSON. */
const activity = (status: number, doc: Record<string, unknown>): Reply => ({
  status,
  body: JSON.stringify(doc),
  type: `${ACTIVITY_JSON}; charset=utf-8`,
});

/** Forgejo refuses activities it cannot act on with 406 Not Acceptable (federation.NewErrNotAcceptablef). */
const notAcceptable = (message: string) => new HttpError(406, message);

const emptyOutbox = (actor: string) =>
  activity(200, {
    '@context': AS_CONTEXT,
    id: `${actor}/outbox`,
    type: 'OrderedCollection',
    attributedTo: actor,
    totalItems: 0,
    orderedItems: [],
  });

const publicKey = async (c: HandlerCtx<unknown>, actor: string, userId: number) => ({
  id: `${actor}#main-key`,
  owner: actor,
  publicKeyPem: await actorPublicKey(c.em, c.services, userId),
});

// ---- NodeInfo -----------------------------------------------------------------------------------

const MONTH_MS = 30 * 24 * 3600 * 1000;

/** NodeInfo 2.1. Counts as Forgejo's: individual users, users signed in within a month and half a
 *  year, every issue and pull request (posts) and every comment. There is no self-registration. */
export const nodeinfo: Handler = async (c) => {
  const now = Date.now();
  const users = (since?: number) =>
    c.em.count(User, since === undefined ? { type: 0 } : { type: 0, lastLoginAt: { $gte: new Date(since) } });
  const [total, activeMonth, activeHalfyear, localPosts, localComments] = await Promise.all([
    users(),
    users(now - MONTH_MS),
    users(now - 6 * MONTH_MS),
    c.em.count(Issue, {}),
    c.em.count(Comment, {}),
  ]);
  return {
    status: 200,
    headers: { 'Access-Control-Allow-Origin': '*' },
    body: {
      version: '2.1',
      // "forgejo", as Forgejo peers read the software name to know how actor URIs are shaped.
      software: {
        name: 'forgejo',
        version: API_VERSION,
        repository: 'https://codeberg.org/forgejo/forgejo.git',
        homepage: 'https://forgejo.org/',
      },
      protocols: ['activitypub'],
      services: { inbound: [], outbound: ['rss2.0'] },
      openRegistrations: false,
      usage: { users: { total, activeHalfyear, activeMonth }, localPosts, localComments },
      metadata: {},
    },
  };
};

// ---- the instance actor -------------------------------------------------------------------------

export const listActor: Handler = async (c) => {
  const id = instanceActorUrl(c.config);
  return activity(200, {
    '@context': AS_CONTEXT,
    id,
    type: 'Application',
    preferredUsername: 'ghost',
    url: c.config.appUrl,
    inbox: `${id}/inbox`,
    outbox: `${id}/outbox`,
    publicKey: await publicKey(c, id, INSTANCE_ACTOR_ID),
  });
};

/** Forgejo's instance inbox accepts anything and does nothing with it. */
export const createActorInbox: Handler = async () => noContent();

export const listActorOutbox: Handler = async (c) => emptyOutbox(instanceActorUrl(c.config));

// ---- persons ------------------------------------------------------------------------------------

export const getUserId: Handler = async (c) => {
  const u = need(c.contextUser, 'user');
  const id = userActorUrl(c.config, u.id);
  return activity(200, {
    '@context': AS_CONTEXT,
    id,
    type: 'Person',
    name: u.fullName,
    preferredUsername: u.name,
    url: `${c.config.appUrl}${encodeURIComponent(u.name)}`,
    icon: { type: 'Image', mediaType: 'image/png', url: avatarUrl(c.config, u) },
    inbox: `${id}/inbox`,
    outbox: `${id}/outbox`,
    publicKey: await publicKey(c, id, u.id),
  });
};

/** Forgejo lists the notes of the remote people the user follows; cairn stores none (it accepts no
 *  Create activity), so the collection is empty. */
export const listUserIdOutbox: Handler = async (c) => emptyOutbox(userActorUrl(c.config, need(c.contextUser, 'user').id));

/** The activity of the path, converted; what a remote may not read is absent (404). */
async function userActivity(c: HandlerCtx<unknown>): Promise<ForgeUserActivity> {
  const user = need(c.contextUser, 'user');
  const id = rowId(c.params['activity-id']);
  const found = id ? await publicActivityOf(c.em, user, id) : null;
  if (!found) throw notFound();
  return toForgeUserActivity(c.config, found.action, {
    actorId: userActorUrl(c.config, user.id),
    actUser: user,
    repoOwnerName: found.owner.name,
    repoName: found.repo.name,
    comment: found.comment,
  });
}

/** `GET .../activities/{activity-id}`: the Note the activity created (Forgejo's PersonActivityNote). */
export const getUserIdActivities: Handler = async (c) => activity(200, { '@context': AS_CONTEXT, ...(await userActivity(c)).object });

/** `GET .../activities/{activity-id}/activity`: the Create activity itself (Forgejo's PersonActivity). */
export const listUserIdActivitiesActivity: Handler = async (c) => activity(200, { '@context': AS_CONTEXT, ...(await userActivity(c)) });

// ---- reading an activity ------------------------------------------------------------------------

const idOf = (v: unknown): string => {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string') return (v as { id: string }).id;
  return '';
};
const field = (a: APActivity, name: string): unknown => (a as Record<string, unknown>)[name];

/** The remote person who signed, who must be the activity's actor: a signature by one actor cannot
 *  speak for another. */
async function actorOf(c: HandlerCtx<APActivity>): Promise<IFederatedUser> {
  const signer = await signerOf(c.em, c.headers);
  const actor = idOf(field(c.body, 'actor'));
  if (!actor) throw notAcceptable('Invalid activity: actor is missing');
  if (!signer || signer.externalId !== actor) throw notAcceptable(`Invalid activity: the actor ${actor} did not sign it`);
  return signer;
}

// ---- the person inbox: Follow, Undo Follow, Accept of our Follow --------------------------------

export const createUserIdInbox: Handler<APActivity> = async (c) => {
  const user = need(c.contextUser, 'user');
  const type = field(c.body, 'type');
  if (type !== 'Follow' && type !== 'Undo' && type !== 'Accept') throw notAcceptable(`Unsupported activity: ${String(type)}`);
  const actor = await actorOf(c);
  const target = userActorUrl(c.config, user.id);
  if (type === 'Accept') return acceptFollow(c, user.id, actor);
  if (type === 'Undo') {
    const inner = field(c.body, 'object');
    const follows = inner && typeof inner === 'object' ? (inner as APActivity) : null;
    if (
      !follows ||
      field(follows, 'type') !== 'Follow' ||
      idOf(field(follows, 'object')) !== target ||
      idOf(field(follows, 'actor')) !== actor.externalId
    ) {
      throw notAcceptable('Unsupported activity: only the Undo of a Follow of this user is understood');
    }
    await unfollow(c.em, actor.userId, user.id);
    return noContent();
  }
  if (idOf(field(c.body, 'object')) !== target) throw notAcceptable(`Invalid follow activity: the object is not ${target}`);
  if (await isFollowing(c.em, actor.userId, user.id)) return noContent();
  await follow(c.em, actor.userId, user.id);
  // Forgejo also queues an Accept for the follower's inbox; cairn has no delivery queue yet, so the
  // remote learns of the follow only from this answer.
  return { status: 202, body: { status: 'Accepted' } };
};

/** The remote person accepted a Follow the user sent (POST /user/activitypub/follow): from now on
 *  the user follows the person's stand-in (Forgejo's processPersonInboxAccept). */
async function acceptFollow(c: HandlerCtx<APActivity>, userId: number, actor: IFederatedUser): Promise<Reply> {
  const inner = field(c.body, 'object');
  const sent = inner && typeof inner === 'object' ? (inner as APActivity) : null;
  if (
    !sent ||
    field(sent, 'type') !== 'Follow' ||
    idOf(field(sent, 'actor')) !== userActorUrl(c.config, userId) ||
    idOf(field(sent, 'object')) !== actor.externalId
  ) {
    throw notAcceptable('Unsupported activity: only the Accept of a Follow by this user of the accepting actor is understood');
  }
  await follow(c.em, userId, actor.userId);
  return noContent();
}

// ---- following a remote person ------------------------------------------------------------------

/** `POST /user/activitypub/follow`: sends a signed Follow to the remote person's inbox. Forgejo queues
 *  it; cairn delivers it at once, so a remote that cannot be reached is reported (406, like Forgejo's
 *  answer to an actor it cannot find). The follow counts once the remote's Accept arrives. No
 *  transaction is open while the remote answers (`network`): the person is stored in a short one
 *  between the two calls, and stays when the delivery fails, a cached remote actor as SIG keeps one. */
export const followRemote: Handler<APRemoteFollowOption> = network(async (c) => {
  const doer = need(c.auth.doer ?? undefined, 'user');
  const target = (c.body.target ?? '').trim();
  if (target === '') throw unprocessable('[Target]: Required');
  try {
    const actor = await fetchActor(c.em, c.config, c.services, target);
    if (actor.type !== 'Person' || !actor.inbox) throw new FederationError(`${target} is not a person with an inbox`);
    const person = await transactionOf(c)(() => storePerson(c.em, c.config, actor));
    const from = userActorUrl(c.config, doer.id);
    await deliver(c.em, c.config, c.services, doer.id, actor.inbox, {
      '@context': AS_CONTEXT,
      id: `${from}#follows/${person.id}`,
      type: 'Follow',
      actor: from,
      object: actor.id,
    });
  } catch (e) {
    if (e instanceof FederationError) throw notAcceptable(`Federated user not found: ${e.message}`);
    throw e;
  }
  return noContent();
});

// ---- repositories -------------------------------------------------------------------------------

export const getRepositoryId: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const id = repoActorUrl(c.config, repo.id);
  return activity(200, { '@context': AS_CONTEXT, id, type: 'Repository', name: repo.name, inbox: `${id}/inbox`, outbox: `${id}/outbox` });
};

export const listRepositoryIdOutbox: Handler = async (c) => emptyOutbox(repoActorUrl(c.config, need(c.repo, 'repo').repo.id));

/** A Like of this repository stars it for the remote person (Forgejo's ProcessLikeActivity): it needs a
 *  start time newer than the last activity processed from that host, against replays out of order. */
export const createRepositoryIdInbox: Handler<APActivity> = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const type = field(c.body, 'type');
  if (type !== 'Like') throw notAcceptable(`Unsupported activity: ${String(type)}`);
  const actor = await actorOf(c);
  if (idOf(field(c.body, 'object')) !== repoActorUrl(c.config, repo.id))
    throw notAcceptable('Invalid repoId: the object is not this repository');
  const started = new Date(String(field(c.body, 'startTime') ?? ''));
  if (Number.isNaN(started.getTime())) throw notAcceptable('Invalid activity: startTime is missing');
  const host = await c.em.findOneOrFail(FederationHost, { id: actor.federationHostId });
  if (host.latestActivity && started.getTime() <= host.latestActivity.getTime())
    throw notAcceptable('LatestActivity: activity already processed');
  await setStar(c.em, actor.userId, repo, true);
  host.latestActivity = started;
  await c.em.flush();
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `activitypub.<key>`. */
export const handlers = {
  nodeinfo,
  listActor,
  createActorInbox,
  listActorOutbox,
  getUserId,
  createUserIdInbox,
  listUserIdOutbox,
  getUserIdActivities,
  listUserIdActivitiesActivity,
  getRepositoryId,
  createRepositoryIdInbox,
  listRepositoryIdOutbox,
  followRemote,
} satisfies Record<string, Handler<never, never>>;
