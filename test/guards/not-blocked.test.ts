// NOT_BLOCKED_BY_OWNER (Forgejo's ErrBlockedByUser): a user the repository owner blocked may not
// star, watch or fork it (403).
import { test } from 'uvu';
import { NOT_BLOCKED_BY_OWNER } from '../../guards/not-blocked.ts';
import { blockUser } from '../../lib/users/blocks.ts';
import { Mode } from '../../lib/auth/perm.ts';
import type { IUser } from '../../model/user.ts';
import { loadedRepo, permAll, table, type Given } from './state.ts';
import { mkUser, openGuardDb, type GuardDb } from './db.ts';

let db: GuardDb;
let owner: IUser;
let blocked: IUser;
let other: IUser;
test.before(async () => {
  db = await openGuardDb();
  [owner, blocked, other] = [await mkUser(db), await mkUser(db), await mkUser(db)];
  await blockUser(db.em(), owner, blocked);
});
test.after(async () => {
  await db.close();
});

const as = (who: () => IUser | null) => (): Given => ({ em: db.em(), doer: who(), repo: loadedRepo(permAll(Mode.read), { owner }) });

table(NOT_BLOCKED_BY_OWNER, [
  { name: 'a user the owner blocked', given: as(() => blocked), want: { status: 403, message: 'user is blocked by the repository owner' } },
  { name: 'someone else', given: as(() => other), want: null },
  { name: 'the owner', given: as(() => owner), want: null },
]);

test.run();
