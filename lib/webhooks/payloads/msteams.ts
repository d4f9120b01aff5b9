// Microsoft Teams messages (Forgejo's services/webhook/msteams.go): an Adaptive Card 1.5 with a
// repository header, the action line (with its sender), body sections for the event and a button
// that opens the event's page.
import { COLORS, noneLink, noneName, pathEscape, pathEscapeSegments, PayloadFormatter, reviewAction, shortRef } from './format.ts';
import type { Convertor, PPull, PRepo, PullRequestPayload, PUser } from './types.ts';

type Element = Record<string, unknown>;
interface Container extends Element {
  type: 'Container';
}
export interface MSTeamsPayload {
  type: 'AdaptiveCard';
  $schema: string;
  version: string;
  msteams: { width: string };
  body: Container[];
  actions: { type: string; title: string; url: string }[];
  style: string;
}

/** Go's cases.Title over a lower-cased word ("branch" → "Branch"). */
const capitalise = (s: string) =>
  s.toLowerCase().replace(/(^|[^\p{L}\p{N}'])(\p{L})/gu, (_m, sep: string, c: string) => sep + c.toUpperCase());
const markdownLink = (url: string, text: string) => (url ? `[${text}](${url})` : text);
const textBlock = (text: string, extra: Element = {}): Element => ({ type: 'TextBlock', text, ...extra });

function badgeRow(text: string, icon: string, style: string, ...refInfo: string[]): Container {
  return {
    type: 'Container',
    items: [
      {
        type: 'ColumnSet',
        columns: [
          { type: 'Column', items: [{ type: 'Badge', text, icon, size: 'Large', style }], width: 'auto' },
          {
            type: 'Column',
            items: refInfo.map((info) => textBlock(info, { size: 'Small', isSubtle: true, wrap: true, spacing: 'None' })),
            width: 'stretch',
          },
        ],
      },
    ],
    verticalContentAlignment: 'Center',
  };
}

const boxed = (style: string, items: Element[]): Container => ({ type: 'Container', items, showBorder: true, style });

function card(
  repo: PRepo | null,
  sender: PUser | null,
  actionTitle: string,
  sections: Container[],
  target: string,
  style: string,
): MSTeamsPayload {
  const header: Container = {
    type: 'Container',
    items: [
      textBlock(`💬 Update${repo ? ` | [${repo.full_name}](${repo.html_url})` : ''}`, {
        size: 'Small',
        weight: 'Bolder',
        isSubtle: true,
        wrap: true,
      }),
    ],
  };
  let title = actionTitle;
  if (sender) {
    const who = sender.full_name ? `${sender.full_name} (@${sender.login})` : `@${sender.login}`;
    title = `${actionTitle} by ${markdownLink(sender.html_url ?? '', who)}`;
  }
  const action: Container = { type: 'Container', items: [textBlock(title, { wrap: true, style: 'heading' })], style: style || 'default' };
  return {
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.5',
    msteams: { width: 'Full' },
    body: [header, action, ...sections],
    actions: [{ type: 'Action.OpenUrl', title: 'View in Forgejo', url: target }],
    style: 'default',
  };
}

const branchInfo = (pr: PPull) => {
  const head = pr.head?.ref ?? '';
  const base = pr.base?.ref ?? '';
  return head && base ? `${head} → ${base}` : head || base;
};

/** Labels, assignees, milestone (and reviewers for pulls) relevant to the action, as a fact set. */
function facts(
  action: string,
  item: { labels: { name: string }[] | null; assignees: PUser[] | null; milestone: { title: string } | null },
  extra: { title: string; value: string }[],
): { title: string; value: string }[] {
  const out = [...extra];
  const opened = action === 'opened' || action === 'reopened';
  if (item.labels?.length && (opened || action === 'label_updated' || action === 'label_cleared'))
    out.push({ title: 'Labels', value: item.labels.map((l) => l.name).join(', ') });
  if (item.assignees?.length && (opened || action === 'assigned' || action === 'unassigned'))
    out.push({ title: 'Assignee', value: item.assignees.map((u) => `@${u.login}`).join(', ') });
  if (item.milestone && (opened || action === 'milestoned')) out.push({ title: 'Milestone', value: item.milestone.title });
  return out;
}

function pullBadge(p: PullRequestPayload, reopenedText: string): Container {
  const pr = p.pull_request;
  let [style, state, icon] = ['attention', 'Closed', 'BranchRequest'];
  if (p.action === 'reopened') [style, state] = ['warning', reopenedText];
  else if (pr.state === 'open') [style, state] = ['good', 'Open'];
  else if (pr.merged) [style, state, icon] = ['accent', 'Merged', 'Branch'];
  return badgeRow(state, icon, style, branchInfo(pr), `${p.repository.full_name}#${pr.number}`);
}

export function msteamsConvertor(appUrl: string): Convertor<MSTeamsPayload> {
  const fmt = new PayloadFormatter(appUrl, { link: noneLink, name: noneName, withSender: false, withRepoName: false });
  const styleOf = (color: number) =>
    color === COLORS.green ? 'good' : color === COLORS.yellow ? 'warning' : color === COLORS.red ? 'attention' : '';
  return {
    create: (p) =>
      card(
        p.repository,
        p.sender,
        `${capitalise(p.ref_type)} created: ${shortRef(p.ref)}`,
        [],
        `${p.repository.html_url}/src/${pathEscapeSegments(shortRef(p.ref))}`,
        'good',
      ),
    delete: (p) =>
      card(p.repository, p.sender, `${capitalise(p.ref_type)} deleted: ${shortRef(p.ref)}`, [], p.repository.html_url, 'attention'),
    fork: (p) =>
      card(
        p.repository,
        p.sender,
        `${markdownLink(p.forkee.html_url, p.forkee.full_name)} is forked to ${p.repository.full_name}`,
        [],
        p.repository.html_url,
        'accent',
      ),
    push(p) {
      const branch = shortRef(p.ref);
      const one = p.total_commits === 1;
      const title = one ? `[${branch}] 1 new commit` : `[${branch}] ${p.total_commits} new commits`;
      const diff = (one ? p.commits[0]?.url : p.compare_url) || `${p.repository.html_url}/src/${pathEscapeSegments(branch)}`;
      const rows = p.commits.map(
        (c): Element => ({
          type: 'ColumnSet',
          columns: [
            {
              type: 'Column',
              items: [textBlock(markdownLink(c.url, c.id.slice(0, 8)), { size: 'Small', fontType: 'Monospace' })],
              width: 'auto',
            },
            {
              type: 'Column',
              items: [textBlock(c.message.replace(/[\r\n]+$/, ''), { size: 'Small', wrap: true, maxLines: 3 })],
              width: 'stretch',
            },
          ],
        }),
      );
      const shown = rows.slice(0, 5);
      const hidden = rows.slice(5);
      const items: Element[] = shown.length ? [...shown] : [];
      if (hidden.length) {
        const toggle = { type: 'Action.ToggleVisibility', targetElements: ['showMore', 'showLess', 'hiddenCommits'] };
        const control = (id: string, label: string, icon: string, visible: boolean): Element => ({
          type: 'Container',
          items: [
            {
              type: 'ColumnSet',
              columns: [
                { type: 'Column', items: [textBlock(label, { size: 'Small' })], width: 'auto' },
                { type: 'Column', items: [{ type: 'Icon', name: icon, size: 'xxSmall' }], width: 'auto' },
              ],
              selectAction: toggle,
            },
          ],
          id,
          ...(visible ? {} : { isVisible: false }),
        });
        items.push(
          control('showMore', hidden.length === 1 ? '*and 1 more commit*' : `*and ${hidden.length} more commits*`, 'ChevronDown', true),
          { type: 'Container', items: hidden, id: 'hiddenCommits', isVisible: false },
          control('showLess', '*Collapse*', 'ChevronUp', false),
        );
      }
      const body: Container = { type: 'Container', ...(items.length ? { items } : {}), showBorder: true, style: 'emphasis' };
      return card(p.repository, p.sender, title, [body], diff, 'default');
    },
    issue(p) {
      const i = fmt.issues(p);
      const style = p.action === 'reopened' ? 'warning' : p.issue.state === 'open' ? 'good' : 'attention';
      const sections: Container[] = [badgeRow(capitalise(p.issue.state), 'Target', style, `${p.repository.full_name}#${p.issue.number}`)];
      if (i.attachment) sections.push(boxed('emphasis', [textBlock(i.attachment, { wrap: true })]));
      const ref = p.issue.ref && (p.action === 'opened' || p.action === 'reopened') ? [{ title: 'Ref', value: p.issue.ref }] : [];
      const list = facts(p.action, p.issue, ref);
      if (list.length) sections.push({ type: 'Container', items: [{ type: 'FactSet', facts: list, separator: true }] });
      return card(p.repository, p.sender, i.text, sections, p.issue.html_url, 'default');
    },
    issueComment(p) {
      const style = p.action === 'created' ? 'good' : p.action === 'deleted' ? 'attention' : 'emphasis';
      const body = boxed(style, [textBlock('Comment', { size: 'Small', weight: 'Bolder' }), textBlock(p.comment.body, { wrap: true })]);
      return card(p.repository, p.sender, fmt.comment(p).text, [body], p.comment.html_url, 'default');
    },
    pullRequest(p) {
      const i = fmt.pull(p);
      const pr = p.pull_request;
      const sections: Container[] = [pullBadge(p, 'Open')];
      if (i.attachment) sections.push(boxed('emphasis', [textBlock(i.attachment, { wrap: true })]));
      const list = facts(p.action, pr, []);
      const reviewers = [...(pr.requested_reviewers ?? []).map((u) => u.login), ...(pr.requested_reviewers_teams ?? []).map((t) => t.name)];
      if (reviewers.length && ['review_requested', 'review_request_removed', 'opened', 'reopened'].includes(p.action))
        list.push({ title: 'Reviewers', value: reviewers.join(', ') });
      sections.push({ type: 'Container', items: [{ type: 'FactSet', facts: list, separator: true }] });
      return card(p.repository, p.sender, i.text, sections, pr.html_url, 'default');
    },
    review(p, event) {
      const sections: Container[] = [pullBadge(p, 'Re-opened')];
      let title = '';
      if (p.action === 'reviewed') {
        title = `Pull request review ${reviewAction(event)}: #${p.number} ${p.pull_request.title}`;
        const style = event === 'pull_request_review_approved' ? 'good' : event === 'pull_request_review_rejected' ? 'attention' : '';
        sections.push({
          type: 'Container',
          items: [textBlock(p.review?.content ?? '', { wrap: true })],
          showBorder: true,
          ...(style ? { style } : {}),
        });
      }
      return card(p.repository, p.sender, title, sections, p.pull_request.html_url, 'default');
    },
    repository(p) {
      if (p.action === 'created')
        return card(p.repository, p.sender, `Repository created: ${p.repository.full_name}`, [], p.repository.html_url, 'good');
      if (p.action === 'deleted') return card(p.repository, p.sender, `Repository deleted: ${p.repository.full_name}`, [], '', 'attention');
      return card(p.repository, p.sender, '', [], '', 'emphasis');
    },
    release(p) {
      const r = fmt.release(p);
      return card(p.repository, p.sender, r.text, [], p.release.html_url, styleOf(r.color));
    },
    wiki(p) {
      const w = fmt.wiki(p, false);
      const style = ({ created: 'good', edited: 'warning', deleted: 'attention' } as Record<string, string>)[p.action] ?? '';
      const sections: Container[] =
        p.action === 'deleted' ? [] : [boxed('default', [{ type: 'FactSet', facts: [{ title: 'Comment', value: p.comment }] }])];
      return card(p.repository, p.sender, w.text, sections, `${p.repository.html_url}/wiki/${pathEscape(p.page)}`, style);
    },
  };
}
