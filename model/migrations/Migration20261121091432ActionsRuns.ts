import { Migration } from '@mikro-orm/migrations';

export class Migration20261121091432ActionsRuns extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "action_artifact" ("id" serial primary key, "run_id" int not null, "runner_id" int not null default 0, "repo_id" int not null, "owner_id" int not null default 0, "commit_sha" varchar(64) not null default \'\', "storage_path" varchar(255) not null default \'\', "file_size" bigint not null default 0, "file_compressed_size" bigint not null default 0, "content_encoding" varchar(255) not null default \'\', "artifact_path" varchar(255) not null default \'\', "artifact_name" varchar(255) not null, "status" int not null default 1, "created_at" timestamptz not null, "updated_at" timestamptz not null, "expired_at" timestamptz null)',
    );
    this.addSql('create index "action_artifact_run_id_index" on "action_artifact" ("run_id")');
    this.addSql('create index "action_artifact_repo_id_index" on "action_artifact" ("repo_id")');
    this.addSql(
      'create table "action_run" ("id" serial primary key, "title" varchar(255) not null, "repo_id" int not null, "owner_id" int not null default 0, "workflow_id" varchar(255) not null, "workflow_directory" varchar(64) not null default \'.forgejo/workflows\', "index" int not null, "trigger_user_id" int not null default 0, "schedule_id" int not null default 0, "ref" varchar(255) not null default \'\', "commit_sha" varchar(64) not null default \'\', "is_fork_pull_request" boolean not null default false, "need_approval" boolean not null default false, "approved_by" int not null default 0, "event" varchar(64) not null, "event_payload" text not null default \'\', "trigger_event" varchar(64) not null default \'\', "status" varchar(16) not null default \'waiting\', "started" timestamptz null, "stopped" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "action_run_repo_id_index" on "action_run" ("repo_id")');
    this.addSql('create index "action_run_owner_id_index" on "action_run" ("owner_id")');
    this.addSql('alter table "action_run" add constraint "action_run_repo_id_index_unique" unique ("repo_id", "index")');
    this.addSql(
      'create table "action_run_job" ("id" serial primary key, "run_id" int not null, "repo_id" int not null, "owner_id" int not null default 0, "commit_sha" varchar(64) not null default \'\', "is_fork_pull_request" boolean not null default false, "name" varchar(255) not null, "job_id" varchar(255) not null, "attempt" int not null default 1, "handle" varchar(36) not null, "needs" jsonb not null default \'[]\', "runs_on" jsonb not null default \'[]\', "task_id" int not null default 0, "status" varchar(16) not null default \'waiting\', "started" timestamptz null, "stopped" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "action_run_job_run_id_index" on "action_run_job" ("run_id")');
    this.addSql('create index "action_run_job_repo_id_index" on "action_run_job" ("repo_id")');
    this.addSql('create index "action_run_job_owner_id_index" on "action_run_job" ("owner_id")');
    this.addSql('alter table "action_run_job" add constraint "action_run_job_handle_unique" unique ("handle")');
    this.addSql('create index "action_run_job_status_index" on "action_run_job" ("status")');
    this.addSql(
      'create table "action_runner" ("id" serial primary key, "uuid" varchar(36) not null, "name" varchar(255) not null, "version" varchar(64) not null default \'\', "owner_id" int not null default 0, "repo_id" int not null default 0, "description" text not null default \'\', "labels" jsonb not null default \'[]\', "ephemeral" boolean not null default false, "token_hash" varchar(128) not null default \'\', "token_salt" varchar(32) not null default \'\', "token_last_eight" varchar(8) not null default \'\', "last_online" timestamptz null, "last_active" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('alter table "action_runner" add constraint "action_runner_uuid_unique" unique ("uuid")');
    this.addSql('create index "action_runner_owner_id_index" on "action_runner" ("owner_id")');
    this.addSql('create index "action_runner_repo_id_index" on "action_runner" ("repo_id")');
    this.addSql('create index "action_runner_token_last_eight_index" on "action_runner" ("token_last_eight")');
    this.addSql(
      'create table "action_runner_token" ("id" serial primary key, "token" varchar(64) not null, "owner_id" int not null default 0, "repo_id" int not null default 0, "is_active" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('alter table "action_runner_token" add constraint "action_runner_token_token_unique" unique ("token")');
    this.addSql('create index "action_runner_token_owner_id_repo_id_index" on "action_runner_token" ("owner_id", "repo_id")');
    this.addSql(
      'alter table "action_task" add column "attempt" int not null default 1, add column "runner_id" int not null default 0, add column "log_filename" varchar(255) not null default \'\', add column "log_size" bigint not null default 0, add column "log_expired" boolean not null default false, add column "started" timestamptz null, add column "stopped" timestamptz null, add column "updated_at" timestamptz not null default now()',
    );
    // Existing tasks take the time of the migration; new rows get their value from the entity.
    this.addSql('alter table "action_task" alter column "updated_at" drop default');
  }
}
