import { Migration } from '@mikro-orm/migrations';

export class Migration20261125134924AuthLimit extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "auth_limit" ("key" varchar(255) not null, "points" int not null default 0, "expire" bigint null, constraint "auth_limit_pkey" primary key ("key"))',
    );
    this.addSql('create index "auth_limit_expire_index" on "auth_limit" ("expire")');
  }
}
