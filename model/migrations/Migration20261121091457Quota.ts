import { Migration } from '@mikro-orm/migrations';

export class Migration20261121091457Quota extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table "quota_group" ("name" varchar(255) not null, constraint "quota_group_pkey" primary key ("name"))');
    this.addSql(
      'create table "quota_group_mapping" ("id" serial primary key, "kind" int not null default 0, "mapped_id" int not null, "group_name" varchar(255) not null)',
    );
    this.addSql('create index "quota_group_mapping_group_name_index" on "quota_group_mapping" ("group_name")');
    this.addSql(
      'alter table "quota_group_mapping" add constraint "quota_group_mapping_kind_mapped_id_group_name_unique" unique ("kind", "mapped_id", "group_name")',
    );
    this.addSql(
      'create table "quota_group_rule_mapping" ("id" serial primary key, "group_name" varchar(255) not null, "rule_name" varchar(255) not null)',
    );
    this.addSql('create index "quota_group_rule_mapping_group_name_index" on "quota_group_rule_mapping" ("group_name")');
    this.addSql(
      'alter table "quota_group_rule_mapping" add constraint "quota_group_rule_mapping_group_name_rule_name_unique" unique ("group_name", "rule_name")',
    );
    this.addSql(
      'create table "quota_rule" ("name" varchar(255) not null, "limit" bigint not null, "subjects" jsonb not null default \'[]\', constraint "quota_rule_pkey" primary key ("name"))',
    );
  }
}
