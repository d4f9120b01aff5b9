// Forgejo's Transfer with `team_ids`: a team of another organization than the new owner answers 403
// "team <id> belongs not to org <id>". Teams for a user recipient and unknown teams are 422s the handler
// answers (lib/repos/transfer.ts checkTransferTeams); this guard passes them, and stops at the first such
// team, so the first bad id in the list decides the answer as before.
import { Team } from '../model/org.ts';
import { deny, need, step } from './types.ts';

export const TRANSFER_TEAMS = step('TRANSFER_TEAMS', 'guard', ['body', 'new-owner'], [], async (s) => {
  const ids = (s.body as { team_ids?: unknown } | undefined)?.team_ids;
  const newOwner = need(s.newOwner, 'new-owner');
  if (!Array.isArray(ids) || newOwner.type !== 1) return null;
  for (const id of ids) {
    const team = typeof id === 'number' ? await s.em.findOne(Team, { id }) : null;
    if (!team) return null;
    if (team.orgId !== newOwner.id) return deny(403, `team ${id} belongs not to org ${newOwner.id}`);
  }
  return null;
});
