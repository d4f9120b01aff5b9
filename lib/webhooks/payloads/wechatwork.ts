// WeChat Work (WeCom) group robot messages (Forgejo's services/webhook/wechatwork.go): markdown with
// WeCom's <font color> tags.
import { noneLink, noneName, PayloadFormatter, reviewAction, shortRef } from './format.ts';
import type { Convertor } from './types.ts';

export interface WechatworkPayload {
  msgtype: string;
  text: { content: string; mentioned_list: string[] | null; mentioned_mobile_list: string[] | null };
  markdown: { content: string };
}

const markdown = (content: string): WechatworkPayload => ({
  msgtype: 'markdown',
  text: { content: '', mentioned_list: null, mentioned_mobile_list: null },
  markdown: { content },
});

export function wechatworkConvertor(appUrl: string): Convertor<WechatworkPayload> {
  const fmt = new PayloadFormatter(appUrl, { link: noneLink, name: noneName, withSender: true, withRepoName: true });
  return {
    create: (p) => markdown(`[${p.repository.full_name}] ${p.ref_type} ${shortRef(p.ref)} created`),
    delete: (p) => markdown(`[${p.repository.full_name}] ${p.ref_type} ${shortRef(p.ref)} deleted`),
    fork: (p) => markdown(`${p.forkee.full_name} is forked to ${p.repository.full_name}`),
    push(p) {
      // As in Forgejo, the heading's commit description is empty.
      const title = `# ${p.repository.full_name}:${shortRef(p.ref)} <font color="warning">    </font>`;
      const lines = p.commits.map((c) => {
        const author = c.author ? `Author: ${c.author.name}` : '';
        return ` > [${c.id.slice(0, 7)}](${c.url}) \r\n ><font color="info">${c.message.replaceAll('\n\n', '\r\n')}</font> \n ><font color="warning">${author}</font>`;
      });
      return markdown(`${title}\r\n\r\n${lines.join('\n')}`);
    },
    issue(p) {
      const i = fmt.issues(p);
      return markdown(
        ` ><font color="info">${i.text}</font>\n >${i.attachment} \n ><font color="warning"> ${i.title}</font> \n [${p.issue.html_url}](${p.issue.html_url})`,
      );
    },
    issueComment(p) {
      const c = fmt.comment(p);
      return markdown(
        ` ><font color="info">${c.text}</font>\n >${p.comment.body} \n ><font color="warning">${c.title}</font> \n [${p.comment.html_url}](${p.comment.html_url})`,
      );
    },
    pullRequest(p) {
      const i = fmt.pull(p);
      return markdown(
        `> <font color="info"> ${i.text} </font> \r\n > <font color="comment">${i.title} </font> \r\n > <font color="comment">${i.attachment} </font> \r\n`,
      );
    },
    review(p, event) {
      const reviewed = p.action === 'reviewed';
      const title = reviewed
        ? `[${p.repository.full_name}] Pull request review ${reviewAction(event)} : #${p.number} ${p.pull_request.title}`
        : '';
      return markdown(`# ${title}\r\n\r\n >${reviewed ? (p.review?.content ?? '') : ''}`);
    },
    repository(p) {
      if (p.action === 'created') return markdown(`[${p.repository.full_name}] Repository created`);
      if (p.action === 'deleted') return markdown(`[${p.repository.full_name}] Repository deleted`);
      return { msgtype: '', text: { content: '', mentioned_list: null, mentioned_mobile_list: null }, markdown: { content: '' } };
    },
    release: (p) => markdown(fmt.release(p).text),
    wiki: (p) => markdown(fmt.wiki(p, true).text),
  };
}
