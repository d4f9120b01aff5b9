import { Migration } from '@mikro-orm/migrations';

export class Migration20261125130859Lfs extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "lfs_lock" ("id" serial primary key, "repo_id" int not null, "owner_id" int not null, "path" text not null, "created_at" timestamptz not null)',
    );
    this.addSql('create index "lfs_lock_repo_id_index" on "lfs_lock" ("repo_id")');
    this.addSql('create index "lfs_lock_owner_id_index" on "lfs_lock" ("owner_id")');
    this.addSql('alter table "lfs_lock" add constraint "lfs_lock_repo_id_path_unique" unique ("repo_id", "path")');
    this.addSql(
      'create table "lfs_meta_object" ("id" serial primary key, "oid" varchar(64) not null, "size" bigint not null, "repository_id" int not null, "created_at" timestamptz not null)',
    );
    this.addSql('create index "lfs_meta_object_oid_index" on "lfs_meta_object" ("oid")');
    this.addSql('create index "lfs_meta_object_repository_id_index" on "lfs_meta_object" ("repository_id")');
    this.addSql('alter table "lfs_meta_object" add constraint "lfs_meta_object_repository_id_oid_unique" unique ("repository_id", "oid")');
  }
}
