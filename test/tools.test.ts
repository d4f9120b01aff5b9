// The system tools the tests drive (test/helpers/tools.ts): a missing one fails its test at once with
// its name and the command that installs it, `npm run test:tools --check` reports it, and every test
// file that runs a tool asks for it first.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MissingToolError, TOOLS, checkTools, missingPackages, type ToolName } from './helpers/tools.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-no-tools-'));
test.after(() => {
  fs.rmSync(empty, { recursive: true, force: true });
});
/** An environment where no program is found and no chromium exists. */
const bare = { PATH: empty, CHROMIUM_PATH: path.join(empty, 'chromium') };

test('a missing tool: the error names it and the command that installs it', () => {
  assert.throws(
    () => checkTools(['skopeo'], bare),
    (e: Error) =>
      e instanceof MissingToolError &&
      e.message === 'skopeo is not installed, and this test drives it: run `npm run test:tools` (it runs `apt-get install skopeo`)',
  );
  assert.throws(
    () => checkTools(['ssh', 'ssh-keygen'], bare),
    (e: Error) =>
      e.message.startsWith(
        'ssh, ssh-keygen are not installed, and this test drives them: run `npm run test:tools` (it runs `apt-get install openssh-client`)',
      ),
  );
  assert.throws(() => checkTools(['chromium'], bare), /chromium is not installed.*apt-get install chromium/);
  assert.throws(() => checkTools(['pip'], bare), /pip is not installed.*apt-get install python3-pip/);
  assert.ok(missingPackages(['mvn'], bare).includes('maven'));
  assert.equal(missingPackages(['ssh', 'ssh-keygen'], bare), ['openssh-client'], 'a package is named once');
});

test('installed tools pass (this machine has them all: `npm run test:tools` ran first)', () => {
  checkTools(Object.keys(TOOLS) as ToolName[], process.env);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'test', 'tools.ts'), '--check'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.is(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /system tools the tests drive: all installed/);
  const none = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'test', 'tools.ts'), '--check'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${empty}${path.delimiter}${path.dirname(process.execPath)}`, CHROMIUM_PATH: bare.CHROMIUM_PATH },
  });
  assert.is(none.status, 1, none.stdout + none.stderr);
  assert.match(none.stdout, /missing Debian packages .*openssh-client.*skopeo/);
});

/** The tools a source file runs: programs it spawns, git's `lfs` command, the ssh helpers, playwright. */
function toolsDriven(text: string): ToolName[] {
  const out = new Set<ToolName>();
  const programs: Record<string, ToolName> = {
    ssh: 'ssh',
    'ssh-keygen': 'ssh-keygen',
    skopeo: 'skopeo',
    cargo: 'cargo',
    mvn: 'mvn',
    python3: 'pip',
    pg_dump: 'pg_dump',
    psql: 'pg_dump',
  };
  for (const m of text.matchAll(/\b(?:run|execFile|execFileSync|spawn|spawnSync)\(\s*'([\w-]+)'/g))
    if (programs[m[1]!]) out.add(programs[m[1]!]!);
  if (/\[\s*'lfs',/.test(text)) out.add('git-lfs');
  if (/\b(?:makeKeyPair|gitOverSsh|gitSshCommand|sshOptions)\(/.test(text)) {
    out.add('ssh');
    out.add('ssh-keygen');
  }
  if (/from 'playwright-core'/.test(text)) out.add('chromium');
  return [...out];
}

test('every test (and helper) that runs a tool calls requireTools with it', () => {
  const files = fs
    .readdirSync(path.join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !['tools.ts', 'tools.test.ts', path.join('helpers', 'tools.ts')].includes(f));
  const missing: string[] = [];
  let driving = 0;
  for (const f of files) {
    const text = fs.readFileSync(path.join(root, 'test', f), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const driven = toolsDriven(text);
    if (driven.length) driving++;
    const asked = new Set(
      [...text.matchAll(/requireTools\(([^)]*)\)/g)].flatMap((m) => [...m[1]!.matchAll(/'([\w-]+)'/g)].map((x) => x[1]!)),
    );
    for (const tool of driven) if (!asked.has(tool)) missing.push(`${f}: ${tool}`);
  }
  assert.equal(missing, []);
  assert.ok(driving >= 7, `the scan finds the tests that drive tools (${driving})`);
  // The scan itself sees each kind of use.
  assert.equal(toolsDriven(`await run('skopeo', ['copy'])`), ['skopeo']);
  assert.equal(toolsDriven(`mustGit(['lfs', 'track'])`), ['git-lfs']);
  assert.equal(toolsDriven(`import { chromium } from 'playwright-core';`), ['chromium']);
  assert.equal(toolsDriven(`const k = await makeKeyPair(dir, 'a');`), ['ssh', 'ssh-keygen']);
});

test.run();
