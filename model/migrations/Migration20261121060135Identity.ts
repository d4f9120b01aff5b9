import { Migration } from '@mikro-orm/migrations';

/** Follows, blocks, SSH and GPG keys, OAuth2 applications; user follow counters and hidden pronouns. */
export class Migration20261121060135Identity extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "blocked_user" ("id" serial primary key, "user_id" int not null, "block_id" int not null, "created_at" timestamptz not null)',
    );
    this.addSql('create index "blocked_user_user_id_index" on "blocked_user" ("user_id")');
    this.addSql('create index "blocked_user_block_id_index" on "blocked_user" ("block_id")');
    this.addSql('alter table "blocked_user" add constraint "blocked_user_user_id_block_id_unique" unique ("user_id", "block_id")');
    this.addSql(
      'create table "follow" ("id" serial primary key, "user_id" int not null, "follow_id" int not null, "created_at" timestamptz not null)',
    );
    this.addSql('create index "follow_user_id_index" on "follow" ("user_id")');
    this.addSql('create index "follow_follow_id_index" on "follow" ("follow_id")');
    this.addSql('alter table "follow" add constraint "follow_user_id_follow_id_unique" unique ("user_id", "follow_id")');
    this.addSql(
      'create table "gpg_key" ("id" serial primary key, "owner_id" int not null, "key_id" varchar(16) not null, "primary_key_id" varchar(16) not null default \'\', "content" text not null, "key_created_at" timestamptz not null, "expires_at" timestamptz null, "added_at" timestamptz not null, "emails" jsonb not null default \'[]\', "verified" boolean not null default false, "can_sign" boolean not null default false, "can_encrypt_comms" boolean not null default false, "can_encrypt_storage" boolean not null default false, "can_certify" boolean not null default false)',
    );
    this.addSql('create index "gpg_key_owner_id_index" on "gpg_key" ("owner_id")');
    this.addSql('create index "gpg_key_key_id_index" on "gpg_key" ("key_id")');
    this.addSql('create index "gpg_key_primary_key_id_index" on "gpg_key" ("primary_key_id")');
    this.addSql('create table "gpg_key_import" ("id" serial primary key, "key_id" varchar(16) not null, "content" text not null)');
    this.addSql('alter table "gpg_key_import" add constraint "gpg_key_import_key_id_unique" unique ("key_id")');
    this.addSql(
      'create table "oauth2_application" ("id" serial primary key, "uid" int not null, "name" varchar(255) not null, "client_id" varchar(64) not null, "client_secret_hash" varchar(255) not null default \'\', "confidential_client" boolean not null default true, "redirect_uris" jsonb not null default \'[]\', "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "oauth2_application_uid_index" on "oauth2_application" ("uid")');
    this.addSql('alter table "oauth2_application" add constraint "oauth2_application_client_id_unique" unique ("client_id")');
    this.addSql(
      'create table "public_key" ("id" serial primary key, "owner_id" int not null, "name" varchar(255) not null, "fingerprint" varchar(255) not null, "content" text not null, "mode" smallint not null default 2, "type" smallint not null default 1, "verified" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null)',
    );
    this.addSql('create index "public_key_owner_id_index" on "public_key" ("owner_id")');
    this.addSql('create index "public_key_fingerprint_index" on "public_key" ("fingerprint")');
    this.addSql(
      'alter table "user" add column "hide_pronouns" boolean not null default false, add column "num_followers" int not null default 0, add column "num_following" int not null default 0',
    );
  }
}
