// Text shared by the chat-service payloads (Forgejo's services/webhook/general.go): the one-line
// summaries of issues, pulls, comments, releases and wiki pages, colours, link and name formatters,
// ref names and Go's URL escaping, so every service words an event the way Forgejo does.
import type { IssueCommentPayload, IssuePayload, PullRequestPayload, ReleasePayload, ReviewEvent, WikiPayload } from './types.ts';

export const COLORS = {
  green: 0x1ac600,
  greenLight: 0xbfe5bf,
  yellow: 0xffd930,
  grey: 0x4f545c,
  purple: 0x7289da,
  orange: 0xeb6420,
  orangeLight: 0xe68d60,
  red: 0xff3232,
  blue: 0x2563eb,
} as const;

export type LinkFormatter = (url: string, text: string) => string;
export type NameFormatter = (name: string) => string;

/** Go's html.EscapeString. */
export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;');
export const noneLink: LinkFormatter = (_url, text) => text;
export const htmlLink: LinkFormatter = (url, text) => `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`;
export const noneName: NameFormatter = (name) => name;

/** Go's url.PathEscape: one path segment (`/` escaped, `$&+:=@` kept). */
export function pathEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%(24|26|2B|3A|3D|40)/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}
/** Forgejo's util.PathEscapeSegments. */
export const pathEscapeSegments = (s: string) => s.split('/').map(pathEscape).join('/');
/** Go's url.QueryEscape (space as `+`). */
export const queryEscape = (s: string) =>
  encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

/** git.RefName(ref).ShortName(). */
export function shortRef(ref: string): string {
  for (const prefix of ['refs/heads/', 'refs/tags/', 'refs/remotes/']) if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  const pull = /^refs\/pull\/(.+)\/head$/.exec(ref);
  if (pull) return pull[1];
  if (ref.startsWith('refs/for/')) return ref.slice('refs/for/'.length);
  return ref;
}

/** git.RefName(ref).RefType(): what sourcehut tags a build with. */
export function refType(ref: string): string {
  if (ref.startsWith('refs/heads/')) return 'branch';
  if (ref.startsWith('refs/tags/')) return 'tag';
  if (ref.startsWith('refs/pull/')) return 'pull';
  if (ref.startsWith('refs/for/')) return 'for';
  return '';
}

/** git.RefURL: the web page of a branch, tag or commit. */
export function refUrl(repoUrl: string, ref: string): string {
  const name = pathEscapeSegments(shortRef(ref));
  if (ref.startsWith('refs/heads/')) return `${repoUrl}/src/branch/${name}`;
  if (ref.startsWith('refs/tags/')) return `${repoUrl}/src/tag/${name}`;
  if (!/^[0-9a-f]{40}$/.test(ref)) return `${repoUrl}/src/branch/${name}`;
  return `${repoUrl}/src/commit/${name}`;
}

/** Forgejo's parseHookPullRequestEventType. */
export const reviewAction = (event: ReviewEvent) =>
  ({ pull_request_review_approved: 'approved', pull_request_review_rejected: 'requested changes', pull_request_review_comment: 'comment' })[
    event
  ];

/** JSON as Go's encoder writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped (they occur only inside strings). */
export function goJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Cuts `s` to `max` characters as Go's `%.Ns` does (by rune), appending "..." when cut to `max - 3`. */
export function cutRunes(s: string, max: number): string {
  const runes = [...s];
  return runes.length > max ? `${runes.slice(0, max - 3).join('')}...` : s;
}

/** Forgejo's webhookPayloadFormatter: how links and names look, and whether sender and repository are named. */
export class PayloadFormatter {
  private readonly appUrl: string;
  private readonly opts: { link: LinkFormatter; name: NameFormatter; withSender: boolean; withRepoName: boolean };
  constructor(appUrl: string, opts: PayloadFormatter['opts']) {
    this.appUrl = appUrl;
    this.opts = opts;
  }

  private finish(text: string, repo: string, sender: string): string {
    let out = this.opts.withRepoName ? `[${repo}] ${text}` : text;
    if (this.opts.withSender) out += ` by ${this.opts.name(sender)}`;
    return out;
  }

  issues(p: IssuePayload): { text: string; title: string; attachment: string; color: number } {
    const title = `#${p.number} ${p.issue.title}`;
    const link = this.opts.link(`${p.repository.html_url}/issues/${p.number}`, title);
    const assigned = () => (p.issue.assignees ?? []).map((u) => this.opts.link(this.appUrl + pathEscape(u.login), u.login)).join(', ');
    const texts: Record<string, [string, number]> = {
      opened: [`Issue opened: ${link}`, COLORS.orange],
      closed: [`Issue closed: ${link}`, COLORS.red],
      reopened: [`Issue re-opened: ${link}`, COLORS.yellow],
      edited: [`Issue edited: ${link}`, COLORS.yellow],
      assigned: [`Issue assigned to ${assigned()}: ${link}`, COLORS.green],
      unassigned: [`Issue unassigned: ${link}`, COLORS.yellow],
      label_updated: [`Issue labels updated: ${link}`, COLORS.yellow],
      label_cleared: [`Issue labels cleared: ${link}`, COLORS.yellow],
      synchronized: [`Issue synchronized: ${link}`, COLORS.yellow],
      milestoned: [`Issue milestoned to ${p.issue.milestone?.title ?? ''}: ${link}`, COLORS.yellow],
      demilestoned: [`Issue milestone cleared: ${link}`, COLORS.yellow],
    };
    const [text, color] = texts[p.action] ?? ['', COLORS.yellow];
    const attachment = p.action === 'opened' || p.action === 'edited' ? p.issue.body : '';
    return { text: this.finish(text, p.repository.full_name, p.sender.login), title, attachment, color };
  }

