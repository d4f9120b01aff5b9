// Repository topics (Forgejo models/repo/topic.go): names are lower case, match
// `^[a-z0-9][-.a-z0-9]*$`, are at most 35 characters, and a repository carries at most 25.
import type { EntityManager } from '@mikro-orm/core';
import type { IRepository } from '../model/repo.ts';
import { RepoTopic, Topic, type ITopic } from '../model/topic.ts';

export const MAX_TOPICS = 25;
const TOPIC = /^[a-z0-9][-.a-z0-9]*$/;

export const validTopic = (t: string) => t.length <= 35 && TOPIC.test(t);
export const normalizeTopic = (t: string) => t.trim().toLowerCase();

/** Lower-cased, deduplicated, empty names dropped; the names that break the rules come back apart. */
export function sanitizeTopics(names: string[]): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const raw of names) {
    const t = normalizeTopic(raw);
    if (t === '' || valid.includes(t)) continue;
    (validTopic(t) ? valid : invalid).push(t);
  }
  return { valid, invalid };
}

async function recount(em: EntityManager, topicIds: number[]): Promise<void> {
  if (topicIds.length === 0) return;
  for (const t of await em.find(Topic, { id: { $in: topicIds } })) t.repoCount = await em.count(RepoTopic, { topicId: t.id });
  await em.flush();
}

/** The topic names of a repository, most used first (the order Forgejo keeps in `repository.topics`). */
async function syncRepoColumn(em: EntityManager, repo: IRepository): Promise<void> {
  const links = await em.find(RepoTopic, { repoId: repo.id });
  const topics = links.length ? await em.find(Topic, { id: { $in: links.map((l) => l.topicId) } }) : [];
  topics.sort((a, b) => b.repoCount - a.repoCount || a.name.localeCompare(b.name));
  repo.topics = topics.map((t) => t.name);
  await em.flush();
}

async function topicNamed(em: EntityManager, name: string): Promise<ITopic> {
  const existing = await em.findOne(Topic, { name });
  if (existing) return existing;
  const t = em.create(Topic, { name, repoCount: 0 });
  await em.flush();
  return t;
}

/** Replaces the repository's topics with `names` (already sanitized). */
export async function saveTopics(em: EntityManager, repo: IRepository, names: string[]): Promise<void> {
  const old = await em.find(RepoTopic, { repoId: repo.id });
  const wanted = await Promise.all(names.map((n) => topicNamed(em, n)));
  const keep = new Set(wanted.map((t) => t.id));
  const dropped = old.filter((l) => !keep.has(l.topicId));
  for (const l of dropped) em.remove(l);
  const have = new Set(old.map((l) => l.topicId));
  for (const t of wanted) if (!have.has(t.id)) em.create(RepoTopic, { repoId: repo.id, topicId: t.id });
  await em.flush();
  await recount(em, [...keep, ...dropped.map((l) => l.topicId)]);
  await syncRepoColumn(em, repo);
}

export async function addTopic(em: EntityManager, repo: IRepository, name: string): Promise<void> {
  const t = await topicNamed(em, name);
  if ((await em.count(RepoTopic, { repoId: repo.id, topicId: t.id })) === 0) em.create(RepoTopic, { repoId: repo.id, topicId: t.id });
  await em.flush();
  await recount(em, [t.id]);
  await syncRepoColumn(em, repo);
}

/** False when the repository does not carry the topic. */
export async function removeTopic(em: EntityManager, repo: IRepository, name: string): Promise<boolean> {
  const t = await em.findOne(Topic, { name });
  const link = t && (await em.findOne(RepoTopic, { repoId: repo.id, topicId: t.id }));
  if (!t || !link) return false;
  em.remove(link);
  await em.flush();
  await recount(em, [t.id]);
  await syncRepoColumn(em, repo);
  return true;
}

export async function countRepoTopics(em: EntityManager, repoId: number): Promise<number> {
  return em.count(RepoTopic, { repoId });
}

/** For a deleted repository: its links go, the topics' counts follow. */
export async function dropRepoTopics(em: EntityManager, repoId: number): Promise<void> {
  const links = await em.find(RepoTopic, { repoId });
  await em.nativeDelete(RepoTopic, { repoId });
  await recount(em, links.map((l) => l.topicId));
}

/** Copies the topics of one repository to another (template generation). */
export async function copyTopics(em: EntityManager, from: IRepository, to: IRepository): Promise<void> {
  await saveTopics(em, to, [...from.topics]);
}
