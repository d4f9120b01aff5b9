import { Migration } from '@mikro-orm/migrations';

export class Migration20261125160453PackageProperties extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "package_property" ("id" serial primary key, "ref_type" int not null, "ref_id" int not null, "name" varchar(255) not null, "value" text not null)',
    );
    this.addSql('create index "package_property_ref_type_ref_id_index" on "package_property" ("ref_type", "ref_id")');
    this.addSql('alter table "package_version" add column "is_internal" boolean not null default false');
  }
}
