// DingTalk robot messages (Forgejo's services/webhook/dingtalk.go): an action card whose single button
// opens the event's page in the browser (DingTalk's dingtalkclient link, not its in-app viewer).
import { noneLink, noneName, pathEscape, pathEscapeSegments, PayloadFormatter, queryEscape, reviewAction, shortRef } from './format.ts';
import type { Convertor } from './types.ts';

interface ActionCard {
  text: string;
  title: string;
  hideAvatar: string;
  singleTitle: string;
  singleURL: string;
}
export interface DingtalkPayload {
  msgtype: string;
  text: { content: string };
  actionCard: ActionCard;
}

const EMPTY_CARD: ActionCard = { text: '', title: '', hideAvatar: '', singleTitle: '', singleURL: '' };

function card(title: string, text: string, singleTitle: string, singleUrl: string): DingtalkPayload {
  return {
    msgtype: 'actionCard',
    text: { content: '' },
    actionCard: {
      text: text.trim(),
      title: title.trim(),
      hideAvatar: '0',
      singleTitle,
      singleURL: `dingtalk://dingtalkclient/page/link?pc_slide=false&url=${queryEscape(singleUrl)}`,
    },
  };
}

export function dingtalkConvertor(appUrl: string): Convertor<DingtalkPayload> {
  const fmt = new PayloadFormatter(appUrl, { link: noneLink, name: noneName, withSender: true, withRepoName: true });
  const refPage = (html: string, ref: string) => `${html}/src/${pathEscapeSegments(shortRef(ref))}`;
  return {
    create(p) {
      const title = `[${p.repository.full_name}] ${p.ref_type} ${shortRef(p.ref)} created`;
      return card(title, title, `view ref ${shortRef(p.ref)}`, refPage(p.repository.html_url, p.ref));
    },
    delete(p) {
      const title = `[${p.repository.full_name}] ${p.ref_type} ${shortRef(p.ref)} deleted`;
      return card(title, title, `view ref ${shortRef(p.ref)}`, refPage(p.repository.html_url, p.ref));
    },
    fork(p) {
      const title = `${p.forkee.full_name} is forked to ${p.repository.full_name}`;
      return card(title, title, `view forked repo ${p.repository.full_name}`, p.repository.html_url);
    },
    push(p) {
      const one = p.total_commits === 1;
      const titleLink = (one ? p.commits[0]?.url : p.compare_url) || refPage(p.repository.html_url, p.ref);
      const title = `[${p.repository.full_name}:${shortRef(p.ref)}] ${one ? '1 new commit' : `${p.total_commits} new commits`}`;
      const text = p.commits
        .map((c) => `[${c.id.slice(0, 7)}](${c.url}) ${c.message.replace(/[\r\n]+$/, '')}${c.author ? ` - ${c.author.name}` : ''}`)
        .join('\r\n');
      return card(title, text, one ? 'view commit' : 'view commits', titleLink);
    },
    issue(p) {
      const i = fmt.issues(p);
      return card(i.title, `${i.text}\r\n\r\n${i.attachment}`, 'view issue', p.issue.html_url);
    },
    issueComment(p) {
      const c = fmt.comment(p);
      return card(c.title, `${c.text}\r\n\r\n${p.comment.body}`, 'view issue comment', p.comment.html_url);
    },
    pullRequest(p) {
      const i = fmt.pull(p);
      return card(i.title, `${i.text}\r\n\r\n${i.attachment}`, 'view pull request', p.pull_request.html_url);
    },
    review(p, event) {
      const title =
        p.action === 'reviewed'
          ? `[${p.repository.full_name}] Pull request review ${reviewAction(event)} : #${p.number} ${p.pull_request.title}`
          : '';
      return card(
        title,
        `${title}\r\n\r\n${p.action === 'reviewed' ? (p.review?.content ?? '') : ''}`,
        'view pull request',
        p.pull_request.html_url,
      );
    },
    repository(p) {
      if (p.action === 'created') {
        const title = `[${p.repository.full_name}] Repository created`;
        return card(title, title, 'view repository', p.repository.html_url);
      }
      // A deleted repository has no page: a plain text message.
      return {
        msgtype: p.action === 'deleted' ? 'text' : '',
        text: { content: p.action === 'deleted' ? `[${p.repository.full_name}] Repository deleted` : '' },
        actionCard: EMPTY_CARD,
      };
    },
    release(p) {
      const t = fmt.release(p).text;
      return card(t, t, 'view release', p.release.html_url);
    },
    wiki(p) {
      const t = fmt.wiki(p, true).text;
      return card(t, t, 'view wiki', `${p.repository.html_url}/wiki/${pathEscape(p.page)}`);
    },
  };
}
