// Matrix room messages (Forgejo's services/webhook/matrix.go): an m.notice or m.text event with an
// HTML body and its plain-text rendering, PUT to the room's send endpoint under a transaction id
// derived from the task's payload, so a repeated delivery is the same Matrix event.
import { createHash } from 'node:crypto';
import { escapeHtml, htmlLink, noneName, pathEscapeSegments, PayloadFormatter, reviewAction, shortRef } from './format.ts';
import type { Convertor, PCommit } from './types.ts';

export interface MatrixMeta {
  homeserver_url: string;
  room_id: string;
  message_type: number;
}
export interface MatrixPayload {
  body: string;
  msgtype: string;
  format: string;
  formatted_body: string;
  'io.gitea.commits'?: PCommit[];
}

const MESSAGE_TYPES: Record<number, string> = { 1: 'm.notice', 2: 'm.text' };

/** Forgejo's getMessageBody: links become markdown, <br> a newline. */
const plain = (html: string) => html.replace(/<a [^>]*?href="([^">]*?)">(.*?)<\/a>/g, '[$2]($1)').replaceAll('<br>', '\n');

/** The transaction id: unpadded base64url of the SHA-1 of the stored payload. */
export const matrixTxnId = (payload: string) => createHash('sha1').update(payload).digest('base64url');

/** Forgejo's MatrixLinkToRef. */
function refLink(repoUrl: string, ref: string): string {
  const name = shortRef(ref);
  const kind = ref.startsWith('refs/heads/') ? 'branch' : ref.startsWith('refs/tags/') ? 'tag' : 'commit';
  return htmlLink(`${repoUrl}/src/${kind}/${pathEscapeSegments(name)}`, name);
}

export function matrixConvertor(appUrl: string, meta: MatrixMeta): Convertor<MatrixPayload> {
  const fmt = new PayloadFormatter(appUrl, { link: htmlLink, name: noneName, withSender: true, withRepoName: true });
  const msg = (text: string, commits?: PCommit[]): MatrixPayload => ({
    body: plain(text),
    msgtype: MESSAGE_TYPES[meta.message_type] ?? '',
    format: 'org.matrix.custom.html',
    formatted_body: text,
    ...(commits?.length ? { 'io.gitea.commits': commits } : {}),
  });
  return {
    create: (p) => msg(`[${p.repository.full_name}:${refLink(p.repository.html_url, p.ref)}] ${p.ref_type} created by ${p.sender.login}`),
    delete: (p) =>
      msg(`[${htmlLink(p.repository.html_url, p.repository.full_name)}:${shortRef(p.ref)}] ${p.ref_type} deleted by ${p.sender.login}`),
    fork: (p) =>
      msg(`${htmlLink(p.forkee.html_url, p.forkee.full_name)} is forked to ${htmlLink(p.repository.html_url, p.repository.full_name)}`),
    push(p) {
      const desc = p.total_commits === 1 ? '1 commit' : `${p.total_commits} commits`;
      const lines = p.commits.map((c) => `${htmlLink(c.url, c.id.slice(0, 7))}: ${c.message} - ${c.author?.name ?? ''}`);
      return msg(
        `[${p.repository.full_name}] ${p.pusher.login} pushed ${desc} to ${escapeHtml(shortRef(p.ref))}:<br>${lines.join('<br>')}`,
        p.commits,
      );
    },
    issue: (p) => msg(fmt.issues(p).text),
    issueComment: (p) => msg(fmt.comment(p).text),
    pullRequest: (p) => msg(fmt.pull(p).text),
    review(p, event) {
      const link = htmlLink(p.pull_request.html_url, `#${p.number} ${p.pull_request.title}`);
      return msg(
        p.action === 'reviewed'
          ? `[${p.repository.full_name}] Pull request review ${reviewAction(event)}: ${link} by ${p.sender.login}`
          : '',
      );
    },
    repository(p) {
      const repo = htmlLink(p.repository.html_url, p.repository.full_name);
      const verb = ({ created: 'created', deleted: 'deleted' } as Record<string, string>)[p.action];
      return msg(verb ? `[${repo}] Repository ${verb} by ${p.sender.login}` : '');
    },
    release: (p) => msg(fmt.release(p).text),
    wiki: (p) => msg(fmt.wiki(p, true).text),
  };
}
