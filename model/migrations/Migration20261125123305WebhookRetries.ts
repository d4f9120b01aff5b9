import { Migration } from '@mikro-orm/migrations';

export class Migration20261125123305WebhookRetries extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "hook_task" add column "attempts" int not null default 0, add column "next_attempt_at" timestamptz null');
  }
}
