// Discord webhook messages (Forgejo's services/webhook/discord.go): one embed with a title, a
// description, a link, a colour and the sender as author.
import {
  COLORS,
  cutRunes,
  noneLink,
  noneName,
  pathEscape,
  pathEscapeSegments,
  PayloadFormatter,
  reviewAction,
  shortRef,
} from './format.ts';
import type { Convertor, PUser, ReviewEvent } from './types.ts';

export interface DiscordMeta {
  username: string;
  icon_url: string;
}
interface Embed {
  title: string;
  description: string;
  url: string;
  color: number;
  author: { name: string; url: string; icon_url: string };
}
export interface DiscordPayload {
  username: string;
  avatar_url?: string;
  embeds: Embed[];
}

/** Forgejo's escapeMarkdown for commit subjects. */
function escapeMarkdown(input: string): string {
  let out = input.replace(/(\d+)\./g, '$1\\.');
  for (const c of ['~', '*', '_']) {
    const re = new RegExp(`\\${c}(.*?)\\${c}`, 'g');
    out = out.replace(re, `\\${c}$1\\${c}`);
  }
  const pairs: [string, string][] = [
    ['* ', '\\* '],
    ['`', '\\`'],
    ['[', '\\['],
    [']', '\\]'],
    ['(', '\\('],
    [')', '\\)'],
    ['#', '\\#'],
    ['+ ', '\\+ '],
    ['- ', '\\- '],
    ['---', '\\---'],
    ['!', '\\!'],
    ['|', '\\|'],
    ['<', '\\<'],
    ['>', '\\>'],
  ];
  // strings.NewReplacer: one left-to-right pass, the first listed match at each position wins.
  let result = '';
  for (let i = 0; i < out.length; ) {
    const hit = pairs.find(([from]) => out.startsWith(from, i));
    if (hit) {
      result += hit[1];
      i += hit[0].length;
    } else {
      result += out[i];
      i++;
    }
  }
  return result;
}

/** base.TruncateString: below `limit` characters unchanged, else the first `limit` and "…". */
const truncate = (s: string, limit: number) => ([...s].length < limit ? s : `${[...s].slice(0, limit).join('')}…`);

const REVIEW_COLORS: Record<ReviewEvent, number> = {
  pull_request_review_approved: COLORS.green,
  pull_request_review_rejected: COLORS.red,
  pull_request_review_comment: COLORS.grey,
};

export function discordConvertor(appUrl: string, meta: DiscordMeta): Convertor<DiscordPayload> {
  const fmt = new PayloadFormatter(appUrl, { link: noneLink, name: noneName, withSender: false, withRepoName: true });
  const payload = (s: PUser, title: string, text: string, url: string, color: number): DiscordPayload => ({
    username: meta.username,
    ...(meta.icon_url ? { avatar_url: meta.icon_url } : {}),
    embeds: [
      {
        title: cutRunes(title, 256),
        description: truncate(cutRunes(text, 4096), 2000),
        url,
        color,
        author: { name: s.login, url: appUrl + s.login, icon_url: s.avatar_url ?? '' },
      },
    ],
  });
  const refPage = (html: string, ref: string) => `${html}/src/${pathEscapeSegments(shortRef(ref))}`;
  return {
    create: (p) =>
      payload(
        p.sender,
        `[${p.repository.full_name}] ${p.ref_type} ${shortRef(p.ref)} created`,
        '',
        refPage(p.repository.html_url, p.ref),
        COLORS.green,
      ),
    delete: (p) =>
      payload(
        p.sender,
        `[${p.repository.full_name}] ${p.ref_type} ${shortRef(p.ref)} deleted`,
        '',
        refPage(p.repository.html_url, p.ref),
        COLORS.red,
      ),
    fork: (p) => payload(p.sender, `${p.forkee.full_name} is forked to ${p.repository.full_name}`, '', p.repository.html_url, COLORS.green),
    push(p) {
      const branch = shortRef(p.ref);
      const one = p.total_commits === 1;
      const titleLink = (one ? p.commits[0]?.url : p.compare_url) || refPage(p.repository.html_url, p.ref);
      const lines = p.commits.map((c) => {
        // Go's strings.SplitN(message, "\n", 1) keeps the whole message; only a trailing \r goes.
        const message = cutRunes(escapeMarkdown(c.message.replace(/\r+$/, '')), 50);
        return `[\`${c.id.slice(0, 7)}\`](${c.url}) ${message} \\- ${c.author?.name ?? ''}`;
      });
      return payload(
        p.sender,
        `[${p.repository.full_name}:${branch}] ${one ? '1 new commit' : `${p.total_commits} new commits`}`,
        lines.join('\n'),
        titleLink,
        COLORS.green,
      );
    },
    issue(p) {
      const i = fmt.issues(p);
      return payload(p.sender, i.text, i.attachment, p.issue.html_url, i.color);
    },
    issueComment(p) {
      const c = fmt.comment(p);
      return payload(p.sender, c.text, p.comment.body, p.comment.html_url, c.color);
    },
    pullRequest(p) {
      const i = fmt.pull(p);
      return payload(p.sender, i.text, i.attachment, p.pull_request.html_url, i.color);
    },
    review(p, event) {
      if (p.action !== 'reviewed') return payload(p.sender, '', '', p.pull_request.html_url, 0);
      const title = `[${p.repository.full_name}] Pull request review ${reviewAction(event)}: #${p.number} ${p.pull_request.title}`;
      return payload(p.sender, title, p.review?.content ?? '', p.pull_request.html_url, REVIEW_COLORS[event]);
    },
    repository(p) {
      if (p.action === 'created')
        return payload(p.sender, `[${p.repository.full_name}] Repository created`, '', p.repository.html_url, COLORS.green);
      if (p.action === 'deleted') return payload(p.sender, `[${p.repository.full_name}] Repository deleted`, '', '', COLORS.red);
      return payload(p.sender, '', '', '', 0);
    },
    release(p) {
      const r = fmt.release(p);
      return payload(p.sender, r.text, p.release.body, p.release.html_url, r.color);
    },
    wiki(p) {
      const w = fmt.wiki(p, true);
      return payload(
        p.sender,
        w.text,
        p.action !== 'deleted' ? p.comment : '',
        `${p.repository.html_url}/wiki/${pathEscape(p.page)}`,
        w.color,
      );
    },
  };
}
