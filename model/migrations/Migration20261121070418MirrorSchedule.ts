import { Migration } from '@mikro-orm/migrations';

export class Migration20261121070418MirrorSchedule extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "mirror_next_update_at_index" on "mirror" ("next_update_at")');
    this.addSql('alter table "push_mirror" add column "next_update_at" timestamptz null');
    this.addSql('create index "push_mirror_next_update_at_index" on "push_mirror" ("next_update_at")');
    // Push mirrors created before scheduling existed are due once, then keep their interval.
    this.addSql('update "push_mirror" set "next_update_at" = now() where "interval" not in (\'\', \'0s\')');
  }
}
