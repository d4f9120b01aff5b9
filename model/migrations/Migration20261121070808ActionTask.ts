import { Migration } from '@mikro-orm/migrations';

export class Migration20261121070808ActionTask extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "action_task" ("id" serial primary key, "repo_id" int not null, "job_id" int not null default 0, "status" varchar(16) not null default \'running\', "is_fork_pull_request" boolean not null default false, "token_hash" varchar(128) not null default \'\', "token_salt" varchar(32) not null default \'\', "token_last_eight" varchar(8) not null default \'\', "created_at" timestamptz not null)',
    );
    this.addSql('create index "action_task_repo_id_index" on "action_task" ("repo_id")');
    this.addSql('create index "action_task_token_last_eight_index" on "action_task" ("token_last_eight")');
  }
}
