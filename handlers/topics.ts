// Repository topics and the instance-wide topic search (Forgejo routers/api/v1/repo/topic.go).
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { RepoTopicOptions } from '../model/schemas/index.ts';
import { RepoTopic, Topic } from '../model/topic.ts';
import { notFound } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { toApiTopic } from '../lib/repos/api/topic.ts';
import {
  MAX_TOPICS,
  addTopic,
  countRepoTopics,
  normalizeTopic,
  removeTopic,
  sanitizeTopics,
  saveTopics,
  validTopic,
} from '../lib/repos/topics.ts';
import { need } from '../lib/http/request.ts';
import type { QueryOf } from '../model/schemas/query.ts';

/** The 422 body Forgejo answers for topic names it refuses (APIInvalidTopicsError). */
const invalid = (invalidTopics: string[] | null, message: string) => json(422, { invalidTopics, message });

export const list: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const p = pageOf(c);
  const links = await c.em.find(RepoTopic, { repoId: repo.id });
  const topics = links.length
    ? await c.em.find(Topic, { id: { $in: links.map((l) => l.topicId) } }, { orderBy: { name: 'asc' }, limit: p.limit, offset: p.offset })
    : [];
  return json(200, { topics: topics.map((t) => t.name) }, pagingHeaders(c, p, links.length));
};

export const replaceAll: Handler<RepoTopicOptions> = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const { valid, invalid: bad } = sanitizeTopics(c.body.topics ?? []);
  if (valid.length > MAX_TOPICS) return invalid(null, 'Exceeding maximum number of topics per repo');
  if (bad.length) return invalid(bad, 'Topic names are invalid');
  await saveTopics(c.em, repo, valid);
  return noContent();
};

export const add: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const name = normalizeTopic(c.params.topic ?? '');
  if (!validTopic(name)) return invalid([name], 'Topic name is invalid');
  if (!repo.topics.includes(name) && (await countRepoTopics(c.em, repo.id)) >= MAX_TOPICS)
    return invalid(null, 'Exceeding maximum allowed topics per repo.');
  await addTopic(c.em, repo, name);
  return noContent();
};

export const remove: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const name = normalizeTopic(c.params.topic ?? '');
  if (!validTopic(name)) return invalid([name], 'Topic name is invalid');
  if (!(await removeTopic(c.em, repo, name))) throw notFound();
  return noContent();
};

/** `GET /topics/search?q=`: topics whose name contains q, most used first. */
export const search: Handler<never, QueryOf<'Search'>> = async (c) => {
  const p = pageOf(c);
  const q = (c.q.q ?? '').toLowerCase();
  const where = q ? { name: { $like: `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` } } : {};
  const [topics, total] = await c.em.findAndCount(Topic, where, {
    orderBy: [{ repoCount: 'desc' }, { name: 'asc' }],
    limit: p.limit,
    offset: p.offset,
  });
  const body = topics.map(toApiTopic);
  return json(200, { topics: body }, pagingHeaders(c, p, total));
};

/** This family's handlers; `routes.table.ts` names each `topics.<key>`. */
export const handlers = {
  search,
  list,
  replaceAll,
  add,
  remove,
} satisfies Record<string, Handler<never, never>>;
