import { Migration } from '@mikro-orm/migrations';

/**
 * GET /repos/issues/search lists the issues of every repository the caller reads, newest first: this
 * index gives them in that order, so a page reads about as many issues as it shows over the share the
 * caller can read, instead of sorting all of them.
 */
export class Migration20261129051000IssueSearchOrder extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "issue_created_list_index" on "issue" ("created_at", "id")');
  }
}
