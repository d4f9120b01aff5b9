// The chat-service converters on fixed payloads (Forgejo's services/webhook/*_test.go cases): texts,
// escaping, cuts and the Go conventions the bodies follow.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { discordConvertor } from '../../lib/webhooks/payloads/discord.ts';
import { goJson, pathEscape, queryEscape, refUrl, shortRef } from '../../lib/webhooks/payloads/format.ts';
import { msteamsConvertor } from '../../lib/webhooks/payloads/msteams.ts';
import { slackConvertor } from '../../lib/webhooks/payloads/slack.ts';
import { telegramConvertor } from '../../lib/webhooks/payloads/telegram.ts';
import type { PCommit, PushPayload } from '../../lib/webhooks/payloads/types.ts';

const APP = 'http://localhost:3000/';
const repo = {
  full_name: 'test/repo',
  html_url: 'http://localhost:3000/test/repo',
  clone_url: 'http://localhost:3000/test/repo.git',
  ssh_url: 'git@localhost:test/repo.git',
  private: false,
};
const user = {
  login: 'user1',
  full_name: 'User One',
  avatar_url: 'http://localhost:3000/avatars/1',
  html_url: 'http://localhost:3000/user1',
};
const commit = (n: number, message = `commit message ${n}`): PCommit => ({
  id: `${n}`.repeat(40).slice(0, 40),
  message,
  url: `${repo.html_url}/commit/${n}`,
  author: { name: 'user1' },
});
const push = (commits: PCommit[]): PushPayload => ({
  ref: 'refs/heads/test',
  compare_url: `${repo.html_url}/compare/a...b`,
  commits,
  total_commits: commits.length,
  head_commit: commits[0] ?? null,
  repository: repo,
  pusher: user,
  sender: user,
});

test('Go conventions: JSON escaping, path and query escaping, ref names and pages', () => {
  assert.is(goJson({ t: '<a href="x">&</a>' }), '{\n  "t": "\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c/a\\u003e"\n}');
  assert.is(pathEscape('a b/c?d@e:f+g$h'), 'a%20b%2Fc%3Fd@e:f+g$h');
  assert.is(pathEscape("it's (ok)*!"), 'it%27s%20%28ok%29%2A%21');
  assert.is(queryEscape('http://x/a b?c=d&e'), 'http%3A%2F%2Fx%2Fa+b%3Fc%3Dd%26e');
  assert.is(shortRef('refs/heads/feature/x'), 'feature/x');
  assert.is(shortRef('refs/tags/v1.0'), 'v1.0');
  assert.is(refUrl(repo.html_url, 'refs/heads/a b'), `${repo.html_url}/src/branch/a%20b`);
  assert.is(refUrl(repo.html_url, 'refs/tags/v1'), `${repo.html_url}/src/tag/v1`);
  assert.is(
    refUrl(repo.html_url, '2020558fe2e34debb818a514715839cabd25e778'),
    `${repo.html_url}/src/commit/2020558fe2e34debb818a514715839cabd25e778`,
  );
});

test('slack push: commit count linked to the compare page, one line per commit with the first message line', async () => {
  const p = await slackConvertor(APP, { channel: '#test', username: 'bot', icon_url: '', color: 'good' }).push(
    push([commit(1, 'first line\nsecond <line>'), commit(2)]),
  );
  assert.is(
    p.text,
    `[test/repo:<${repo.html_url}/src/branch/test|test>] <${repo.html_url}/compare/a...b|2 new commits> pushed by \`user1\``,
  );
  assert.is(
    p.attachments?.[0].text,
    `<${repo.html_url}/commit/1|1111111>: first line - \`user1\`\n<${repo.html_url}/commit/2|2222222>: commit message 2 - \`user1\``,
  );
});

test('discord push: markdown in commit messages is escaped and cut at 50 characters', async () => {
  const long = 'fix: handle *every* [case] in 1. the parser, which was wrong for a very long time';
  const p = await discordConvertor(APP, { username: 'bot', icon_url: '' }).push(push([commit(3, long)]));
  const line = p.embeds[0].description;
  // Go's escapes run in order, so the replacer escapes the closing `*` of `*every*` a second time.
  assert.is(line, `[\`3333333\`](${repo.html_url}/commit/3) fix: handle \\*every\\\\* \\[case\\] in 1\\. the pars... \\- user1`);
  assert.is(p.embeds[0].url, `${repo.html_url}/commit/3`);
  assert.is('avatar_url' in p, false, 'omitted when empty');
});

test('msteams push: five commits shown, the rest behind a toggle', async () => {
  const p = await msteamsConvertor(APP).push(push([1, 2, 3, 4, 5, 6, 7].map((n) => commit(n))));
  const box = p.body[2] as unknown as { items: { id?: string; items?: unknown[] }[] };
  assert.is(box.items.length, 8);
  assert.is(box.items[5].id, 'showMore');
  assert.is((box.items[6].items ?? []).length, 2);
  assert.is(box.items[7].id, 'showLess');
  assert.is(
    (p.body[1] as unknown as { items: { text: string }[] }).items[0].text,
    '[test] 7 new commits by [User One (@user1)](http://localhost:3000/user1)',
  );
});

test('telegram: an unknown repository action is an empty message, as Go zero values', async () => {
  assert.equal(await telegramConvertor(APP).repository({ action: 'renamed', repository: repo, sender: user }), {
    text: '',
    parse_mode: '',
    disable_web_page_preview: false,
  });
  const created = await telegramConvertor(APP).repository({ action: 'created', repository: repo, sender: user });
  assert.is(created.text, `[<a href="${repo.html_url}">test/repo</a>] Repository created`);
});

test.run();
