import { Migration } from '@mikro-orm/migrations';

/**
 * The list routes read a page from an index in order instead of sorting every row:
 * `GET {R}/issues?state=open` without `type` (issues and pulls together, newest first), and
 * `GET /repos/search` in its default order (owner name, name, id).
 */
export class Migration20261127040000ListOrderIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "issue_repo_state_list_index" on "issue" ("repo_id", "is_closed", "created_at", "id")');
    this.addSql('create index "repository_owner_name_lower_name_id_index" on "repository" ("owner_name", "lower_name", "id")');
  }
}
