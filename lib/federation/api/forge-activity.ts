// ForgeFed's user activity (Forgejo's services/convert ActionToForgeUserActivity and modules/forgefed
// NewForgeUserActivity): one row of a user's own feed as an ActivityStreams `Create` of a `Note`
// whose HTML content says what the user did, addressed to the public and the user's followers. The
// note is `<actor>/activities/<id>`, the activity around it `<actor>/activities/<id>/activity`.
//
// Links are absolute (Forgejo links branches and tags relative to its own root, which a remote
// reader cannot follow), every name and text is HTML-escaped, and `published` is when the row was
// written (Forgejo stamps the time of the request).
import MarkdownIt from 'markdown-it';
import type { Config } from '../../../config.ts';
import { opName, type IAction, type OpName } from '../../../model/action.ts';
import type { IComment } from '../../../model/issue.ts';
import type { IUser } from '../../../model/user.ts';
import { fmtTime } from '../../../model/time.ts';

export const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

export interface ForgeUserActivityNote {
  id: string;
  type: 'Note';
  attributedTo: string;
  content: string;
  published: string;
  url: string;
  to: string[];
  cc: string[];
}

export interface ForgeUserActivity {
  id: string;
  type: 'Create';
  actor: string;
  published: string;
  to: string[];
  cc: string[];
  object: ForgeUserActivityNote;
}

/** What the activity is about, loaded by the caller. */
export interface ForgeActivityParts {
  /** The ActivityPub id of the acting user (lib/federation/federation.ts userActorUrl). */
  actorId: string;
  actUser: IUser;
  repoOwnerName: string;
  repoName: string;
  /** The comment the row names, when it still exists. */
  comment: IComment | null;
}

/** Forgejo renders a comment with its markdown renderer; raw HTML in it is escaped. */
const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true });

/** Go's html.EscapeString. */
const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;');
const link = (href: string, text: string) => `<a href="${esc(href)}" rel="nofollow">${esc(text)}</a>`;
const pathSegments = (s: string) => s.split('/').map(encodeURIComponent).join('/');

const PULL_OPS = new Set<OpName>([
  'create_pull_request',
  'merge_pull_request',
  'close_pull_request',
  'reopen_pull_request',
  'approve_pull_request',
  'reject_pull_request',
  'comment_pull',
  'pull_review_dismissed',
  'pull_request_ready_for_review',
  'auto_merge_pull_request',
]);

/** `<index>|<text>` (lib/activity/feeds.ts): the issue's number and the text kept with the row. */
function issueInfo(content: string): { index: number; text: string } {
  const bar = content.indexOf('|');
  return bar < 0 ? { index: Number(content) || 0, text: '' } : { index: Number(content.slice(0, bar)) || 0, text: content.slice(bar + 1) };
}

/** The commits a push row holds (Forgejo's PushCommits as it marshals them); none when it holds none. */
function pushedCommits(content: string): { sha: string; message: string }[] {
  if (!content) return [];
  try {
    const parsed = JSON.parse(content) as { Commits?: { Sha1?: unknown; Message?: unknown }[] | null };
    return (parsed.Commits ?? []).map((c) => ({ sha: String(c.Sha1 ?? ''), message: String(c.Message ?? '') }));
  } catch (e) {
    if (e instanceof SyntaxError) return [];
    throw e;
  }
}

/** The Note's HTML: Forgejo's sentence for the row's type. */
function contentOf(cfg: Config, a: IAction, p: ForgeActivityParts): string {
  const repoPath = `${p.repoOwnerName}/${p.repoName}`;
  const repoUrl = `${cfg.appUrl}${pathSegments(repoPath)}`;
  const repo = link(repoUrl, repoPath);
  const op = opName(a.opType);
  const { index, text } = issueInfo(a.content);
  const issueUrl = `${repoUrl}/${op && PULL_OPS.has(op) ? 'pulls' : 'issues'}/${index}`;
  const issue = link(issueUrl, `${repoPath}#${index}`);
  const branch = a.refName.replace(/^refs\/heads\//, '');
  const tag = a.refName.replace(/^refs\/tags\//, '');
  const said = (what: string) => `${link(`${cfg.appUrl}${encodeURIComponent(p.actUser.name)}`, p.actUser.name)} ${what}`;
  switch (op) {
    case 'create_repo':
      return said(`created a new repository: ${repo}`);
    case 'rename_repo':
      return said(`renamed a repository: ${repo}`);
    case 'star_repo':
      return said(`starred a repository: ${repo}`);
    case 'watch_repo':
      return said(`started watching a repository: ${repo}`);
    case 'transfer_repo':
      return said(`transferred ${repo}`);
    case 'commit_repo': {
      const commits = pushedCommits(a.content)
        .map((c) => `<li>${link(`${repoUrl}/commit/${encodeURIComponent(c.sha)}`, c.sha)} <pre>${esc(c.message)}</pre></li>`)
        .join('');
      return said(`pushed to ${link(`${repoUrl}/src/branch/${pathSegments(branch)}`, branch)} at ${repo}: <ul>${commits}</ul>`);
    }
    case 'push_tag':
      return said(`pushed ${link(`${repoUrl}/src/tag/${pathSegments(tag)}`, tag)} at ${repo}`);
    case 'delete_tag':
      return said(`deleted tag ${esc(tag)} at ${repo}`);
    case 'delete_branch':
      return said(`deleted branch ${esc(branch)} at ${repo}`);
    case 'create_issue':
      return said(`opened issue ${issue}`);
    case 'create_pull_request':
      return said(`opened pull request ${issue}`);
    case 'merge_pull_request':
      return said(`merged pull request ${issue}`);
    case 'close_issue':
      return said(`closed issue ${issue}`);
    case 'reopen_issue':
      return said(`reopened issue ${issue}`);
    case 'close_pull_request':
      return said(`closed pull request ${issue}`);
    case 'reopen_pull_request':
      return said(`reopened pull request ${issue}`);
    case 'approve_pull_request':
      return said(`approved pull request ${issue}`);
    case 'reject_pull_request':
      return said(`rejected pull request ${issue}`);
    case 'comment_issue':
    case 'comment_pull': {
      // The whole comment when it still exists, else the beginning the row kept.
      const body = markdown.render(p.comment?.content ?? text);
      return said(`${link(`${issueUrl}#issuecomment-${a.commentId}`, 'commented')} on ${issue}: <blockquote>${body}</blockquote>`);
    }
    default:
      return said(`performed an unrecognised action: ${esc(op ?? `action-${a.opType}`)}`);
  }
}

export function toForgeUserActivity(cfg: Config, a: IAction, p: ForgeActivityParts): ForgeUserActivity {
  const noteId = `${p.actorId}/activities/${a.id}`;
  const published = fmtTime(a.createdAt);
  const to = [AS_PUBLIC];
  const cc = [`${p.actorId}/followers`];
  return {
    id: `${noteId}/activity`,
    type: 'Create',
    actor: p.actorId,
    published,
    to,
    cc,
    object: { id: noteId, type: 'Note', attributedTo: p.actorId, content: contentOf(cfg, a, p), published, url: noteId, to, cc },
  };
}
