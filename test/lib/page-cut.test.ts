// A list's first page names its limit in the statement's text (lib/repos/search.ts pageCut):
// with the limit as a parameter PostgreSQL's generic plan assumes a tenth of the table and loses to a
// custom plan on a large table, so the named statement was planned again on every request. Later
// pages keep both as parameters, so that paging through a list does not make a statement text per page.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pageCut } from '../../lib/repos/search.ts';

test('the first page: the limit in the text, no parameters', () => {
  assert.equal(pageCut({ page: 1, limit: 50, offset: 0 }), { sql: ' limit 50', params: [] });
  assert.equal(pageCut({ page: 1, limit: 1, offset: 0 }), { sql: ' limit 1', params: [] });
});

test('later pages: limit and offset as parameters, one text for all of them', () => {
  const second = pageCut({ page: 2, limit: 50, offset: 50 });
  const far = pageCut({ page: 900, limit: 10, offset: 8990 });
  assert.equal(second, { sql: ' limit ? offset ?', params: [50, 50] });
  assert.is(far.sql, second.sql);
  assert.equal(far.params, [10, 8990]);
});

test('no page: no cut', () => {
  assert.equal(pageCut(null), { sql: '', params: [] });
});

test.run();
