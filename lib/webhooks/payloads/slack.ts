// Slack incoming-webhook messages (Forgejo's services/webhook/slack.go): a text line with Slack's
// `<url|text>` links and names in inline code, plus an attachment for bodies and commit lists.
import { PayloadFormatter, refUrl, reviewAction, shortRef } from './format.ts';
import type { Convertor } from './types.ts';

export interface SlackMeta {
  channel: string;
  username: string;
  icon_url: string;
  color: string;
}

interface Attachment {
  fallback: string;
  color: string;
  title: string;
  title_link: string;
  text: string;
}
export interface SlackPayload {
  channel: string;
  text: string;
  username: string;
  icon_url: string;
  unfurl_links: number;
  link_names: number;
  /** Go's nil slice: null when there is none. */
  attachments: Attachment[] | null;
}

/** Slack's escaping of &, < and > (https://api.slack.com/docs/formatting). */
const text = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const name = (n: string) => `\`${text(n.replace(/`/g, "'"))}\``;
const link = (url: string, t: string) => `<${url}|${text(t)}>`;
const firstLine = (s: string) => text(s.split('\n')[0]);
const hex = (n: number) => n.toString(16);
const attachment = (color: string, title: string, titleLink: string, body: string): Attachment => ({
  fallback: '',
  color,
  title,
  title_link: titleLink,
  text: body,
});

export function slackConvertor(appUrl: string, meta: SlackMeta): Convertor<SlackPayload> {
  const fmt = new PayloadFormatter(appUrl, { link, name, withSender: true, withRepoName: true });
  const payload = (t: string, attachments: Attachment[] | null = null): SlackPayload => ({
    channel: meta.channel,
    text: t,
    username: meta.username,
    icon_url: meta.icon_url,
    unfurl_links: 0,
    link_names: 0,
    attachments,
  });
  return {
    create: (p) =>
      payload(
        `[${p.repository.full_name}:${link(refUrl(p.repository.html_url, p.ref), shortRef(p.ref))}] ${p.ref_type} created by ${name(p.sender.login)}`,
      ),
    delete: (p) =>
      payload(
        `[${link(p.repository.html_url, p.repository.full_name)}:${shortRef(p.ref)}] ${p.ref_type} deleted by ${name(p.sender.login)}`,
      ),
    fork: (p) =>
      payload(`${link(p.forkee.html_url, p.forkee.full_name)} is forked to ${link(p.repository.html_url, p.repository.full_name)}`),
    issue(p) {
      const i = fmt.issues(p);
      return payload(i.text, i.attachment ? [attachment(hex(i.color), text(i.title), p.issue.html_url, text(i.attachment))] : null);
    },
    issueComment(p) {
      const c = fmt.comment(p);
      return payload(c.text, [attachment(hex(c.color), c.title, p.comment.html_url, text(p.comment.body))]);
    },
    push(p) {
      const desc = p.total_commits === 1 ? '1 new commit' : `${p.total_commits} new commits`;
      const commits = p.compare_url ? link(p.compare_url, desc) : desc;
      const head = `[${p.repository.full_name}:${link(refUrl(p.repository.html_url, p.ref), shortRef(p.ref))}] ${commits} pushed by ${name(p.pusher.login)}`;
      const lines = p.commits.map((c) => `${link(c.url, c.id.slice(0, 7))}: ${firstLine(c.message)} - ${name(c.author?.name ?? '')}`);
      return payload(head, [attachment(meta.color, p.repository.html_url, p.repository.html_url, lines.join('\n'))]);
    },
    pullRequest(p) {
      const i = fmt.pull(p);
      return payload(
        i.text,
        i.attachment ? [attachment(hex(i.color), text(i.title), p.pull_request.html_url, text(p.pull_request.body))] : null,
      );
    },
    review(p, event) {
      const title = `#${p.number} ${p.pull_request.title}`;
      const t =
        p.action === 'reviewed'
          ? `[${p.repository.full_name}] Pull request review ${reviewAction(event)}: [${title}](${p.repository.html_url}/pulls/${p.number}) by ${name(p.sender.login)}`
          : '';
      return payload(t);
    },
    repository(p) {
      const repo = link(p.repository.html_url, p.repository.full_name);
      const verb = ({ created: 'created', deleted: 'deleted' } as Record<string, string>)[p.action];
      return payload(verb ? `[${repo}] Repository ${verb} by ${name(p.sender.login)}` : '');
    },
    release: (p) => payload(fmt.release(p).text),
    wiki: (p) => payload(fmt.wiki(p, true).text),
  };
}