  pull(p: PullRequestPayload): { text: string; title: string; attachment: string; color: number } {
    const pr = p.pull_request;
    const title = `#${p.number} ${pr.title}`;
    const link = this.opts.link(pr.html_url, title);
    const assigned = () => (pr.assignees ?? []).map((u) => this.opts.link(this.appUrl + u.login, u.login)).join(', ');
    const texts: Record<string, [string, number, string]> = {
      opened: [`Pull request opened: ${link}`, COLORS.green, pr.body],
      closed: pr.merged ? [`Pull request merged: ${link}`, COLORS.purple, ''] : [`Pull request closed: ${link}`, COLORS.red, ''],
      reopened: [`Pull request re-opened: ${link}`, COLORS.yellow, ''],
      edited: [`Pull request edited: ${link}`, COLORS.yellow, pr.body],
      assigned: [`Pull request assigned to ${assigned()}: ${link}`, COLORS.green, ''],
      unassigned: [`Pull request unassigned: ${link}`, COLORS.yellow, ''],
      label_updated: [`Pull request labels updated: ${link}`, COLORS.yellow, ''],
      label_cleared: [`Pull request labels cleared: ${link}`, COLORS.yellow, ''],
      synchronized: [`Pull request synchronized: ${link}`, COLORS.yellow, ''],
      milestoned: [`Pull request milestoned to ${pr.milestone?.title ?? ''}: ${link}`, COLORS.yellow, ''],
      demilestoned: [`Pull request milestone cleared: ${link}`, COLORS.yellow, ''],
      reviewed: [`Pull request reviewed: ${link}`, COLORS.yellow, p.review?.content ?? ''],
      review_requested: [`Pull request review requested: ${link}`, COLORS.yellow, ''],
      review_request_removed: [`Pull request review request removed: ${link}`, COLORS.yellow, ''],
    };
    const [text, color, attachment] = texts[p.action] ?? ['', COLORS.yellow, ''];
    return { text: this.finish(text, p.repository.full_name, p.sender.login), title, attachment, color };
  }

  release(p: ReleasePayload): { text: string; color: number } {
    const link = this.opts.link(`${p.repository.html_url}/releases/tag/${pathEscapeSegments(p.release.tag_name)}`, p.release.tag_name);
    const texts: Record<string, [string, number]> = {
      published: [`Release created: ${link}`, COLORS.green],
      updated: [`Release updated: ${link}`, COLORS.yellow],
      deleted: [`Release deleted: ${link}`, COLORS.red],
    };
    const [text, color] = texts[p.action] ?? ['', 0];
    return { text: this.finish(text, p.repository.full_name, p.sender.login), color };
  }

  wiki(p: WikiPayload, withCommitMessage: boolean): { text: string; color: number; pageLink: string } {
    const pageLink = this.opts.link(`${p.repository.html_url}/wiki/${pathEscape(p.page)}`, p.page);
    const texts: Record<string, [string, number]> = {
      created: [`New wiki page "${pageLink}"`, COLORS.green],
      edited: [`Wiki page "${pageLink}" edited`, COLORS.yellow],
      deleted: [`Wiki page "${pageLink}" deleted`, COLORS.red],
    };
    let [text, color] = texts[p.action] ?? ['', COLORS.green];
    if (p.action !== 'deleted' && p.comment !== '' && withCommitMessage) text += ` (${p.comment})`;
    return { text: this.finish(text, p.repository.full_name, p.sender.login), color, pageLink };
  }

  comment(p: IssueCommentPayload): { text: string; title: string; color: number } {
    const title = `#${p.issue.number} ${p.issue.title}`;
    const kind = p.is_pull ? 'pull request' : 'issue';
    const link = this.opts.link(p.is_pull ? p.comment.pull_request_url : p.comment.issue_url, title);
    const texts: Record<string, [string, number]> = {
      created: [`New comment on ${kind} ${link}`, p.is_pull ? COLORS.greenLight : COLORS.orangeLight],
      edited: [`Comment edited on ${kind} ${link}`, COLORS.yellow],
      deleted: [`Comment deleted on ${kind} ${link}`, COLORS.red],
    };
    const [text, color] = texts[p.action] ?? ['', COLORS.yellow];
    return { text: this.finish(text, p.repository.full_name, p.sender.login), title, color };
  }
}
