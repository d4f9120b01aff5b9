import { Migration } from '@mikro-orm/migrations';

export class Migration20261121060213GitData extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "commit_status" ("id" serial primary key, "index" int not null, "repo_id" int not null, "sha" varchar(64) not null, "state" varchar(16) not null, "target_url" text not null default \'\', "description" text not null default \'\', "context" text not null default \'\', "context_hash" varchar(40) not null, "creator_id" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "commit_status_repo_id_sha_index" on "commit_status" ("repo_id", "sha")');
    this.addSql('alter table "commit_status" add constraint "commit_status_repo_id_sha_index_unique" unique ("repo_id", "sha", "index")');
    this.addSql(
      'create table "protected_branch" ("id" serial primary key, "repo_id" int not null, "rule_name" varchar(255) not null, "can_push" boolean not null default false, "enable_whitelist" boolean not null default false, "whitelist_user_ids" jsonb not null default \'[]\', "whitelist_team_ids" jsonb not null default \'[]\', "whitelist_deploy_keys" boolean not null default false, "enable_merge_whitelist" boolean not null default false, "merge_whitelist_user_ids" jsonb not null default \'[]\', "merge_whitelist_team_ids" jsonb not null default \'[]\', "enable_status_check" boolean not null default false, "status_check_contexts" jsonb not null default \'[]\', "enable_approvals_whitelist" boolean not null default false, "approvals_whitelist_user_ids" jsonb not null default \'[]\', "approvals_whitelist_team_ids" jsonb not null default \'[]\', "required_approvals" int not null default 0, "block_on_rejected_reviews" boolean not null default false, "block_on_official_review_requests" boolean not null default false, "block_on_outdated_branch" boolean not null default false, "dismiss_stale_approvals" boolean not null default false, "ignore_stale_approvals" boolean not null default false, "require_signed_commits" boolean not null default false, "protected_file_patterns" text not null default \'\', "unprotected_file_patterns" text not null default \'\', "apply_to_admins" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "protected_branch_repo_id_index" on "protected_branch" ("repo_id")');
    this.addSql(
      'alter table "protected_branch" add constraint "protected_branch_repo_id_rule_name_unique" unique ("repo_id", "rule_name")',
    );
    this.addSql(
      'create table "protected_tag" ("id" serial primary key, "repo_id" int not null, "name_pattern" varchar(255) not null, "allowlist_user_ids" jsonb not null default \'[]\', "allowlist_team_ids" jsonb not null default \'[]\', "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "protected_tag_repo_id_index" on "protected_tag" ("repo_id")');
  }
}
