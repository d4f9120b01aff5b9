import { Migration } from '@mikro-orm/migrations';

/** Labels, stars, watches, topics, pending transfers, pull and push mirrors. */
export class Migration20261121060104RepoRecords extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "label" ("id" serial primary key, "repo_id" int not null default 0, "org_id" int not null default 0, "name" varchar(255) not null, "exclusive" boolean not null default false, "color" varchar(7) not null, "description" text not null default \'\', "is_archived" boolean not null default false, "num_issues" int not null default 0, "num_closed_issues" int not null default 0, "archived_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "label_repo_id_index" on "label" ("repo_id")');
    this.addSql('create index "label_org_id_index" on "label" ("org_id")');
    this.addSql(
      'create table "mirror" ("id" serial primary key, "repo_id" int not null, "remote_address" varchar(2048) not null, "credentials" text not null default \'\', "interval" varchar(32) not null default \'8h0m0s\', "enable_prune" boolean not null default true, "last_error" text not null default \'\', "updated_at" timestamptz null, "next_update_at" timestamptz null)',
    );
    this.addSql('alter table "mirror" add constraint "mirror_repo_id_unique" unique ("repo_id")');
    this.addSql(
      'create table "push_mirror" ("id" serial primary key, "repo_id" int not null, "remote_name" varchar(64) not null, "remote_address" varchar(2048) not null, "credentials" text not null default \'\', "branch_filter" varchar(255) not null default \'\', "sync_on_commit" boolean not null default true, "interval" varchar(32) not null default \'8h0m0s\', "last_error" text not null default \'\', "created_at" timestamptz not null, "last_update" timestamptz null)',
    );
    this.addSql('create index "push_mirror_repo_id_index" on "push_mirror" ("repo_id")');
    this.addSql('alter table "push_mirror" add constraint "push_mirror_repo_id_remote_name_unique" unique ("repo_id", "remote_name")');
    this.addSql('create table "repo_topic" ("id" serial primary key, "repo_id" int not null, "topic_id" int not null)');
    this.addSql('create index "repo_topic_repo_id_index" on "repo_topic" ("repo_id")');
    this.addSql('create index "repo_topic_topic_id_index" on "repo_topic" ("topic_id")');
    this.addSql('alter table "repo_topic" add constraint "repo_topic_repo_id_topic_id_unique" unique ("repo_id", "topic_id")');
    this.addSql(
      'create table "repo_transfer" ("id" serial primary key, "repo_id" int not null, "doer_id" int not null, "recipient_id" int not null, "team_ids" jsonb not null default \'[]\', "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('alter table "repo_transfer" add constraint "repo_transfer_repo_id_unique" unique ("repo_id")');
    this.addSql('create index "repo_transfer_recipient_id_index" on "repo_transfer" ("recipient_id")');
    this.addSql(
      'create table "star" ("id" serial primary key, "uid" int not null, "repo_id" int not null, "created_at" timestamptz not null)',
    );
    this.addSql('create index "star_uid_index" on "star" ("uid")');
    this.addSql('create index "star_repo_id_index" on "star" ("repo_id")');
    this.addSql('alter table "star" add constraint "star_uid_repo_id_unique" unique ("uid", "repo_id")');
    this.addSql(
      'create table "topic" ("id" serial primary key, "name" varchar(50) not null, "repo_count" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('alter table "topic" add constraint "topic_name_unique" unique ("name")');
    this.addSql(
      'create table "watch" ("id" serial primary key, "user_id" int not null, "repo_id" int not null, "mode" smallint not null default 1, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "watch_user_id_index" on "watch" ("user_id")');
    this.addSql('create index "watch_repo_id_index" on "watch" ("repo_id")');
    this.addSql('alter table "watch" add constraint "watch_user_id_repo_id_unique" unique ("user_id", "repo_id")');
  }
}
