import { Migration } from '@mikro-orm/migrations';

/**
 * The posters of an issue's comments, code comments and reviews (types 0, 21 and 22), who
 * follow it (lib/activity/notify.ts), found by a loose scan of this index, one probe per poster, instead of
 * reading every comment of the issue on every new comment.
 */
export class Migration20261127171500CommentParticipants extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "comment_participant_index" on "comment" ("issue_id", "poster_id") where "type" in (0, 21, 22)');
  }
}
