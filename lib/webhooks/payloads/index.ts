// From a stored hook task to the body a chat service expects (Forgejo's shared.NewPayload and each
// handler's NewRequest): the task's fine event type picks the converter method, the hook's type and
// settings pick the converter.
import type { Config } from '../../../config.ts';
import type { IHookTask, IWebhook } from '../../../model/webhook.ts';
import { dingtalkConvertor } from './dingtalk.ts';
import { discordConvertor, type DiscordMeta } from './discord.ts';
import { feishuConvertor } from './feishu.ts';
import { goJson } from './format.ts';
import { matrixConvertor, matrixTxnId, type MatrixMeta } from './matrix.ts';
import { msteamsConvertor } from './msteams.ts';
import { packagistPayload, type PackagistMeta } from './packagist.ts';
import { slackConvertor, type SlackMeta } from './slack.ts';
import { buildsConvertor, type BuildsMeta } from './sourcehut-builds.ts';
import { telegramConvertor } from './telegram.ts';
import { UnsupportedEvent, type Convertor, type ReviewEvent } from './types.ts';
import { wechatworkConvertor } from './wechatwork.ts';

export { UnsupportedEvent } from './types.ts';

/** What the converted delivery looks like before the transport adds its headers. */
export interface Converted {
  /** The body, JSON as Go writes it. */
  body: string;
  /** The destination: the hook's URL, except for Matrix, which appends the transaction id. */
  url: string;
  /** Matrix sends PUT; everything else the hook's method. */
  method: string;
  /** Whether Forgejo's X-Forgejo-*, X-Gitea-*, X-Gogs-* and signature headers go along. */
  withDefaultHeaders: boolean;
}

export interface ConvertContext {
  cfg: Config;
  /** The bare repository of `owner/name`. */
  repoPath(fullName: string): string;
}

/** Forgejo's shared.NewPayload: the payload family of each fine event type. */
async function dispatch<T>(c: Convertor<T>, eventType: string, payload: string): Promise<T> {
  const p = JSON.parse(payload);
  switch (eventType) {
    case 'create':
      return c.create(p);
    case 'delete':
      return c.delete(p);
    case 'fork':
      return c.fork(p);
    case 'issues':
    case 'issue_assign':
    case 'issue_label':
    case 'issue_milestone':
      return c.issue(p);
    case 'issue_comment':
    case 'pull_request_comment':
      return c.issueComment(p);
    case 'push':
      return c.push(p);
    case 'pull_request':
    case 'pull_request_assign':
    case 'pull_request_label':
    case 'pull_request_milestone':
    case 'pull_request_sync':
    case 'pull_request_review_request':
      return c.pullRequest(p);
    case 'pull_request_review_approved':
    case 'pull_request_review_rejected':
    case 'pull_request_review_comment':
      return c.review(p, eventType as ReviewEvent);
    case 'repository':
      return c.repository(p);
    case 'release':
      return c.release(p);
    case 'wiki':
      return c.wiki(p);
    default:
      throw new UnsupportedEvent(`newPayload unsupported event: ${eventType}`);
  }
}

/** The type's settings (Webhook.meta); a hook stored without them gets Go's zero values. */
function meta<T extends object>(hook: IWebhook, zero: T): T {
  if (!hook.meta) return zero;
  return { ...zero, ...(JSON.parse(hook.meta) as Partial<T>) };
}

/** The chat-service body for a task; throws UnsupportedEvent where the service takes no such event. */
export async function convertTask(ctx: ConvertContext, hook: IWebhook, task: Pick<IHookTask, 'eventType' | 'payload'>): Promise<Converted> {
  const app = ctx.cfg.appUrl;
  const plain = async <T>(c: Convertor<T>, withDefaultHeaders = true): Promise<Converted> => ({
    body: goJson(await dispatch(c, task.eventType, task.payload)),
    url: hook.url,
    method: hook.httpMethod,
    withDefaultHeaders,
  });
  switch (hook.type) {
    case 'slack':
      return plain(slackConvertor(app, meta<SlackMeta>(hook, { channel: '', username: '', icon_url: '', color: '' })));
    case 'discord':
      return plain(discordConvertor(app, meta<DiscordMeta>(hook, { username: '', icon_url: '' })));
    case 'dingtalk':
      return plain(dingtalkConvertor(app));
    case 'telegram':
      return plain(telegramConvertor(app));
    case 'msteams':
      return plain(msteamsConvertor(app));
    case 'feishu':
      return plain(feishuConvertor(app));
    case 'wechatwork':
      return plain(wechatworkConvertor(app));
    case 'matrix': {
      const m = meta<MatrixMeta>(hook, { homeserver_url: '', room_id: '', message_type: 0 });
      const body = goJson(await dispatch(matrixConvertor(app, m), task.eventType, task.payload));
      return { body, url: `${hook.url}/${matrixTxnId(task.payload)}`, method: 'PUT', withDefaultHeaders: false };
    }
    case 'packagist': {
      const m = meta<PackagistMeta>(hook, { username: '', api_token: '', package_url: '' });
      return { body: goJson(packagistPayload(m)), url: hook.url, method: hook.httpMethod, withDefaultHeaders: false };
    }
    case 'sourcehut_builds': {
      const m = meta<BuildsMeta>(hook, { manifest_path: '', visibility: '', secrets: false });
      const builds = { appUrl: app, httpGitDisabled: ctx.cfg.REPOSITORY.DISABLE_HTTP_GIT, repoPath: ctx.repoPath };
      return plain(buildsConvertor(builds, m), false);
    }
    default:
      throw new UnsupportedEvent(`no payload converter for hook type ${hook.type}`);
  }
}
