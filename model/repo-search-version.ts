import { defineEntity, p } from '@mikro-orm/core';

/**
 * One row whose `v` grows with every committed change that can change which repositories a
 * repository search matches: database triggers (migration RepoSearchVersion) bump it in the
 * writer's transaction, so a reader that sees a version sees exactly the data that version counted.
 * `GET /repos/search` keeps its totals by version (lib/repos/search.ts). Nothing writes it but the triggers.
 */
export const RepoSearchVersion = defineEntity({
  name: 'RepoSearchVersion',
  tableName: 'repo_search_version',
  properties: {
    id: p.smallint().primary().autoincrement(false),
    v: p.bigint().default(0),
  },
});
