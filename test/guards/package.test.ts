// PACKAGE, the package loader (spec, Packages: "user assignment; package assignment; PKGREAD;
// public-only"): `{type}/{name}/{version}` under the package owner — type exact, name and version
// case-insensitive — or 404; routes that name no version (owner listing, link, unlink) pass through
// so their TOK/PKGWRITE guards answer first. Rows are real packages written through lib/packages.ts.
import { Readable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE } from '../../guards/package.ts';
import { loadConfig } from '../../config.ts';
import { addPackageFile, spool } from '../../lib/packages/packages.ts';
import type { IUser } from '../../model/user.ts';
import type { RequestState } from '../../guards/types.ts';
import { table, type Given } from './state.ts';
import { mkUser, openGuardDb, type GuardDb } from './db.ts';

const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

let db: GuardDb;
let owner: IUser;
let other: IUser;

async function publish(u: IUser, name: string, version: string): Promise<void> {
  const cfg = loadConfig({}, db.config);
  const upload = await spool(cfg, Readable.from([Buffer.from(`${name}@${version}`)]));
  await addPackageFile(db.em(), cfg, { ownerId: u.id, type: 'generic', name, version, creator: u, filename: 'a.bin', upload });
}

test.before(async () => {
  db = await openGuardDb();
  owner = await mkUser(db);
  other = await mkUser(db);
  await publish(owner, 'Left-Pad', '1.0.0-RC1');
  await publish(other, 'only-other', '1.0.0');
});
test.after(async () => {
  await db.close();
});

const at =
  (params: Record<string, string>, who = () => owner) =>
  (): Given => ({ em: db.em(), doer: who(), contextUser: who(), params });
const provides = (name: string, version: string) => (s: RequestState) => {
  assert.ok(s.package, 'no package provided');
  assert.is(s.package.pkg.name, name);
  assert.is(s.package.pkg.ownerId, owner.id);
  assert.is(s.package.version.version, version);
  assert.is(s.package.version.packageId, s.package.pkg.id);
};

table(PACKAGE, [
  {
    name: 'a stored version is provided',
    given: at({ type: 'generic', name: 'Left-Pad', version: '1.0.0-RC1' }),
    want: null,
    then: provides('Left-Pad', '1.0.0-RC1'),
  },
  {
    name: 'name and version compare case-insensitively',
    given: at({ type: 'generic', name: 'left-pad', version: '1.0.0-rc1' }),
    want: null,
    then: provides('Left-Pad', '1.0.0-RC1'),
  },
  { name: 'unknown version', given: at({ type: 'generic', name: 'Left-Pad', version: '2.0.0' }), want: missing },
  { name: 'unknown name', given: at({ type: 'generic', name: 'right-pad', version: '1.0.0-RC1' }), want: missing },
  { name: 'another type of the same name', given: at({ type: 'npm', name: 'Left-Pad', version: '1.0.0-RC1' }), want: missing },
  { name: "another owner's package", given: at({ type: 'generic', name: 'only-other', version: '1.0.0' }), want: missing },
  {
    name: 'the same package under its own owner',
    given: at({ type: 'generic', name: 'only-other', version: '1.0.0' }, () => other),
    want: null,
  },
  {
    name: 'type and name without version (link, unlink) pass through',
    given: at({ type: 'generic', name: 'nothing-here' }),
    want: null,
    then: (s) => assert.is(s.package, undefined),
  },
  { name: 'no package named (owner listing) passes through', given: at({}), want: null, then: (s) => assert.is(s.package, undefined) },
]);

test('PACKAGE: needs the owner, provides the package', () => {
  assert.equal([...PACKAGE.needs], ['user']);
  assert.equal([...PACKAGE.provides], ['package']);
});

test.run();
