import { Migration } from '@mikro-orm/migrations';

export class Migration20261121075432Milestones extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "milestone" ("id" serial primary key, "repo_id" int not null, "name" varchar(255) not null, "description" text not null default \'\', "is_closed" boolean not null default false, "num_issues" int not null default 0, "num_closed_issues" int not null default 0, "deadline" timestamptz null, "closed_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "milestone_repo_id_index" on "milestone" ("repo_id")');
  }
}
