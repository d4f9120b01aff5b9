// Reads a row declares (`ahead`) for its handler, made in the statement that finds the caller's token
// (guards/types.ts TokenRead): a handler's own reads that no step makes.
import { keepNewRowAhead, newRowAheadColumns } from '../lib/issues/events.ts';
import type { NewRowKind } from '../lib/issues/issues.ts';
import { keepStarCount, starCountColumn } from '../lib/repos/social.ts';
import { prefixedId } from '../model/raw.ts';
import { Repository } from '../model/repo.ts';
import { REPO_AHEAD } from './repo.ts';
import type { TokenRead } from './types.ts';

/**
 * A new issue's or comment's early reads (the id it takes, the feed's watchers, the hooks;
 * lib/issues/events.ts newRowEarly), in the repository REPO reads with the token: POST {R}/issues and
 * POST .../comments then send everything else with COMMIT.
 */
const newRow = (kind: NewRowKind): TokenRead => ({
  name: `new-${kind}`,
  inside: REPO_AHEAD,
  select: (em) => `, ${newRowAheadColumns(em, kind)}`,
  values: () => [],
  keep: ({ em, ahead, row, uid }) => {
    if (row.r != null) keepNewRowAhead(em, ahead, kind, Number(prefixedId(em, Repository, row, 'r')), uid, row);
  },
});

export const NEW_ISSUE_AHEAD = newRow('issue');
export const NEW_COMMENT_AHEAD = newRow('comment');

/** The caller's star count, which GET /user shows (a request that changes nothing, which cannot star anything either). */
export const STARS_AHEAD: TokenRead = {
  name: 'stars',
  select: () => `, ${starCountColumn('t.uid')}`,
  values: () => [],
  keep: ({ ahead, row, uid }) => keepStarCount(ahead, uid, Number(row.star_count)),
};
