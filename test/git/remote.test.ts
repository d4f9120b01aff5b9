// Every git command that talks to a remote runs through git/remote.ts, which refuses
// HTTP redirects (test/handlers/remote-redirects.test.ts shows it on real servers). This keeps a new
// call site from spawning `git fetch` or `git push` past that module.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const REMOTE_COMMAND = /\[\s*'(fetch|push|ls-remote|clone|fetch-pack|send-pack|archive', '--remote)'\s*,/;

function sources(): string[] {
  const top = fs.readdirSync(root).filter((f) => f.endsWith('.ts'));
  const dirs = ['git', 'lib', 'handlers', 'guards', 'model'].flatMap((d) =>
    fs
      .readdirSync(path.join(root, d), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(d, f)),
  );
  return [...top, ...dirs];
}

test('only git/remote.ts runs git commands that reach a remote', () => {
  const offenders = sources()
    .filter((f) => f !== path.join('git', 'remote.ts'))
    .flatMap((f) =>
      fs
        .readFileSync(path.join(root, f), 'utf8')
        .split('\n')
        .map((line, i) => ({ f, i, line })),
    )
    .filter(({ line }) => REMOTE_COMMAND.test(line))
    .map(({ f, i }) => `${f}:${i + 1}`);
  assert.equal(offenders, []);
});

test('the scan finds the commands git/remote.ts runs', () => {
  const own = fs
    .readFileSync(path.join(root, 'git', 'remote.ts'), 'utf8')
    .split('\n')
    .filter((l) => REMOTE_COMMAND.test(l));
  assert.ok(own.length >= 4, 'fetch, ls-remote and push are spelled the way the scan looks for');
});

test.run();
