import { Migration } from '@mikro-orm/migrations';

/**
 * The public repositories of given owners, read as a set (lib/repos/search.ts reachableRows: the
 * repositories a caller reaches because their owner is visible): only the public ones are in the
 * index, so an owner's private repositories are never read to be left out.
 */
export class Migration20261129083700PublicRepoOwners extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "repository_public_owner_index" on "repository" ("owner_id") where not "is_private"');
  }
}
