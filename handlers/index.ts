// The handler registry: the families merged. A table row names its handler `<family>.<key>`, the
// family being handlers/<family>.ts and the key an entry of that file's `handlers` map. A key listed in
// PENDING has no handler yet, so its route runs all its guards and then answers 501 (and `npm run
// routes` counts it as not implemented). Implementing a route = writing the function, adding it to its
// family's map, removing it from PENDING.
import { handlers as misc } from './misc.ts';
import { handlers as users } from './users.ts';
import { handlers as tokens } from './tokens.ts';
import { handlers as adminUsers } from './admin-users.ts';
import { handlers as follows } from './follows.ts';
import { handlers as keys } from './keys.ts';
import { handlers as gpgKeys } from './gpg-keys.ts';
import { handlers as emails } from './emails.ts';
import { handlers as userSettings } from './user-settings.ts';
import { handlers as oauth2Apps } from './oauth2-apps.ts';
import { handlers as repos } from './repos.ts';
import { handlers as collaborators } from './collaborators.ts';
import { handlers as templates } from './templates.ts';
import { handlers as topics } from './topics.ts';
import { handlers as repoLists } from './repo-lists.ts';
import { handlers as stars } from './stars.ts';
import { handlers as watches } from './watches.ts';
import { handlers as repoTeams } from './repo-teams.ts';
import { handlers as repoAvatar } from './repo-avatar.ts';
import { handlers as forks } from './forks.ts';
import { handlers as transfer } from './transfer.ts';
import { handlers as generate } from './generate.ts';
import { handlers as mirrors } from './mirrors.ts';
import { handlers as orgs } from './orgs.ts';
import { handlers as orgMembers } from './org-members.ts';
import { handlers as orgLabels } from './org-labels.ts';
import { handlers as labels } from './labels.ts';
import { handlers as milestones } from './milestones.ts';
import { handlers as teams } from './teams.ts';
import { handlers as branches } from './branches.ts';
import { handlers as branchProtections } from './branch-protections.ts';
import { handlers as tags } from './tags.ts';
import { handlers as tagProtections } from './tag-protections.ts';
import { handlers as commits } from './commits.ts';
import { handlers as statuses } from './statuses.ts';
import { handlers as gitData } from './git-data.ts';
import { handlers as contents } from './contents.ts';
import { handlers as repoFiles } from './repo-files.ts';
import { handlers as repoMeta } from './repo-meta.ts';
import { handlers as deployKeys } from './deploy-keys.ts';
import { handlers as markup } from './markup.ts';
import { handlers as releases } from './releases.ts';
import { handlers as attachments } from './attachments.ts';
import { handlers as pulls } from './pulls.ts';
import { handlers as pullReviews } from './pull-reviews.ts';
import { handlers as pullReviewComments } from './pull-review-comments.ts';
import { handlers as pullReviewRequests } from './pull-review-requests.ts';
import { handlers as issueTimes } from './issue-times.ts';
import { handlers as issueDeps } from './issue-deps.ts';
import { handlers as issues } from './issues.ts';
import { handlers as wiki } from './wiki.ts';
import { handlers as issueComments } from './issue-comments.ts';
import { handlers as reactions } from './reactions.ts';
import { handlers as issueSubscriptions } from './issue-subscriptions.ts';
import { handlers as activities } from './activities.ts';
import { handlers as adminCron } from './admin-cron.ts';
import { handlers as adminUnadopted } from './admin-unadopted.ts';
import { handlers as actionSecrets } from './action-secrets.ts';
import { handlers as actionVariables } from './action-variables.ts';
import { handlers as packages } from './packages.ts';
import { handlers as notifications } from './notifications.ts';
import { handlers as quota } from './quota.ts';
import { handlers as actionsRunners } from './actions-runners.ts';
import { handlers as actionsRuns } from './actions-runs.ts';
import { handlers as activitypub } from './activitypub.ts';
import { handlers as flags } from './flags.ts';
import { handlers as hooks } from './hooks.ts';
import { PENDING } from './pending.ts';
import { family } from './family.ts';

export const handlers = {
  ...family('quota', quota),
  ...family('actionSecrets', actionSecrets),
  ...family('actionVariables', actionVariables),
  ...family('issues', issues),
  ...family('issueTimes', issueTimes),
  ...family('issueDeps', issueDeps),
  ...family('markup', markup),
  ...family('deployKeys', deployKeys),
  ...family('misc', misc),
  ...family('activitypub', activitypub),
  ...family('flags', flags),
  ...family('users', users),
  ...family('tokens', tokens),
  ...family('repos', repos),
  ...family('collaborators', collaborators),
  ...family('templates', templates),
  ...family('topics', topics),
  ...family('repoLists', repoLists),
  ...family('stars', stars),
  ...family('mirrors', mirrors),
  ...family('generate', generate),
  ...family('transfer', transfer),
  ...family('repoTeams', repoTeams),
  ...family('forks', forks),
  ...family('watches', watches),
  ...family('repoAvatar', repoAvatar),
  ...family('orgs', orgs),
  ...family('orgMembers', orgMembers),
  ...family('orgLabels', orgLabels),
  ...family('labels', labels),
  ...family('releases', releases),
  ...family('attachments', attachments),
  ...family('packages', packages),
  ...family('milestones', milestones),
  ...family('teams', teams),
  ...family('adminUsers', adminUsers),
  ...family('follows', follows),
  ...family('keys', keys),
  ...family('gpgKeys', gpgKeys),
  ...family('emails', emails),
  ...family('userSettings', userSettings),
  ...family('oauth2Apps', oauth2Apps),
  ...family('branches', branches),
  ...family('branchProtections', branchProtections),
  ...family('tags', tags),
  ...family('tagProtections', tagProtections),
  ...family('commits', commits),
  ...family('statuses', statuses),
  ...family('gitData', gitData),
  ...family('contents', contents),
  ...family('repoFiles', repoFiles),
  ...family('repoMeta', repoMeta),
  ...family('pulls', pulls),
  ...family('pullReviews', pullReviews),
  ...family('pullReviewComments', pullReviewComments),
  ...family('pullReviewRequests', pullReviewRequests),
  ...family('wiki', wiki),
  ...family('issueComments', issueComments),
  ...family('reactions', reactions),
  ...family('issueSubscriptions', issueSubscriptions),
  ...family('notifications', notifications),
  ...family('activities', activities),
  ...family('adminCron', adminCron),
  ...family('adminUnadopted', adminUnadopted),
  ...family('actionsRunners', actionsRunners),
  ...family('actionsRuns', actionsRuns),
  ...family('hooks', hooks),
};

export { PENDING };
export type HandlerKey = keyof typeof handlers | (typeof PENDING)[number];
