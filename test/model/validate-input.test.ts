// Request-body binding refuses, with `[Field]: Rule`, what cannot be stored
// as sent (NUL, lone surrogates), numbers beyond what the columns and a double hold, strings beyond
// their columns, and nesting no body needs, without recursing on the attacker's depth.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BodySchemas, compileBody } from '../../model/schemas/index.ts';
import { MAX_DEPTH } from '../../model/schemas/validate.ts';
import { isStorableText } from '../../model/schemas/storable.ts';

const msg = (schema: Parameters<typeof compileBody>[0], body: unknown): string | undefined => {
  const r = compileBody(schema)(body);
  return r.ok ? undefined : r.message;
};
const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

test('nesting: 100,000 levels are a 422 naming the field, not a stack overflow', () => {
  assert.is(msg(BodySchemas.CreateIssueOption, { title: 't', labels: nested(100_000) }), '[Labels]: Invalid');
  assert.is(msg(BodySchemas.CreateIssueOption, nested(100_000)), '[]: Invalid');
  assert.is(msg(BodySchemas.Activity, JSON.parse(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`)), '[a]: Invalid');
  // Up to the bound, a value is only judged by its schema.
  assert.is(msg(BodySchemas.Activity, JSON.parse(`${'{"a":'.repeat(MAX_DEPTH - 1)}1${'}'.repeat(MAX_DEPTH - 1)}`)), undefined);
});

test('strings: NUL and lone surrogates, in values and keys, are [Field]: Invalid', () => {
  assert.is(msg(BodySchemas.CreateIssueOption, { title: 'a\u0000b' }), '[Title]: Invalid');
  assert.is(msg(BodySchemas.CreateTagOption, { tag_name: '\ud800' }), '[TagName]: Invalid');
  assert.is(msg(BodySchemas.CreateTagOption, { tag_name: 'v1', message: 'x\udc00' }), '[Message]: Invalid');
  assert.is(msg(BodySchemas.CreateIssueOption, { title: 't', assignees: ['ok', 'b\u0000'] }), '[Assignees]: Invalid');
  assert.is(msg(BodySchemas.CreateHookOption, { type: 'forgejo', config: { 'u\u0000rl': 'x' } }), '[Config]: Invalid');
  assert.is(msg(BodySchemas.CreateIssueOption, { title: 't', 'x\u0000': 1 }), '[]: Invalid');
  // A surrogate pair is a character like any other, and nulls are still dropped first.
  assert.is(msg(BodySchemas.CreateIssueOption, { title: '😀', body: null }), undefined);
  assert.equal(compileBody(BodySchemas.CreateIssueOption)({ title: 't', body: null, labels: [1] }), {
    ok: true,
    value: { title: 't', labels: [1] },
  });
});

test('isStorableText refuses NUL and exactly the strings with a lone surrogate, wherever it stands', () => {
  const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
  const parts = ['', 'a', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00', '\u0000', 'é', '\uffff'];
  for (const a of parts)
    for (const b of parts)
      for (const c of parts) {
        const s = a + b + c;
        assert.is(isStorableText(s), !s.includes('\u0000') && !lone.test(s), JSON.stringify(s));
      }
});

test('integers: beyond int64, beyond 2^53 and beyond integer columns are [Field]: Range', () => {
  const C = BodySchemas.CreateIssueOption;
  assert.is(msg(C, JSON.parse('{"title":"t","milestone":9223372036854775808}')), '[Milestone]: Range');
  assert.is(msg(C, JSON.parse('{"title":"t","milestone":-9223372036854775809}')), '[Milestone]: Range');
  assert.is(msg(C, { title: 't', milestone: 2 ** 31 }), '[Milestone]: Range');
  assert.is(msg(C, { title: 't', labels: [1, 2 ** 40] }), '[Labels]: Range');
  assert.is(msg(BodySchemas.EditIssueOption, JSON.parse('{"milestone":-9223372036854775809}')), '[Milestone]: Range');
  assert.is(
    msg(BodySchemas.CreateBranchProtectionOption, JSON.parse('{"rule_name":"main","required_approvals":-9223372036854775809}')),
    '[RequiredApprovals]: Range',
  );
  assert.is(msg(BodySchemas.EditBranchProtectionOption, { required_approvals: 2 ** 31 }), '[RequiredApprovals]: Range');
  assert.is(
    msg(BodySchemas.CreateQuotaRuleOptions, JSON.parse('{"name":"r","limit":9223372036854775807,"subjects":["size:all"]}')),
    '[Limit]: Range',
  );
  assert.is(msg(BodySchemas.EditUserOption, { login_name: 'x', source_id: 0, max_repo_creation: 2 ** 40 }), '[MaxRepoCreation]: Range');
  assert.is(msg(BodySchemas.CreateIssueOption, JSON.parse('{"title":"t","milestone":1e400}')), '[Milestone]: Range');
  // The edges that fit are fine.
  assert.is(msg(C, { title: 't', milestone: 2 ** 31 - 1 }), undefined);
  assert.is(msg(BodySchemas.CreateQuotaRuleOptions, { name: 'r', limit: Number.MAX_SAFE_INTEGER, subjects: ['size:all'] }), undefined);
});

test('strings beyond their column are [Field]: MaxSize', () => {
  assert.is(msg(BodySchemas.UserSettingsOptions, { language: 'A'.repeat(300) }), '[Language]: MaxSize');
  assert.is(msg(BodySchemas.UserSettingsOptions, { language: 'A'.repeat(17) }), '[Language]: MaxSize');
  assert.is(msg(BodySchemas.UserSettingsOptions, { language: 'en-US' }), undefined);
  assert.is(msg(BodySchemas.CreateIssueOption, { title: 't'.repeat(256) }), '[Title]: MaxSize');
  assert.is(msg(BodySchemas.CreateReleaseOption, { tag_name: 'v'.repeat(256) }), '[TagName]: MaxSize');
  assert.is(msg(BodySchemas.CreateEmailOption, { emails: [`${'a'.repeat(250)}@example.com`] }), '[Emails]: MaxSize');
});

/** Every integer a request body may carry is bounded, so no value reaches a column that cannot hold it. */
test('every integer property of every request body has a minimum and a maximum', () => {
  const unbounded: string[] = [];
  const walk = (s: unknown, at: string, depth: number): void => {
    if (!s || typeof s !== 'object' || depth > 8) return;
    const n = s as Record<string, any>;
    if (n.type === 'integer' && (typeof n.minimum !== 'number' || typeof n.maximum !== 'number')) unbounded.push(at);
    for (const [k, v] of Object.entries(n.properties ?? {})) walk(v, `${at}.${k}`, depth + 1);
    if (n.items) walk(n.items, `${at}[]`, depth + 1);
    for (const v of n.anyOf ?? []) walk(v, at, depth + 1);
    if (n.additionalProperties && typeof n.additionalProperties === 'object') walk(n.additionalProperties, `${at}{}`, depth + 1);
  };
  for (const [name, schema] of Object.entries(BodySchemas)) walk(schema, name, 0);
  assert.equal(unbounded, []);
});

test.run();
