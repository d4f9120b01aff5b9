// Telegram Bot API sendMessage bodies (Forgejo's services/webhook/telegram.go): HTML text, sanitised,
// without link previews. The bot token and chat travel in the hook's URL, as Forgejo stores it.
import sanitizeHtml from 'sanitize-html';
import { htmlLink, noneName, PayloadFormatter, reviewAction, shortRef } from './format.ts';
import type { Convertor } from './types.ts';

export interface TelegramMeta {
  bot_token: string;
  chat_id: string;
  thread_id: string;
}
export interface TelegramPayload {
  text: string;
  parse_mode: string;
  disable_web_page_preview: boolean;
}

/**
 * Forgejo runs the text through its markup sanitiser (bluemonday's UGC policy), which keeps ordinary
 * formatting and links and drops scripts, styles and event handlers; sanitize-html's defaults do the same.
 */
const sanitize = (s: string) =>
  sanitizeHtml(s, { allowedAttributes: { ...sanitizeHtml.defaults.allowedAttributes, a: ['href', 'title'] } });

const payload = (message: string): TelegramPayload => ({
  text: sanitize(message.trim()),
  parse_mode: 'HTML',
  disable_web_page_preview: true,
});

export function telegramConvertor(appUrl: string): Convertor<TelegramPayload> {
  const fmt = new PayloadFormatter(appUrl, { link: htmlLink, name: noneName, withSender: true, withRepoName: true });
  const refLink = (html: string, ref: string) => `<a href="${html}/src/${shortRef(ref)}">${shortRef(ref)}</a>`;
  return {
    create: (p) => payload(`[${p.repository.full_name}] ${p.ref_type} ${refLink(p.repository.html_url, p.ref)} created`),
    delete: (p) => payload(`[${p.repository.full_name}] ${p.ref_type} ${refLink(p.repository.html_url, p.ref)} deleted`),
    fork: (p) => payload(`${p.forkee.full_name} is forked to <a href="${p.repository.html_url}">${p.repository.full_name}</a>`),
    push(p) {
      const desc = p.total_commits === 1 ? '1 new commit' : `${p.total_commits} new commits`;
      const lines = p.commits.map(
        (c) => `[<a href="${c.url}">${c.id.slice(0, 7)}</a>] ${c.message.replace(/[\r\n]+$/, '')}${c.author ? ` - ${c.author.name}` : ''}`,
      );
      return payload(`[${p.repository.full_name}:${shortRef(p.ref)}] ${desc}\n${lines.join('\n')}`);
    },
    issue(p) {
      const i = fmt.issues(p);
      return payload(`${i.text}\n\n${i.attachment}`);
    },
    issueComment: (p) => payload(`${fmt.comment(p).text}\n${p.comment.body}`),
    pullRequest(p) {
      const i = fmt.pull(p);
      return payload(`${i.text}\n${i.attachment}`);
    },
    review(p, event) {
      if (p.action !== 'reviewed') return payload('\n');
      return payload(
        `[${p.repository.full_name}] Pull request review ${reviewAction(event)}: #${p.number} ${p.pull_request.title}\n${p.review?.content ?? ''}`,
      );
    },
    repository(p) {
      if (p.action === 'created') return payload(`[<a href="${p.repository.html_url}">${p.repository.full_name}</a>] Repository created`);
      if (p.action === 'deleted') return payload(`[${p.repository.full_name}] Repository deleted`);
      // Go's zero value: an empty message.
      return { text: '', parse_mode: '', disable_web_page_preview: false };
    },
    release: (p) => payload(fmt.release(p).text),
    wiki: (p) => payload(fmt.wiki(p, true).text),
  };
}
