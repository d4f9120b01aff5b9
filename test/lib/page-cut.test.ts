// A list's first page names its limit in the statement's text (lib/repos/search.ts pageCut):
// with the limit as a parameter PostgreSQL's generic plan assumes a tenth of the table and loses to a
// custom plan on a large table, so the named statement was planned again on every request. Later
// pages keep both as parameters, so that paging through a list does not make a statement text per page.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pageCut } from '../../lib/repos/search.ts';
import type { Sql } from '../../model/sql.ts';

test('the first page: the limit in the text, no parameters', () => {
  const text = (s: Sql) => ({ text: s.text, values: [...s.values] });
  assert.equal(text(pageCut({ page: 1, limit: 50, offset: 0 })), { text: ' limit 50', values: [] });
  assert.equal(text(pageCut({ page: 1, limit: 1, offset: 0 })), { text: ' limit 1', values: [] });
});

test('later pages: limit and offset as parameters, one text for all of them', () => {
  const second = pageCut({ page: 2, limit: 50, offset: 50 });
  const far = pageCut({ page: 900, limit: 10, offset: 8990 });
  assert.is(second.text, ' limit ? offset ?');
  assert.equal([...second.values], [50, 50]);
  assert.is(far.text, second.text);
  assert.equal([...far.values], [10, 8990]);
});

test('no page: no cut', () => {
  assert.is(pageCut(null).text, '');
  assert.equal([...pageCut(null).values], []);
});

test.run();
