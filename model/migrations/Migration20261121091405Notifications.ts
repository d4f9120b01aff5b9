import { Migration } from '@mikro-orm/migrations';

export class Migration20261121091405Notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "notification" ("id" serial primary key, "user_id" int not null, "repo_id" int not null, "status" smallint not null, "source" smallint not null, "issue_id" int not null default 0, "comment_id" int not null default 0, "commit_id" varchar(64) not null default \'\', "updated_by" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "notification_user_id_index" on "notification" ("user_id")');
    this.addSql('create index "notification_repo_id_index" on "notification" ("repo_id")');
    this.addSql('create index "notification_status_index" on "notification" ("status")');
    this.addSql('create index "notification_issue_id_index" on "notification" ("issue_id")');
    this.addSql('create index "notification_updated_at_index" on "notification" ("updated_at")');
    this.addSql('create unique index "notification_user_issue_unique" on "notification" ("user_id", "issue_id") where "issue_id" <> 0');
  }
}
