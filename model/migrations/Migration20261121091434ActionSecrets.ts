import { Migration } from '@mikro-orm/migrations';

export class Migration20261121091434ActionSecrets extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "action_secret" ("id" serial primary key, "owner_id" int not null default 0, "repo_id" int not null default 0, "name" varchar(255) not null, "data" text not null, "created_at" timestamptz not null)',
    );
    this.addSql('create index "action_secret_owner_id_index" on "action_secret" ("owner_id")');
    this.addSql('create index "action_secret_repo_id_index" on "action_secret" ("repo_id")');
    this.addSql(
      'alter table "action_secret" add constraint "action_secret_owner_id_repo_id_name_unique" unique ("owner_id", "repo_id", "name")',
    );
    this.addSql(
      'create table "action_variable" ("id" serial primary key, "owner_id" int not null default 0, "repo_id" int not null default 0, "name" varchar(255) not null, "data" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "action_variable_owner_id_index" on "action_variable" ("owner_id")');
    this.addSql('create index "action_variable_repo_id_index" on "action_variable" ("repo_id")');
    this.addSql(
      'alter table "action_variable" add constraint "action_variable_owner_id_repo_id_name_unique" unique ("owner_id", "repo_id", "name")',
    );
  }
}
