// Feishu (Lark) bot messages (Forgejo's services/webhook/feishu.go): plain text. Issues, pulls and
// comments use Forgejo's older multi-line summary (title, link, author, operator, body).
import { noneLink, noneName, PayloadFormatter, reviewAction, shortRef } from './format.ts';
import type { Convertor, IssuePayload, PullRequestPayload } from './types.ts';

export interface FeishuPayload {
  msg_type: string;
  content: { text: string };
}

const text = (t: string): FeishuPayload => ({ msg_type: 'text', content: { text: t.trim() } });

/** Forgejo's getIssuesInfo / getPullRequestInfo: the lines of the multi-line summary. */
function info(
  kind: 'Issue' | 'PullRequest',
  p: IssuePayload | PullRequestPayload,
  item: IssuePayload['issue'] | PullRequestPayload['pull_request'],
) {
  const title = `[${kind}-${p.repository.full_name} #${item.number}]: ${p.action}\n${item.title}`;
  const assignees = item.assignees ?? [];
  let result = '';
  if (p.action === 'assigned') result = `${p.sender.login} assign this to ${assignees.at(-1)?.login ?? ''}`;
  else if (p.action === 'unassigned') result = `${p.sender.login} unassigned this for someone`;
  else if (p.action === 'milestoned') result = `${p.repository.html_url}/milestone/${item.milestone?.id ?? 0}`;
  const list = assignees.length ? `Assignees: ${assignees.map((u) => u.login).join(', ')}` : '';
  return {
    title,
    link: item.html_url,
    by: `${kind} by ${item.user.login}`,
    operator: `Operator: ${p.sender.login}`,
    result,
    assignees: list,
  };
}

function summary(
  kind: 'Issue' | 'PullRequest',
  p: IssuePayload | PullRequestPayload,
  item: IssuePayload['issue'] | PullRequestPayload['pull_request'],
): FeishuPayload {
  const i = info(kind, p, item);
  if (!i.assignees) return text(`${i.title}\n${i.link}\n${i.by}\n${i.operator}\n\n${item.body}`);
  if (['assigned', 'unassigned', 'milestoned'].includes(p.action))
    return text(`${i.title}\n${i.link}\n${i.by}\n${i.operator}\n${i.result}\n${i.assignees}\n\n${item.body}`);
  return text(`${i.title}\n${i.link}\n${i.by}\n${i.operator}\n${i.assignees}\n\n${item.body}`);
}

export function feishuConvertor(appUrl: string): Convertor<FeishuPayload> {
  const fmt = new PayloadFormatter(appUrl, { link: noneLink, name: noneName, withSender: true, withRepoName: true });
  return {
    create: (p) => text(`[${p.repository.full_name}] ${p.ref_type} ${shortRef(p.ref)} created`),
    delete: (p) => text(`[${p.repository.full_name}] ${p.ref_type} ${shortRef(p.ref)} deleted`),
    fork: (p) => text(`${p.forkee.full_name} is forked to ${p.repository.full_name}`),
    push(p) {
      // As in Forgejo, the commit count is left out of the first line (its description is never set).
      const lines = p.commits.map(
        (c) => `[${c.id.slice(0, 7)}](${c.url}) ${c.message.replace(/[\r\n]+$/, '')}${c.author ? ` - ${c.author.name}` : ''}`,
      );
      return text(`[${p.repository.full_name}:${shortRef(p.ref)}] \r\n${lines.join('\r\n')}`);
    },
    issue: (p) => summary('Issue', p, p.issue),
    issueComment(p) {
      const title = `[Comment-${p.repository.full_name} #${p.issue.number}]: ${p.action}\n${p.issue.title}`;
      const by = `${p.is_pull ? 'PullRequest' : 'Issue'} by ${p.issue.user.login}`;
      return text(`${title}\n${p.issue.html_url}\n${by}\nOperator: ${p.sender.login}\n\n${p.comment.body}`);
    },
    pullRequest: (p) => summary('PullRequest', p, p.pull_request),
    review: (p, event) =>
      text(
        `[${p.repository.full_name}] Pull request review ${reviewAction(event)} : #${p.number} ${p.pull_request.title}\r\n\r\n${p.review?.content ?? ''}`,
      ),
    repository(p) {
      if (p.action === 'created') return text(`[${p.repository.full_name}] Repository created`);
      if (p.action === 'deleted') return text(`[${p.repository.full_name}] Repository deleted`);
      return { msg_type: '', content: { text: '' } };
    },
    release: (p) => text(fmt.release(p).text),
    wiki: (p) => text(fmt.wiki(p, true).text),
  };
}
