import { InvalidIdentityError, InvalidMessageError } from './errors.ts';

export interface Identity {
  name: string;
  email: string;
  /** Default: now. */
  date?: Date;
  /** Offset stored with the date, e.g. +0200. Default +0000. */
  tz?: string;
}

const TZ = /^[+-]\d{4}$/;

export function validateIdentity(who: Identity, role: string): void {
  if (who.name.trim() === '') throw new InvalidIdentityError(`${role} name is empty`);
  for (const value of [who.name, who.email]) {
    if (/[<>\n\r\0]/.test(value)) throw new InvalidIdentityError(`${role} name and email may not contain <, > or line breaks`);
  }
  if (who.tz !== undefined && !TZ.test(who.tz)) throw new InvalidIdentityError(`${role} time zone must look like +0200`);
}

export function gitDate(who: Identity): string {
  return `@${Math.floor((who.date ?? new Date()).getTime() / 1000)} ${who.tz ?? '+0000'}`;
}

export function identityEnv(author: Identity, committer: Identity): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_AUTHOR_DATE: gitDate(author),
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
    GIT_COMMITTER_DATE: gitDate(committer),
  };
}
/** For ref updates made by the server itself: update-ref writes a reflog entry, which needs a committer. */
export function systemIdentityEnv(): Record<string, string> {
  const who: Identity = { name: 'cairn', email: 'cairn@localhost' };
  return identityEnv(who, who);
}

/** The message as commit-tree stores it (newline-terminated); git refuses NUL bytes in a commit message. */
export function commitMessageText(message: string): string {
  if (message.includes('\0')) throw new InvalidMessageError('commit message may not contain NUL bytes');
  return message.endsWith('\n') ? message : `${message}\n`;
}
