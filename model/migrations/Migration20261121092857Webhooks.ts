import { Migration } from '@mikro-orm/migrations';

export class Migration20261121092857Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "hook_task" ("id" serial primary key, "hook_id" int not null, "repo_id" int not null default 0, "uuid" varchar(36) not null, "event_type" varchar(64) not null, "payload" text not null, "is_delivered" boolean not null default false, "is_succeed" boolean not null default false, "request_info" jsonb null, "response_info" jsonb null, "created_at" timestamptz not null, "delivered_at" timestamptz null)',
    );
    this.addSql('create index "hook_task_hook_id_index" on "hook_task" ("hook_id")');
    this.addSql('alter table "hook_task" add constraint "hook_task_uuid_unique" unique ("uuid")');
    this.addSql('create index "hook_task_is_delivered_index" on "hook_task" ("is_delivered")');
    this.addSql(
      'create table "webhook" ("id" serial primary key, "repo_id" int not null default 0, "owner_id" int not null default 0, "is_system_webhook" boolean not null default false, "type" varchar(16) not null, "url" text not null, "http_method" varchar(8) not null default \'POST\', "content_type" varchar(8) not null default \'json\', "secret" text not null default \'\', "events" jsonb not null, "meta" text not null default \'\', "is_active" boolean not null default false, "authorization_header" text not null default \'\', "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "webhook_repo_id_index" on "webhook" ("repo_id")');
    this.addSql('create index "webhook_owner_id_index" on "webhook" ("owner_id")');
  }
}
