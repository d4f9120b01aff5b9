import { Migration } from '@mikro-orm/migrations';

export class Migration20261121091358Actions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "action" ("id" serial primary key, "user_id" int not null, "op_type" smallint not null, "act_user_id" int not null, "repo_id" int not null, "comment_id" int not null default 0, "ref_name" varchar(255) not null default \'\', "is_private" boolean not null default false, "content" text not null default \'\', "created_at" timestamptz not null)',
    );
    this.addSql('create index "action_user_id_index" on "action" ("user_id")');
    this.addSql('create index "action_repo_id_index" on "action" ("repo_id")');
    this.addSql('create index "action_created_at_index" on "action" ("created_at")');
    this.addSql('create index "action_act_user_id_created_at_index" on "action" ("act_user_id", "created_at")');
    this.addSql(
      'create table "cron_task" ("name" varchar(64) not null, "exec_times" int not null default 0, "prev_at" timestamptz null, constraint "cron_task_pkey" primary key ("name"))',
    );
  }
}
