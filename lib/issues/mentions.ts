// @mentions in issue, pull request, comment and review text (Forgejo's modules/references
// FindAllMentionsMarkdown and models/issues ResolveIssueMentionsByVisibility): the names written in
// the text outside code, then the users they name who may be told: active individual accounts other
// than the writer, and the members of a mentioned team of the repository's organization that may see
// issues (or pulls). Whether each may read the issue is checked where the notification is written
// (lib/activity/notify.ts), as Forgejo checks it there.
import type { EntityManager } from '@mikro-orm/core';
import MarkdownIt from 'markdown-it';
import type { IIssue } from '../../model/issue.ts';
import { Team, TeamRepo, TeamUnit, TeamUser } from '../../model/org.ts';
import type { IRepository } from '../../model/repo.ts';
import { BlockedUser } from '../../model/social.ts';
import { User, type IUser } from '../../model/user.ts';
import { Mode, Unit } from '../auth/perm.ts';

/**
 * Forgejo's mentionPattern: `@user` or `@org/team` after the start, whitespace, `(` or `[`, ending at
 * whitespace, `'`, `)`, `]`, or punctuation followed by whitespace or the end. Go's `\s` is ASCII.
 */
const MENTION =
  /(?:[\t\n\f\r ]|^|\(|\[)(@[0-9a-zA-Z-_]+|@[0-9a-zA-Z-_]+\/?[0-9a-zA-Z-_]+|@[0-9a-zA-Z-_][0-9a-zA-Z-_.]+\/?[0-9a-zA-Z-_.]+[0-9a-zA-Z-_])(?:'|[\t\n\f\r ]|[:,;.?!][\t\n\f\r ]|[:,;.?!]?$|\)|\])/;

const md = new MarkdownIt({ html: true, linkify: false });

/** Forgejo's mdstripper: the text of the document without code blocks, code spans, HTML and images. */
function plainText(markdown: string): string {
  const out: string[] = [];
  const inline = (children: { type: string; content: string }[]) => {
    let line = '';
    for (const t of children) {
      if (t.type === 'text') line += t.content;
      else if (t.type === 'softbreak' || t.type === 'hardbreak') line += '\n';
    }
    return line;
  };
  for (const t of md.parse(markdown, {})) if (t.type === 'inline' && t.children) out.push(inline(t.children));
  return out.join('\n');
}

/** The mentioned names in order, without `@`, as written (Forgejo's FindAllMentionsMarkdown). */
export function findMentions(markdown: string): string[] {
  const text = plainText(markdown);
  const names: string[] = [];
  // The pattern consumes the character after a mention, which may start the next one: search again from the mention's end.
  let pos = 0;
  for (;;) {
    const m = MENTION.exec(text.slice(pos));
    if (!m) break;
    const start = pos + m.index + m[0].indexOf(m[1]);
    names.push(m[1].slice(1));
    pos = start + m[1].length;
  }
  return names;
}

/** Members of the mentioned `org/team`s of the repository's organization whose team sees the issue's unit. */
async function teamMembers(em: EntityManager, repo: IRepository, owner: IUser, issue: IIssue, teams: string[]): Promise<number[]> {
  if (!teams.length) return [];
  const linked = await em.find(TeamRepo, { repoId: repo.id }, { fields: ['teamId'] });
  const found = await em.find(Team, { orgId: owner.id, lowerName: { $in: teams }, id: { $in: linked.map((l) => l.teamId) } });
  const unit = issue.isPull ? Unit.pulls : Unit.issues;
  const ok: number[] = [];
  for (const team of found) {
    if (team.accessMode >= Mode.admin || (await em.count(TeamUnit, { teamId: team.id, type: unit, accessMode: { $gte: Mode.read } })) > 0)
      ok.push(team.id);
  }
  if (!ok.length) return [];
  return (await em.find(TeamUser, { teamId: { $in: ok } }, { fields: ['uid'] })).map((m) => m.uid);
}

/**
 * The ids of the users `text` mentions who may be notified: active individuals (or members of a
 * mentioned team), never the writer, nor anyone who blocked the writer; each once.
 */
export async function mentionedUsers(
  em: EntityManager,
  repo: IRepository,
  owner: IUser,
  issue: IIssue,
  doer: IUser,
  text: string,
): Promise<number[]> {
  const names = [...new Set(findMentions(text).map((n) => n.toLowerCase()))].filter((n) => n !== doer.lowerName);
  if (!names.length) return [];
  const teams =
    owner.type === 1 ? names.filter((n) => n.startsWith(`${owner.lowerName}/`)).map((n) => n.slice(owner.lowerName.length + 1)) : [];
  const people = names.filter((n) => !n.includes('/'));
  const ids = new Set(await teamMembers(em, repo, owner, issue, teams));
  const users = await em.find(
    User,
    { $or: [{ lowerName: { $in: people } }, { id: { $in: [...ids] } }], isActive: true, prohibitLogin: false, type: 0 },
    { fields: ['id'] },
  );
  const blockers = new Set((await em.find(BlockedUser, { blockId: doer.id }, { fields: ['userId'] })).map((b) => b.userId));
  return users.map((u) => u.id).filter((id) => id !== doer.id && !blockers.has(id));
}
