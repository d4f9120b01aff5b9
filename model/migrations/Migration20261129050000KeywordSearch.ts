import { Migration } from '@mikro-orm/migrations';

/**
 * Keyword search by trigram indexes (pg_trgm; the embedded database loads it as a PGlite extension,
 * model/db.ts). Each index is over the very expression the searches match with `like '%…%'`
 * (lib/issues/query.ts, lib/repos/search.ts, handlers/users.ts), so the answers are those of a scan:
 * a pattern with a trigram to look for reads the index instead of every row. The comment index holds
 * only plain comments (type 0), the only ones keyword search reads.
 */
export class Migration20261129050000KeywordSearch extends Migration {
  override async up(): Promise<void> {
    this.addSql('create extension if not exists pg_trgm');
    // lib/issues/query.ts passes user text as base64 (see TEXT there). convert_from is only stable,
    // so PostgreSQL did not fold the decoded pattern into a constant, could not estimate it and
    // scanned every comment (216 ms against 3 ms at 100,000 issues); the text decoded is fixed by its
    // argument in a given database (its encoding never changes), so this function is immutable.
    this.addSql(
      `create function "cairn_b64_text"(text) returns text language sql immutable strict parallel safe as $$ select convert_from(decode($1, 'base64'), 'UTF8') $$`,
    );
    this.addSql('create index "issue_title_trgm" on "issue" using gin (lower("title") gin_trgm_ops)');
    this.addSql('create index "issue_content_trgm" on "issue" using gin (lower("content") gin_trgm_ops)');
    this.addSql('create index "comment_content_trgm" on "comment" using gin (lower("content") gin_trgm_ops) where "type" = 0');
    this.addSql('create index "repository_lower_name_trgm" on "repository" using gin ("lower_name" gin_trgm_ops)');
    this.addSql('create index "repository_description_trgm" on "repository" using gin (lower("description") gin_trgm_ops)');
    this.addSql('create index "topic_name_trgm" on "topic" using gin ("name" gin_trgm_ops)');
    this.addSql('create index "user_lower_name_trgm" on "user" using gin ("lower_name" gin_trgm_ops)');
    this.addSql('create index "user_full_name_trgm" on "user" using gin ("full_name" gin_trgm_ops)');
    this.addSql('create index "user_email_trgm" on "user" using gin ("email" gin_trgm_ops)');
  }
}
