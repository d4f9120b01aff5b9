import { Migration } from '@mikro-orm/migrations';

export class Migration20261121091420Packages extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "package" ("id" serial primary key, "owner_id" int not null, "repo_id" int not null default 0, "type" varchar(32) not null, "name" varchar(255) not null, "lower_name" varchar(255) not null, "semver_compatible" boolean not null default false, "created_at" timestamptz not null)',
    );
    this.addSql('create index "package_owner_id_index" on "package" ("owner_id")');
    this.addSql('create index "package_repo_id_index" on "package" ("repo_id")');
    this.addSql('alter table "package" add constraint "package_owner_id_type_lower_name_unique" unique ("owner_id", "type", "lower_name")');
    this.addSql(
      'create table "package_blob" ("id" serial primary key, "size" bigint not null default 0, "hash_md5" varchar(32) not null, "hash_sha1" varchar(40) not null, "hash_sha256" varchar(64) not null, "hash_sha512" varchar(128) not null, "created_at" timestamptz not null)',
    );
    this.addSql('alter table "package_blob" add constraint "package_blob_hash_sha256_unique" unique ("hash_sha256")');
    this.addSql(
      'create table "package_file" ("id" serial primary key, "version_id" int not null, "blob_id" int not null, "name" varchar(255) not null, "lower_name" varchar(255) not null, "is_lead" boolean not null default false, "created_at" timestamptz not null)',
    );
    this.addSql('create index "package_file_blob_id_index" on "package_file" ("blob_id")');
    this.addSql(
      'alter table "package_file" add constraint "package_file_version_id_lower_name_unique" unique ("version_id", "lower_name")',
    );
    this.addSql(
      'create table "package_version" ("id" serial primary key, "package_id" int not null, "creator_id" int not null default 0, "version" varchar(255) not null, "lower_version" varchar(255) not null, "download_count" int not null default 0, "metadata" jsonb not null default \'null\', "created_at" timestamptz not null)',
    );
    this.addSql(
      'alter table "package_version" add constraint "package_version_package_id_lower_version_unique" unique ("package_id", "lower_version")',
    );
  }
}
