import { Migration20261121000000Foundation } from './Migration20261121000000Foundation.ts';
import { Migration20261121060104RepoRecords } from './Migration20261121060104RepoRecords.ts';
import { Migration20261121060135Identity } from './Migration20261121060135Identity.ts';
import { Migration20261121060213GitData } from './Migration20261121060213GitData.ts';
import { Migration20261121070418MirrorSchedule } from './Migration20261121070418MirrorSchedule.ts';
import { Migration20261121070808ActionTask } from './Migration20261121070808ActionTask.ts';
import { Migration20261121075432Milestones } from './Migration20261121075432Milestones.ts';
import { Migration20261121082429IssuesPullsReleases } from './Migration20261121082429IssuesPullsReleases.ts';
import { Migration20261121091358Actions } from './Migration20261121091358Actions.ts';
import { Migration20261121091405Notifications } from './Migration20261121091405Notifications.ts';
import { Migration20261121091420Packages } from './Migration20261121091420Packages.ts';
import { Migration20261121091430Federation } from './Migration20261121091430Federation.ts';
import { Migration20261121091432ActionsRuns } from './Migration20261121091432ActionsRuns.ts';
import { Migration20261121091434ActionSecrets } from './Migration20261121091434ActionSecrets.ts';
import { Migration20261121091457Quota } from './Migration20261121091457Quota.ts';
import { Migration20261121092857Webhooks } from './Migration20261121092857Webhooks.ts';
import { Migration20261125123305WebhookRetries } from './Migration20261125123305WebhookRetries.ts';
import { Migration20261125130859Lfs } from './Migration20261125130859Lfs.ts';
import { Migration20261125134924AuthLimit } from './Migration20261125134924AuthLimit.ts';
import { Migration20261125160453PackageProperties } from './Migration20261125160453PackageProperties.ts';
import { Migration20261125170000IssueListIndex } from './Migration20261125170000IssueListIndex.ts';
import { Migration20261127040000ListOrderIndexes } from './Migration20261127040000ListOrderIndexes.ts';

/** Committed migrations, applied in this order at start (`cli migrate` runs them alone). */
export const migrations = [
  { name: 'Migration20261121000000Foundation', class: Migration20261121000000Foundation },
  { name: 'Migration20261121060104RepoRecords', class: Migration20261121060104RepoRecords },
  { name: 'Migration20261121060135Identity', class: Migration20261121060135Identity },
  { name: 'Migration20261121060213GitData', class: Migration20261121060213GitData },
  { name: 'Migration20261121070418MirrorSchedule', class: Migration20261121070418MirrorSchedule },
  { name: 'Migration20261121070808ActionTask', class: Migration20261121070808ActionTask },
  { name: 'Migration20261121075432Milestones', class: Migration20261121075432Milestones },
  { name: 'Migration20261121082429IssuesPullsReleases', class: Migration20261121082429IssuesPullsReleases },
  { name: 'Migration20261121091358Actions', class: Migration20261121091358Actions },
  { name: 'Migration20261121091405Notifications', class: Migration20261121091405Notifications },
  { name: 'Migration20261121091420Packages', class: Migration20261121091420Packages },
  { name: 'Migration20261121091430Federation', class: Migration20261121091430Federation },
  { name: 'Migration20261121091432ActionsRuns', class: Migration20261121091432ActionsRuns },
  { name: 'Migration20261121091434ActionSecrets', class: Migration20261121091434ActionSecrets },
  { name: 'Migration20261121091457Quota', class: Migration20261121091457Quota },
  { name: 'Migration20261121092857Webhooks', class: Migration20261121092857Webhooks },
  { name: 'Migration20261125123305WebhookRetries', class: Migration20261125123305WebhookRetries },
  { name: 'Migration20261125130859Lfs', class: Migration20261125130859Lfs },
  { name: 'Migration20261125134924AuthLimit', class: Migration20261125134924AuthLimit },
  { name: 'Migration20261125160453PackageProperties', class: Migration20261125160453PackageProperties },
  { name: 'Migration20261125170000IssueListIndex', class: Migration20261125170000IssueListIndex },
  { name: 'Migration20261127040000ListOrderIndexes', class: Migration20261127040000ListOrderIndexes },
];
