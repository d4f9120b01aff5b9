import { Migration } from '@mikro-orm/migrations';

export class Migration20261121082429IssuesPullsReleases extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "attachment" ("id" serial primary key, "uuid" varchar(40) not null, "repo_id" int not null default 0, "issue_id" int not null default 0, "comment_id" int not null default 0, "release_id" int not null default 0, "uploader_id" int not null default 0, "name" varchar(255) not null, "size" bigint not null default 0, "download_count" int not null default 0, "external_url" varchar(2048) not null default \'\', "created_at" timestamptz not null)',
    );
    this.addSql('alter table "attachment" add constraint "attachment_uuid_unique" unique ("uuid")');
    this.addSql('create index "attachment_repo_id_index" on "attachment" ("repo_id")');
    this.addSql('create index "attachment_issue_id_index" on "attachment" ("issue_id")');
    this.addSql('create index "attachment_comment_id_index" on "attachment" ("comment_id")');
    this.addSql('create index "attachment_release_id_index" on "attachment" ("release_id")');
    this.addSql(
      'create table "pull_auto_merge" ("id" serial primary key, "pull_id" int not null, "doer_id" int not null, "merge_style" varchar(32) not null, "message" text not null default \'\', "delete_branch_after_merge" boolean not null default false, "created_at" timestamptz not null)',
    );
    this.addSql('alter table "pull_auto_merge" add constraint "pull_auto_merge_pull_id_unique" unique ("pull_id")');
    this.addSql(
      'create table "comment" ("id" serial primary key, "type" smallint not null default 0, "issue_id" int not null, "poster_id" int not null, "original_author" varchar(255) not null default \'\', "original_author_id" bigint not null default 0, "content" text not null default \'\', "label_id" int not null default 0, "old_milestone_id" int not null default 0, "milestone_id" int not null default 0, "assignee_id" int not null default 0, "assignee_team_id" int not null default 0, "removed_assignee" boolean not null default false, "resolve_doer_id" int not null default 0, "old_title" varchar(255) not null default \'\', "new_title" varchar(255) not null default \'\', "old_ref" varchar(255) not null default \'\', "new_ref" varchar(255) not null default \'\', "dependent_issue_id" int not null default 0, "time_id" int not null default 0, "tree_path" varchar(4096) not null default \'\', "line" int not null default 0, "patch" text not null default \'\', "commit_sha" varchar(64) not null default \'\', "review_id" int not null default 0, "invalidated" boolean not null default false, "ref_repo_id" int not null default 0, "ref_issue_id" int not null default 0, "ref_comment_id" int not null default 0, "ref_action" smallint not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "comment_issue_id_index" on "comment" ("issue_id")');
    this.addSql('create index "comment_poster_id_index" on "comment" ("poster_id")');
    this.addSql('create index "comment_review_id_index" on "comment" ("review_id")');
    this.addSql(
      'create table "issue" ("id" serial primary key, "repo_id" int not null, "index" int not null, "poster_id" int not null, "original_author" varchar(255) not null default \'\', "original_author_id" bigint not null default 0, "title" varchar(255) not null, "content" text not null default \'\', "ref" varchar(255) not null default \'\', "milestone_id" int not null default 0, "is_pull" boolean not null default false, "is_closed" boolean not null default false, "is_locked" boolean not null default false, "num_comments" int not null default 0, "pin_order" int not null default 0, "deadline" timestamptz null, "closed_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "issue_poster_id_index" on "issue" ("poster_id")');
    this.addSql('create index "issue_milestone_id_index" on "issue" ("milestone_id")');
    this.addSql('alter table "issue" add constraint "issue_repo_id_index_unique" unique ("repo_id", "index")');
    this.addSql('create table "issue_assignees" ("id" serial primary key, "issue_id" int not null, "assignee_id" int not null)');
    this.addSql('create index "issue_assignees_assignee_id_index" on "issue_assignees" ("assignee_id")');
    this.addSql(
      'alter table "issue_assignees" add constraint "issue_assignees_issue_id_assignee_id_unique" unique ("issue_id", "assignee_id")',
    );
    this.addSql(
      'create table "issue_dependency" ("id" serial primary key, "user_id" int not null, "issue_id" int not null, "dependency_id" int not null, "created_at" timestamptz not null)',
    );
    this.addSql('create index "issue_dependency_dependency_id_index" on "issue_dependency" ("dependency_id")');
    this.addSql(
      'alter table "issue_dependency" add constraint "issue_dependency_issue_id_dependency_id_unique" unique ("issue_id", "dependency_id")',
    );
    this.addSql('create table "issue_label" ("id" serial primary key, "issue_id" int not null, "label_id" int not null)');
    this.addSql('create index "issue_label_label_id_index" on "issue_label" ("label_id")');
    this.addSql('alter table "issue_label" add constraint "issue_label_issue_id_label_id_unique" unique ("issue_id", "label_id")');
    this.addSql(
      'create table "issue_watch" ("id" serial primary key, "user_id" int not null, "issue_id" int not null, "is_watching" boolean not null, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "issue_watch_issue_id_index" on "issue_watch" ("issue_id")');
    this.addSql('alter table "issue_watch" add constraint "issue_watch_user_id_issue_id_unique" unique ("user_id", "issue_id")');
    this.addSql(
      'create table "pull_request" ("id" serial primary key, "issue_id" int not null, "index" int not null, "base_repo_id" int not null, "head_repo_id" int not null, "base_branch" varchar(255) not null, "head_branch" varchar(255) not null, "head_commit_id" varchar(64) not null default \'\', "merge_base" varchar(64) not null default \'\', "status" smallint not null default 1, "conflicted_files" jsonb not null default \'[]\', "commits_ahead" int not null default 0, "commits_behind" int not null default 0, "flow" smallint not null default 0, "allow_maintainer_edit" boolean not null default false, "has_merged" boolean not null default false, "merged_commit_id" varchar(64) not null default \'\', "merger_id" int not null default 0, "merged_at" timestamptz null)',
    );
    this.addSql('alter table "pull_request" add constraint "pull_request_issue_id_unique" unique ("issue_id")');
    this.addSql('create index "pull_request_base_repo_id_index" on "pull_request" ("base_repo_id")');
    this.addSql('create index "pull_request_head_repo_id_index" on "pull_request" ("head_repo_id")');
    this.addSql(
      'create table "reaction" ("id" serial primary key, "type" varchar(64) not null, "issue_id" int not null, "comment_id" int not null default 0, "user_id" int not null, "original_author" varchar(255) not null default \'\', "original_author_id" bigint not null default 0, "created_at" timestamptz not null)',
    );
    this.addSql('create index "reaction_issue_id_index" on "reaction" ("issue_id")');
    this.addSql(
      'alter table "reaction" add constraint "reaction_type_issue_id_comment_id_user_id_origina_f0395_unique" unique ("type", "issue_id", "comment_id", "user_id", "original_author")',
    );
    this.addSql(
      'create table "release" ("id" serial primary key, "repo_id" int not null, "publisher_id" int not null default 0, "tag_name" varchar(255) not null, "lower_tag_name" varchar(255) not null, "target" varchar(255) not null default \'\', "title" varchar(255) not null default \'\', "sha1" varchar(64) not null default \'\', "num_commits" int not null default 0, "note" text not null default \'\', "is_draft" boolean not null default false, "is_prerelease" boolean not null default false, "is_tag" boolean not null default false, "hide_archive_links" boolean not null default false, "archive_download_count" jsonb not null default \'{"zip":0,"tar_gz":0}\', "original_author" varchar(255) not null default \'\', "original_author_id" bigint not null default 0, "created_at" timestamptz not null)',
    );
    this.addSql('alter table "release" add constraint "release_repo_id_lower_tag_name_unique" unique ("repo_id", "lower_tag_name")');
    this.addSql(
      'create table "review" ("id" serial primary key, "type" smallint not null, "issue_id" int not null, "reviewer_id" int not null default 0, "reviewer_team_id" int not null default 0, "original_author" varchar(255) not null default \'\', "original_author_id" bigint not null default 0, "content" text not null default \'\', "official" boolean not null default false, "commit_id" varchar(64) not null default \'\', "stale" boolean not null default false, "dismissed" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "review_issue_id_index" on "review" ("issue_id")');
    this.addSql('create index "review_reviewer_id_index" on "review" ("reviewer_id")');
    this.addSql(
      'create table "stopwatch" ("id" serial primary key, "issue_id" int not null, "user_id" int not null, "created_at" timestamptz not null)',
    );
    this.addSql('create index "stopwatch_user_id_index" on "stopwatch" ("user_id")');
    this.addSql('alter table "stopwatch" add constraint "stopwatch_user_id_issue_id_unique" unique ("user_id", "issue_id")');
    this.addSql(
      'create table "tracked_time" ("id" serial primary key, "issue_id" int not null, "user_id" int not null, "time" bigint not null, "deleted" boolean not null default false, "created_at" timestamptz not null)',
    );
    this.addSql('create index "tracked_time_issue_id_index" on "tracked_time" ("issue_id")');
    this.addSql('create index "tracked_time_user_id_index" on "tracked_time" ("user_id")');
  }
}
