// Settings: Forgejo's section/key names through CAIRN__SECTION__KEY, defaults, and bad values.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig } from '../config.ts';

test('defaults follow the issue and Forgejo', () => {
  const c = loadConfig({});
  assert.is(c.SERVER.HTTP_PORT, 3000);
  assert.is(c.API.ENABLE_SWAGGER, true);
  assert.is(c.FEDERATION.ENABLED, false);
  assert.is(c.SERVICE.ENABLE_USER_HEATMAP, true);
  assert.is(c.QUOTA.ENABLED, false);
  assert.is(c.SECURITY.DISABLE_WEBHOOKS, false);
  assert.is(c.SECURITY.DISABLE_GIT_HOOKS, true);
  assert.is(c.ATTACHMENT.ENABLED, true);
  assert.is(c.ACTIONS.ENABLED, true);
  assert.is(c.REPOSITORY.ENABLE_FLAGS, false);
  assert.is(c.SERVICE_EXPLORE.DISABLE_USERS_PAGE, false);
  assert.is(c.appUrl, 'http://localhost:3000/');
});

test('environment variables set settings; a dotted section becomes `_`', () => {
  const c = loadConfig({
    CAIRN__SERVICE_EXPLORE__REQUIRE_SIGNIN_VIEW: 'true',
    CAIRN__SERVER__ROOT_URL: 'https://git.example.com/sub',
    CAIRN__SERVER__HTTP_PORT: '8080',
  });
  assert.is(c.SERVICE_EXPLORE.REQUIRE_SIGNIN_VIEW, true);
  assert.is(c.appUrl, 'https://git.example.com/sub/');
  assert.is(c.appSubUrl, '/sub');
  assert.is(c.SERVER.HTTP_PORT, 8080);
});

test('a bad value stops the start with a message naming the variable', () => {
  assert.throws(
    () => loadConfig({ CAIRN__QUOTA__ENABLED: 'maybe' }),
    (e: Error) => e instanceof ConfigError && e.message.includes('CAIRN__QUOTA__ENABLED'),
  );
  assert.throws(() => loadConfig({ CAIRN__SERVER__HTTP_PORT: 'eighty' }), /CAIRN__SERVER__HTTP_PORT/);
  assert.throws(() => loadConfig({ CAIRN__SERVER__HTTP_PORT: '70000' }), /CAIRN__SERVER__HTTP_PORT/);
  assert.throws(() => loadConfig({ CAIRN__SERVER__ROOT_URL: 'ftp://x' }), /CAIRN__SERVER__ROOT_URL/);
});

test('unknown CAIRN__ names are reported, not fatal', () => {
  assert.equal(loadConfig({ CAIRN__NOPE__X: '1' }).unknown, ['CAIRN__NOPE__X']);
});

test.run();
