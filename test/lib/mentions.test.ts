// Forgejo's mention pattern (modules/references FindAllMentionsMarkdown) on plain strings: where a
// mention may start and end, and that code is not searched.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findMentions } from '../../lib/issues/mentions.ts';

const cases: [string, string[]][] = [
  ['@alice', ['alice']],
  ['hi @alice and @bob.', ['alice', 'bob']],
  ['@alice @bob', ['alice', 'bob']],
  ['(@alice) [@bob]', ['alice', 'bob']],
  ["@alice's idea", ['alice']],
  ['@alice, @bob; @carol: @dave? @eve!', ['alice', 'bob', 'carol', 'dave', 'eve']],
  ['ask @org/team now', ['org/team']],
  ['@first.last here', ['first.last']],
  ['mail bob@example.com', []],
  ['a@b', []],
  ['@alice.', ['alice']],
  ['@alice.x.', ['alice.x']],
  ['line one\n@alice on two', ['alice']],
  ['`@alice` in a code span', []],
  ['```\n@alice in a block\n```\n@bob after', ['bob']],
  ['    @alice indented code', []],
  ['**@alice** bold: emphasis is stripped, the text counts', ['alice']],
  ['see [@alice](https://example.com) link text', ['alice']],
  ['@alice@bob', []],
  ['', []],
];

test('findMentions follows Forgejo: start, whitespace, ( or [ before; whitespace, quote, ) ] or punctuation after; not in code', () => {
  for (const [text, want] of cases) assert.equal(findMentions(text), want, JSON.stringify(text));
});

test.run();
