// api.TopicResponse wire shape (Forgejo's convert.ToTopicResponse).
import type { ITopic } from '../../../model/topic.ts';
import { fmtTime } from '../../../model/time.ts';
import type { TopicResponse, Wire } from '../../../model/schemas/index.ts';

export type ApiTopic = Wire<TopicResponse>;

export function toApiTopic(t: ITopic): ApiTopic {
  return { id: t.id, topic_name: t.name, repo_count: t.repoCount, created: fmtTime(t.createdAt), updated: fmtTime(t.updatedAt) };
}
