import { Migration } from '@mikro-orm/migrations';

/** Users, organizations, teams, tokens, repositories, collaborators, redirects and counters. */
export class Migration20261121000000Foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "access_token" ("id" serial primary key, "uid" int not null, "name" varchar(255) not null, "token_hash" varchar(128) not null, "token_salt" varchar(32) not null, "token_last_eight" varchar(8) not null, "scope" varchar(512) not null default '', "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`create index "access_token_uid_index" on "access_token" ("uid")`);
    this.addSql(`alter table "access_token" add constraint "access_token_token_hash_unique" unique ("token_hash")`);
    this.addSql(`create index "access_token_token_last_eight_index" on "access_token" ("token_last_eight")`);
    this.addSql(`alter table "access_token" add constraint "access_token_uid_name_unique" unique ("uid", "name")`);
    this.addSql(`create table "access_token_repo" ("id" serial primary key, "token_id" int not null, "repo_id" int not null)`);
    this.addSql(`create index "access_token_repo_token_id_index" on "access_token_repo" ("token_id")`);
    this.addSql(`create index "access_token_repo_repo_id_index" on "access_token_repo" ("repo_id")`);
    this.addSql(
      `alter table "access_token_repo" add constraint "access_token_repo_token_id_repo_id_unique" unique ("token_id", "repo_id")`,
    );
    this.addSql(
      `create table "collaboration" ("id" serial primary key, "repo_id" int not null, "user_id" int not null, "mode" smallint not null default 2)`,
    );
    this.addSql(`create index "collaboration_repo_id_index" on "collaboration" ("repo_id")`);
    this.addSql(`create index "collaboration_user_id_index" on "collaboration" ("user_id")`);
    this.addSql(`alter table "collaboration" add constraint "collaboration_repo_id_user_id_unique" unique ("repo_id", "user_id")`);
    this.addSql(
      `create table "email_address" ("id" serial primary key, "uid" int not null, "email" varchar(255) not null, "lower_email" varchar(255) not null, "is_activated" boolean not null default false, "is_primary" boolean not null default false)`,
    );
    this.addSql(`create index "email_address_uid_index" on "email_address" ("uid")`);
    this.addSql(`alter table "email_address" add constraint "email_address_lower_email_unique" unique ("lower_email")`);
    this.addSql(
      `create table "org_user" ("id" serial primary key, "uid" int not null, "org_id" int not null, "is_public" boolean not null default false)`,
    );
    this.addSql(`create index "org_user_uid_index" on "org_user" ("uid")`);
    this.addSql(`create index "org_user_org_id_index" on "org_user" ("org_id")`);
    this.addSql(`alter table "org_user" add constraint "org_user_uid_org_id_unique" unique ("uid", "org_id")`);
    this.addSql(
      `create table "repo_redirect" ("id" serial primary key, "owner_id" int not null, "lower_name" varchar(255) not null, "redirect_repo_id" int not null)`,
    );
    this.addSql(`create index "repo_redirect_redirect_repo_id_index" on "repo_redirect" ("redirect_repo_id")`);
    this.addSql(`alter table "repo_redirect" add constraint "repo_redirect_owner_id_lower_name_unique" unique ("owner_id", "lower_name")`);
    this.addSql(
      `create table "repository" ("id" serial primary key, "owner_id" int not null, "owner_name" varchar(255) not null, "name" varchar(255) not null, "lower_name" varchar(255) not null, "description" text not null default '', "website" varchar(2048) not null default '', "original_url" varchar(2048) not null default '', "default_branch" varchar(255) not null default 'main', "wiki_branch" varchar(255) not null default 'main', "is_private" boolean not null default false, "is_empty" boolean not null default true, "is_archived" boolean not null default false, "archived_at" timestamptz null, "is_mirror" boolean not null default false, "mirror_interval" varchar(32) not null default '', "mirror_updated_at" timestamptz null, "is_fork" boolean not null default false, "fork_id" int not null default 0, "is_template" boolean not null default false, "template_id" int not null default 0, "size" bigint not null default 0, "object_format_name" varchar(16) not null default 'sha1', "trust_model" varchar(32) not null default 'default', "num_stars" int not null default 0, "num_forks" int not null default 0, "num_watches" int not null default 0, "num_open_issues" int not null default 0, "num_open_pulls" int not null default 0, "num_releases" int not null default 0, "topics" jsonb not null default '[]', "avatar" varchar(64) not null default '', "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`create index "repository_owner_id_index" on "repository" ("owner_id")`);
    this.addSql(`alter table "repository" add constraint "repository_owner_id_lower_name_unique" unique ("owner_id", "lower_name")`);
    this.addSql(
      `create table "repo_unit" ("id" serial primary key, "repo_id" int not null, "type" smallint not null, "config" jsonb not null default '{}')`,
    );
    this.addSql(`create index "repo_unit_repo_id_index" on "repo_unit" ("repo_id")`);
    this.addSql(`alter table "repo_unit" add constraint "repo_unit_repo_id_type_unique" unique ("repo_id", "type")`);
    this.addSql(
      `create table "resource_index" ("kind" varchar(32) not null, "group_id" int not null, "max_index" int not null default 0, constraint "resource_index_pkey" primary key ("kind", "group_id"))`,
    );
    this.addSql(
      `create table "team" ("id" serial primary key, "org_id" int not null, "name" varchar(255) not null, "lower_name" varchar(255) not null, "description" varchar(255) not null default '', "access_mode" smallint not null default 1, "includes_all_repositories" boolean not null default false, "can_create_org_repo" boolean not null default false)`,
    );
    this.addSql(`create index "team_org_id_index" on "team" ("org_id")`);
    this.addSql(`alter table "team" add constraint "team_org_id_lower_name_unique" unique ("org_id", "lower_name")`);
    this.addSql(
      `create table "team_repo" ("id" serial primary key, "team_id" int not null, "org_id" int not null, "repo_id" int not null)`,
    );
    this.addSql(`create index "team_repo_team_id_index" on "team_repo" ("team_id")`);
    this.addSql(`create index "team_repo_repo_id_index" on "team_repo" ("repo_id")`);
    this.addSql(`alter table "team_repo" add constraint "team_repo_team_id_repo_id_unique" unique ("team_id", "repo_id")`);
    this.addSql(
      `create table "team_unit" ("id" serial primary key, "team_id" int not null, "org_id" int not null, "type" smallint not null, "access_mode" smallint not null)`,
    );
    this.addSql(`create index "team_unit_team_id_index" on "team_unit" ("team_id")`);
    this.addSql(`alter table "team_unit" add constraint "team_unit_team_id_type_unique" unique ("team_id", "type")`);
    this.addSql(`create table "team_user" ("id" serial primary key, "team_id" int not null, "org_id" int not null, "uid" int not null)`);
    this.addSql(`create index "team_user_team_id_index" on "team_user" ("team_id")`);
    this.addSql(`create index "team_user_org_id_index" on "team_user" ("org_id")`);
    this.addSql(`create index "team_user_uid_index" on "team_user" ("uid")`);
    this.addSql(`alter table "team_user" add constraint "team_user_team_id_uid_unique" unique ("team_id", "uid")`);
    this.addSql(
      `create table "user" ("id" serial primary key, "name" varchar(255) not null, "lower_name" varchar(255) not null, "full_name" varchar(255) not null default '', "email" varchar(255) not null default '', "keep_email_private" boolean not null default false, "password_hash" varchar(255) not null default '', "type" smallint not null default 0, "is_admin" boolean not null default false, "is_active" boolean not null default true, "prohibit_login" boolean not null default false, "restricted" boolean not null default false, "must_change_password" boolean not null default false, "visibility" varchar(16) not null default 'public', "description" text not null default '', "website" varchar(1024) not null default '', "location" varchar(255) not null default '', "pronouns" varchar(255) not null default '', "language" varchar(16) not null default '', "theme" varchar(64) not null default '', "diff_view_style" varchar(32) not null default '', "hide_activity" boolean not null default false, "enable_repo_unit_hints" boolean not null default true, "avatar" varchar(64) not null default '', "login_name" varchar(255) not null default '', "source_id" int not null default 0, "max_repo_creation" int not null default -1, "allow_create_organization" boolean not null default true, "repo_admin_change_team_access" boolean not null default false, "totp_secret" text not null default '', "totp_last_used" varchar(16) not null default '', "created_at" timestamptz not null, "updated_at" timestamptz not null, "last_login_at" timestamptz null)`,
    );
    this.addSql(`alter table "user" add constraint "user_lower_name_unique" unique ("lower_name")`);
    this.addSql(
      `create table "user_redirect" ("id" serial primary key, "lower_name" varchar(255) not null, "redirect_user_id" int not null)`,
    );
    this.addSql(`alter table "user_redirect" add constraint "user_redirect_lower_name_unique" unique ("lower_name")`);
    this.addSql(`create index "user_redirect_redirect_user_id_index" on "user_redirect" ("redirect_user_id")`);
  }
}
