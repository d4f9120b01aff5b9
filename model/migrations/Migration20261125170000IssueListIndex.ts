import { Migration } from '@mikro-orm/migrations';

export class Migration20261125170000IssueListIndex extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "issue_repo_list_index" on "issue" ("repo_id", "is_pull", "is_closed", "created_at", "id")');
  }
}
