import { Migration } from '@mikro-orm/migrations';

export class Migration20261121091430Federation extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "federation_actor_key" ("id" serial primary key, "user_id" int not null, "public_key_pem" text not null, "private_key_sealed" text not null, "created_at" timestamptz not null)',
    );
    this.addSql('alter table "federation_actor_key" add constraint "federation_actor_key_user_id_unique" unique ("user_id")');
    this.addSql(
      'create table "federated_user" ("id" serial primary key, "user_id" int not null, "federation_host_id" int not null, "external_id" varchar(2048) not null, "inbox_url" varchar(2048) not null default \'\', "key_id" varchar(2048) not null, "public_key_pem" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('alter table "federated_user" add constraint "federated_user_user_id_unique" unique ("user_id")');
    this.addSql('create index "federated_user_federation_host_id_index" on "federated_user" ("federation_host_id")');
    this.addSql('alter table "federated_user" add constraint "federated_user_external_id_unique" unique ("external_id")');
    this.addSql('create index "federated_user_key_id_index" on "federated_user" ("key_id")');
    this.addSql(
      'create table "federation_host" ("id" serial primary key, "host_fqdn" varchar(255) not null, "host_port" int not null, "host_schema" varchar(8) not null, "key_id" varchar(2048) null, "public_key_pem" text null, "latest_activity" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "federation_host_key_id_index" on "federation_host" ("key_id")');
    this.addSql(
      'alter table "federation_host" add constraint "federation_host_host_fqdn_host_port_unique" unique ("host_fqdn", "host_port")',
    );
    this.addSql('create table "forgejo_repo_flag" ("id" serial primary key, "repo_id" int not null, "name" varchar(255) not null)');
    this.addSql('create index "forgejo_repo_flag_repo_id_index" on "forgejo_repo_flag" ("repo_id")');
    this.addSql('alter table "forgejo_repo_flag" add constraint "forgejo_repo_flag_repo_id_name_unique" unique ("repo_id", "name")');
  }
}
