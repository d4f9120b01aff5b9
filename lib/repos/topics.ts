// Repository topics (Forgejo models/repo/topic.go): names are lower case, match
// `^[a-z0-9][-.a-z0-9]*$`, are at most 35 characters, and a repository carries at most 25.
import type { EntityManager } from '@mikro-orm/core';
import type { IRepository } from '../../model/repo.ts';
import { RepoTopic, Topic, type ITopic } from '../../model/topic.ts';
import { learnCounters, lockCounterRows } from '../db/counters.ts';
import { executeSql, sql, writeSql } from '../../model/sql.ts';

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

/** Recount `repo_count` of topics under their row locks (lib/db/counters.ts); held entities learn it. */
async function recount(em: EntityManager, topicIds: number[]): Promise<void> {
  await em.flush();
  const ids = [...new Set(topicIds)];
  if (ids.length === 0) return;
  await lockCounterRows(em, { topic: ids });
  const rows = await executeSql<{ id: number; repo_count: number }>(
    em,
    sql`update topic t set repo_count = (select count(*) from repo_topic rt where rt.topic_id = t.id)
      where t.id in (${sql.list(ids)}) returning id, repo_count`,
  );
  for (const r of rows) learnCounters(em, Topic, r.id, { repoCount: Number(r.repo_count) });
}

/** The topic names of a repository, most used first (the order Forgejo keeps in `repository.topics`). */
async function syncRepoColumn(em: EntityManager, repo: IRepository): Promise<void> {
  const links = await em.find(RepoTopic, { repoId: repo.id });
  const topics = links.length ? await em.find(Topic, { id: { $in: links.map((l) => l.topicId) } }) : [];
  topics.sort((a, b) => b.repoCount - a.repoCount || a.name.localeCompare(b.name));
  repo.topics = topics.map((t) => t.name);
  await em.flush();
}

/** The topic of that name, created if new; another request creating it at the same time is waited for. */
async function topicNamed(em: EntityManager, name: string): Promise<ITopic> {
  const existing = await em.findOne(Topic, { name });
  if (existing) return existing;
  const now = new Date();
  await writeSql(
    em,
    sql`insert into topic (name, repo_count, created_at, updated_at) values (${name}, 0, ${now}, ${now}) on conflict (name) do nothing`,
  );
  const t = await em.findOne(Topic, { name });
  if (!t) throw new Error(`topic ${name} vanished after its insert`);
  return t;
}

/** Replaces the repository's topics with `names` (already sanitized). */
export async function saveTopics(em: EntityManager, repo: IRepository, names: string[]): Promise<void> {
  const old = await em.find(RepoTopic, { repoId: repo.id });
  // One after another: they share the transaction's connection (model/reads.ts).
  const wanted: ITopic[] = [];
  for (const n of names) wanted.push(await topicNamed(em, n));
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
  await writeSql(
    em,
    sql`insert into repo_topic (repo_id, topic_id) values (${repo.id}, ${t.id}) on conflict (repo_id, topic_id) do nothing`,
  );
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
  await recount(
    em,
    links.map((l) => l.topicId),
  );
}

/** Copies the topics of one repository to another (template generation). */
export async function copyTopics(em: EntityManager, from: IRepository, to: IRepository): Promise<void> {
  await saveTopics(em, to, [...from.topics]);
}
