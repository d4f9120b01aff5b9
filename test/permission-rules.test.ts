// Every permission rule is a named step of a route's chain (README, "Adding a route":
// "a rule that depends on data and changes the status is a named guard in guards/, never an if in the
// handler"). This test reads the sources of handlers/, lib/ and the git transport and fails on a 403
// built outside guards/, or on a call of a helper that answers 404 for what the caller may not see.
//
// ALLOWED lists the places not moved yet, each with why. It can only shrink: an entry that no longer
// matches a line fails too, so whoever moves a rule into a guard deletes its entry.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** What a permission decision looks like in code. */
const PATTERNS: readonly RegExp[] = [
  /\bforbidden\(/, // lib/http/errors.ts's 403 helper
  /HttpError\(\s*403\b/,
  /\bstatus:\s*403\b/,
  /\bjson\(\s*403\b/,
  /\bloadIssue\(/, // the readable-issue-or-404 helper, gone: the ISSUE loader's job
  // 404s that hide what the caller may not see:
  /\b(perm\.can\w+|canRead\w*|hasAnyAccess)\(.*\bnotFound\(/, // "may not read it, so it is not found"
  /\bcanSee(Owner|User)\(/, // who may see a user or organization (USER_VISIBLE, USER_ORG, NEW_OWNER)
  /\bloadOtherRepo\(/, // another repository as the caller reaches it, else absent (DEPENDENCY)
];

interface Allowed {
  file: string;
  line: string;
  why: string;
}

/** Places that still decide a 403 (or a permission 404) themselves. Keep it shrinking. */
const ALLOWED: readonly Allowed[] = [
  // The helpers' own definitions.
  { file: 'lib/http/errors.ts', line: 'export const forbidden = ', why: 'the helper itself; goes when the list below is empty' },
  {
    file: 'lib/http/errors.ts',
    line: 'export const conflict403 = ',
    why: 'the 403 for the state of data, not for who asks (STATE_403 below)',
  },

  // Before any route: authentication and sudo answer before a row's chain runs (README, request steps 1 and 3).
  {
    file: 'lib/auth/auth.ts',
    line: 'This account is prohibited from signing in',
    why: 'account state at authentication, before any chain',
  },
  { file: 'lib/auth/auth.ts', line: 'if (!user.isActive)', why: 'account state at authentication, before any chain' },
  { file: 'lib/auth/auth.ts', line: 'You must change your password.', why: 'account state at authentication, before any chain' },
  { file: 'lib/auth/auth.ts', line: "'Only administrators allowed to sudo.'", why: 'sudo runs before the chain (interpreter step 1)' },
  // Transports outside the route table: no chain to place a step in.
  {
    file: 'git-http.ts',
    line: "'unsupported service (only the smart HTTP protocol is served)'",
    why: 'git smart HTTP is not a table route',
  },
  {
    file: 'git-http.ts',
    line: "'Interacting with repositories by HTTP protocol is not allowed'",
    why: 'git smart HTTP is not a table route',
  },
  {
    file: 'lib/attachments/serve.ts',
    line: 'MSG.missingScope([`read:${category}`])',
    why: 'attachment downloads (/attachments/{uuid}) are not a table route',
  },
  // The definitions of the visibility helpers; their callers are guards.
  { file: 'lib/auth/perm.ts', line: 'export async function canSeeOwner(', why: 'the helper itself' },
  { file: 'lib/issues/tracker.ts', line: 'export async function loadOtherRepo(', why: 'the helper itself' },
  // Not a chain step: the merge already happened (checked and left).
  {
    file: 'handlers/pulls.ts',
    line: 'const mergedBranchKept = ',
    why: 'delete_branch_after_merge refused after the merge, which is committed and stands: no chain step runs after the handler, and the refusal is mostly the state of the branch (default, protected)',
  },
];

/**
 * The 403s Forgejo answers for the state of the data whatever the caller's rights (`conflict403`). Each
 * use is listed, so the helper cannot quietly carry a permission decision.
 */
const STATE_403: readonly Allowed[] = [
  { file: 'handlers/branch-protections.ts', line: "conflict403('Branch protection already exist')", why: 'a rule of that name exists' },
  { file: 'handlers/tag-protections.ts', line: "conflict403('Tag protection already exist')", why: 'a rule of that pattern exists' },
  {
    file: 'handlers/pull-review-requests.ts',
    line: "conflict403('cannot request a re-review on a closed or merged PR')",
    why: 'the pull is closed or merged',
  },
];

function sources(): string[] {
  const files = ['git-http.ts'];
  for (const dir of ['handlers', 'lib']) {
    for (const f of fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })) {
      if (f.endsWith('.ts')) files.push(path.join(dir, f));
    }
  }
  return files.sort();
}

interface Hit {
  file: string;
  n: number;
  text: string;
}

function hits(): Hit[] {
  const out: Hit[] = [];
  for (const file of sources()) {
    const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
    lines.forEach((text, i) => {
      const code = text.replace(/\/\/.*$/, '');
      if (PATTERNS.some((p) => p.test(code))) out.push({ file, n: i + 1, text: text.trim() });
    });
  }
  return out;
}

test('no 403 and no permission 404 is decided outside guards/, but for the listed places', () => {
  const unlisted = hits().filter((h) => !ALLOWED.some((a) => a.file === h.file && h.text.includes(a.line)));
  assert.equal(
    unlisted.map((h) => `${h.file}:${h.n}: ${h.text}`),
    [],
    'a permission rule outside guards/: make it a named step of the chain (README, "Adding a route")',
  );
});

test('every listed place still exists, once (the list only shrinks)', () => {
  const all = hits();
  const stale = ALLOWED.filter((a) => all.filter((h) => h.file === a.file && h.text.includes(a.line)).length !== 1);
  assert.equal(
    stale.map((a) => `${a.file}: ${a.line}`),
    [],
    'remove the entries of rules that moved into guards/ (or make an entry match one line)',
  );
});

test('conflict403 is used only for the listed state refusals', () => {
  const uses: Hit[] = [];
  for (const file of sources()) {
    fs.readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        if (/\bconflict403\(/.test(text.replace(/\/\/.*$/, '')) && !text.includes('export const conflict403'))
          uses.push({ file, n: i + 1, text: text.trim() });
      });
  }
  const unlisted = uses.filter((h) => !STATE_403.some((a) => a.file === h.file && h.text.includes(a.line)));
  assert.equal(
    unlisted.map((h) => `${h.file}:${h.n}: ${h.text}`),
    [],
    'a 403 that depends on who asks belongs in guards/',
  );
  assert.is(uses.length, STATE_403.length, 'every listed state refusal still exists, once');
});

/**
 * "Is site admin" has one implementation (lib/auth/auth-types.ts: siteAdminOf for the caller, userIsSiteAdmin
 * for a user acting as themself); everything else asks it. Reading the account flag is allowed only
 * where the flag itself is the subject: shown, created, edited.
 */
const ADMIN_FLAG: readonly Allowed[] = [
  { file: 'lib/auth/auth-types.ts', line: 'return !!doer?.isAdmin', why: 'the rule itself' },
  { file: 'lib/users/api/user.ts', line: 'is_admin: privileged ? u.isAdmin', why: 'the flag shown in api.User' },
  {
    file: 'handlers/admin-users.ts',
    line: 'user.isAdmin && (await c.em.count(User, { isAdmin: true',
    why: 'the last site admin may not lose the flag',
  },
  { file: 'handlers/admin-users.ts', line: 'user.isAdmin = b.admin', why: 'editing the flag' },
  { file: 'lib/users/accounts.ts', line: 'isAdmin: input.isAdmin ?? false', why: 'creating an account with the flag' },
];

test('"is site admin" is decided in one place', () => {
  const files = [
    ...sources(),
    ...fs.readdirSync(path.join(root, 'guards')).map((f) => path.join('guards', f)),
    'git-lfs.ts',
    'git-ssh.ts',
    'interpreter.ts',
  ];
  const reads: Hit[] = [];
  for (const file of files.filter((f) => f.endsWith('.ts'))) {
    fs.readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        if (/\.isAdmin\b(?!\s*\()/.test(text.replace(/\/\/.*$/, ''))) reads.push({ file, n: i + 1, text: text.trim() });
      });
  }
  const unlisted = reads.filter((h) => !ADMIN_FLAG.some((a) => a.file === h.file && h.text.includes(a.line)));
  assert.equal(
    unlisted.map((h) => `${h.file}:${h.n}: ${h.text}`),
    [],
    'ask siteAdminOf / isSiteAdmin (the caller) or userIsSiteAdmin (a user as themself)',
  );
});

test('the scan sees the shapes it looks for', () => {
  const sample = [
    "throw forbidden('x')",
    'new HttpError(403, m)',
    'return { status: 403, message }',
    'json(403, {})',
    'await loadIssue(c)',
    "if (!perm.canRead('code')) throw notFound()",
    'if (!canReadIssue(c, i)) throw notFound()',
    'await canSeeOwner(em, o, d, a)',
    'await loadOtherRepo(c, o, n)',
  ];
  for (const s of sample)
    assert.ok(
      PATTERNS.some((p) => p.test(s)),
      s,
    );
  assert.not.ok(
    PATTERNS.some((p) => p.test('deny(403, MSG.repoWrite)')),
    'guards answer with deny()',
  );
  assert.not.ok(
    PATTERNS.some((p) => p.test('if (!pull.hasMerged) throw notFound()')),
    'a plain "does not exist" 404 may stay',
  );
});

test.run();
