import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 10, a new comment's notifications read the distinct posters of its issue's comments: with the
 * poster in the index, that read takes one step per poster instead of one per comment. The
 * index serves every read by issue as the one it replaces did, and is no larger (two four-byte keys
 * fill the eight bytes one was padded to), so writes maintain as many indexes as before.
 */
export class Migration20261127100000CommentPosterIndex extends Migration {
  override async up(): Promise<void> {
    this.addSql("create index \"comment_issue_poster_index\" on \"comment\" (\"issue_id\", \"poster_id\")");
    this.addSql("drop index \"comment_issue_id_index\"");
  }
}
