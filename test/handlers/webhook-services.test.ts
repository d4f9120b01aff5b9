// Chat-service and integration hooks (Forgejo's services/webhook/<type>.go): each type's body, URL,
// method and headers as a local receiver gets them. The hook's URL is what Forgejo's API stores and
// delivers to for every type (telegram's and packagist's fixed hosts are only how Forgejo's web form
// fills it in), so the tests point it at the receiver.
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HookTask } from '../../model/webhook.ts';
import { deliverTick } from '../../lib/webhooks/deliver.ts';
import { SecretBox } from '../../lib/auth/secretbox.ts';
import { repoPathFor, type Services } from '../../lib/http/services.ts';
import { secretKey } from '../../server.ts';
import { newRepo, setup, valid, type Env } from './repo-setup.ts';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let env: Env;
let services: Services;
let receiver: http.Server;
let base: string;
let received: Received[] = [];

test.before(async () => {
  env = await setup({ WEBHOOK__ALLOWED_HOST_LIST: 'loopback' });
  services = { log: pino({ level: 'silent' }), secrets: new SecretBox(secretKey(env.srv.config)), repoPath: repoPathFor(env.srv.config) };
  receiver = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      body += d;
    });
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
test.after(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await env.close();
});

const root = () => env.db.db.orm.em.fork();
async function deliver(): Promise<Received[]> {
  received = [];
  await deliverTick(env.db.db.orm.em, services, env.srv.config);
  const got = received;
  received = [];
  return got;
}
const json = (r: Received) => JSON.parse(r.body) as Record<string, any>;

/** A repository of alice with one hook of `type` (events issues and push) and nothing queued yet. */
async function hooked(type: string, config: Record<string, string>, extra: Record<string, unknown> = {}) {
  const repo = await newRepo(env, env.alice, { auto_init: true });
  const h = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks`, {
    type,
    config: { content_type: 'json', ...config },
    events: ['issues', 'push', 'issue_comment'],
    active: true,
    ...extra,
  });
  assert.is(h.status, 201, h.text);
  valid('Hook', h.json);
  await deliver();
  return { repo, hook: h.json as { id: number; metadata: Record<string, unknown> | null; url: string } };
}

const BODY = 'it broke <script>alert(1)</script> <b>badly</b>';
async function openIssue(full: string) {
  const r = await env.as(env.bob, 'POST', `/repos/${full}/issues`, { title: 'Broken & bad', body: BODY });
  assert.is(r.status, 201, r.text);
  const got = await deliver();
  assert.is(got.length, 1, JSON.stringify(got.map((g) => g.url)));
  return { issue: r.json as { number: number; html_url: string }, got: got[0] };
}

async function pushFile(full: string, file: string, content: string) {
  const w = await env.as(env.alice, 'POST', `/repos/${full}/contents/${file}`, {
    content: Buffer.from(content).toString('base64'),
    message: `add ${file}\n\nbody text`,
  });
  assert.is(w.status, 201, w.text);
  return w.json.commit.sha as string;
}

/** Forgejo's default headers, signed over the converted body. */
function signedOver(r: Received, event: string, secret: string) {
  assert.is(r.headers['content-type'], 'application/json');
  assert.is(r.headers['x-forgejo-event'], event);
  assert.is(r.headers['x-gitea-event'], event);
  assert.is(r.headers['x-forgejo-signature'], secret ? createHmac('sha256', secret).update(r.body).digest('hex') : '');
}

test('slack: channel, username and icon from config; Slack links, escaped text and an attachment with the body', async () => {
  const { repo, hook } = await hooked('slack', {
    url: `${base}/slack`,
    channel: '#dev',
    username: 'forge',
    icon_url: 'https://example.com/i.png',
    color: 'good',
    secret: 's',
  });
  assert.equal(hook.metadata, { channel: '#dev', username: 'forge', icon_url: 'https://example.com/i.png', color: 'good' });
  const { issue, got } = await openIssue(repo.full_name);
  signedOver(got, 'issues', 's');
  assert.is(got.method, 'POST');
  assert.is(got.url, '/slack');
  const p = json(got);
  assert.is(p.channel, '#dev');
  assert.is(p.username, 'forge');
  assert.is(p.icon_url, 'https://example.com/i.png');
  assert.is(
    p.text,
    `[${repo.full_name}] Issue opened: <${repo.html_url}/issues/${issue.number}|#${issue.number} Broken &amp; bad> by \`${env.bob.name}\``,
  );
  assert.equal(p.attachments, [
    {
      fallback: '',
      color: 'eb6420',
      title: `#${issue.number} Broken &amp; bad`,
      title_link: issue.html_url,
      text: 'it broke &lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;badly&lt;/b&gt;',
    },
  ]);
  // Go's encoder escapes <, > and & in strings.
  assert.match(got.body, '\\u003c');

  const sha = await pushFile(repo.full_name, 'x.md', 'x');
  const [push] = await deliver();
  const q = json(push);
  assert.is(
    q.text,
    `[${repo.full_name}:<${repo.html_url}/src/branch/main|main>] <${repo.html_url}/compare/${json(push).text.match(/compare\/([^|]+)\|/)[1]}|1 new commit> pushed by \`${env.alice.name}\``,
  );
  assert.is(q.attachments[0].text, `<${repo.html_url}/commit/${sha}|${sha.slice(0, 7)}>: add x.md - \`${env.alice.name}\``);
  assert.is(q.attachments[0].color, 'good');
});

test('discord: one embed with title, description, colour and the sender as author', async () => {
  const { repo } = await hooked('discord', { url: `${base}/discord`, username: 'forge', icon_url: 'https://example.com/d.png' });
  const { issue, got } = await openIssue(repo.full_name);
  signedOver(got, 'issues', '');
  const p = json(got);
  assert.is(p.username, 'forge');
  assert.is(p.avatar_url, 'https://example.com/d.png');
  assert.is(p.embeds.length, 1);
  const e = p.embeds[0];
  assert.is(e.title, `[${repo.full_name}] Issue opened: #${issue.number} Broken & bad`);
  assert.is(e.description, BODY);
  assert.is(e.url, issue.html_url);
  assert.is(e.color, 0xeb6420);
  assert.is(e.author.name, env.bob.name);
  assert.is(e.author.url, `${env.srv.config.appUrl}${env.bob.name}`);

  const sha = await pushFile(repo.full_name, 'y.md', 'y');
  const d = json((await deliver())[0]).embeds[0];
  assert.is(d.title, `[${repo.full_name}:main] 1 new commit`);
  assert.is(d.url, `${repo.html_url}/commit/${sha}`);
  assert.match(d.description, `[\`${sha.slice(0, 7)}\`](${repo.html_url}/commit/${sha}) add y.md`);
});

test('dingtalk, feishu and wechatwork: their text formats of a new issue', async () => {
  const ding = await hooked('dingtalk', { url: `${base}/ding` });
  const a = await openIssue(ding.repo.full_name);
  const dp = json(a.got);
  assert.is(dp.msgtype, 'actionCard');
  assert.is(dp.actionCard.title, `#${a.issue.number} Broken & bad`);
  assert.is(dp.actionCard.text, `[${ding.repo.full_name}] Issue opened: #${a.issue.number} Broken & bad by ${env.bob.name}\r\n\r\n${BODY}`);
  assert.is(dp.actionCard.singleTitle, 'view issue');
  assert.is(dp.actionCard.singleURL, `dingtalk://dingtalkclient/page/link?pc_slide=false&url=${encodeURIComponent(a.issue.html_url)}`);

  const fei = await hooked('feishu', { url: `${base}/feishu` });
  const b = await openIssue(fei.repo.full_name);
  const fp = json(b.got);
  assert.is(fp.msg_type, 'text');
  assert.is(
    fp.content.text,
    `[Issue-${fei.repo.full_name} #${b.issue.number}]: opened\nBroken & bad\n${b.issue.html_url}\nIssue by ${env.bob.name}\nOperator: ${env.bob.name}\n\n${BODY}`,
  );

  const wx = await hooked('wechatwork', { url: `${base}/wx` });
  const c = await openIssue(wx.repo.full_name);
  const wp = json(c.got);
  assert.is(wp.msgtype, 'markdown');
  assert.equal(wp.text, { content: '', mentioned_list: null, mentioned_mobile_list: null });
  assert.is(
    wp.markdown.content,
    ` ><font color="info">[${wx.repo.full_name}] Issue opened: #${c.issue.number} Broken & bad by ${env.bob.name}</font>\n >${BODY} \n ><font color="warning"> #${c.issue.number} Broken & bad</font> \n [${c.issue.html_url}](${c.issue.html_url})`,
  );
});

test('telegram: sanitised HTML without previews to the stored URL; the bot token is not shown back', async () => {
  const { repo, hook } = await hooked('telegram', {
    url: `${base}/bot123:abc/sendMessage?chat_id=42&message_thread_id=`,
    bot_token: '123:abc',
    chat_id: '42',
  });
  assert.equal(hook.metadata, { bot_token: '', chat_id: '42', thread_id: '' });
  const { issue, got } = await openIssue(repo.full_name);
  assert.is(got.url, '/bot123:abc/sendMessage?chat_id=42&message_thread_id=');
  const p = json(got);
  assert.is(p.parse_mode, 'HTML');
  assert.is(p.disable_web_page_preview, true);
  assert.match(
    p.text,
    `Issue opened: <a href="${repo.html_url}/issues/${issue.number}">#${issue.number} Broken &amp; bad</a> by ${env.bob.name}`,
  );
  assert.match(p.text, '<b>badly</b>');
  assert.not.match(p.text, '<script');
});

test('msteams: an Adaptive Card with the repository, the action by its sender, a state badge and a button', async () => {
  const { repo } = await hooked('msteams', { url: `${base}/teams` });
  const { issue, got } = await openIssue(repo.full_name);
  const p = json(got);
  assert.is(p.type, 'AdaptiveCard');
  assert.is(p.version, '1.5');
  assert.is(p.body[0].items[0].text, `💬 Update | [${repo.full_name}](${repo.html_url})`);
  assert.is(
    p.body[1].items[0].text,
    `Issue opened: #${issue.number} Broken & bad by [@${env.bob.name}](${env.srv.config.appUrl}${env.bob.name})`,
  );
  assert.is(p.body[2].items[0].columns[0].items[0].text, 'Open');
  assert.is(p.body[3].items[0].text, BODY);
  assert.equal(p.actions, [{ type: 'Action.OpenUrl', title: 'View in Forgejo', url: issue.html_url }]);
});

test('matrix: PUT to the room URL plus a transaction id from the payload, the access token as Bearer, HTML and plain bodies', async () => {
  const room = `${base}/_matrix/client/v3/rooms/${encodeURIComponent('!room:example.org')}/send/m.room.message`;
  const { repo, hook } = await hooked('matrix', {
    url: room,
    homeserver_url: base,
    room_id: '!room:example.org',
    message_type: '1',
    access_token: 'mx-token',
  });
  assert.equal(hook.metadata, { homeserver_url: base, room_id: '!room:example.org', message_type: 1 });
  const { issue, got } = await openIssue(repo.full_name);
  const task = await root().findOneOrFail(HookTask, { hookId: hook.id }, { orderBy: { id: 'desc' } });
  assert.is(got.method, 'PUT');
  assert.is(got.url, `${new URL(room).pathname}/${createHash('sha1').update(task.payload).digest('base64url')}`);
  assert.is(got.headers.authorization, 'Bearer mx-token');
  assert.is(got.headers['x-forgejo-event'], undefined);
  assert.is(task.requestInfo?.headers.Authorization, 'Bearer ******');
  const p = json(got);
  assert.is(p.msgtype, 'm.notice');
  assert.is(p.format, 'org.matrix.custom.html');
  const link = `${repo.html_url}/issues/${issue.number}`;
  assert.is(
    p.formatted_body,
    `[${repo.full_name}] Issue opened: <a href="${link}">#${issue.number} Broken &amp; bad</a> by ${env.bob.name}`,
  );
  assert.is(p.body, `[${repo.full_name}] Issue opened: [#${issue.number} Broken &amp; bad](${link}) by ${env.bob.name}`);
});

test('packagist: the package URL for every event, to the stored update URL, without Forgejo headers', async () => {
  const { repo, hook } = await hooked('packagist', {
    url: `${base}/api/update-package?username=u&apiToken=t`,
    username: 'u',
    api_token: 't',
    package_url: 'https://packagist.org/packages/acme/lib',
  });
  assert.equal(hook.metadata, { username: 'u', api_token: '', package_url: 'https://packagist.org/packages/acme/lib' });
  await pushFile(repo.full_name, 'composer.json', '{}');
  const [got] = await deliver();
  assert.is(got.url, '/api/update-package?username=u&apiToken=t');
  assert.equal(json(got), { repository: { url: 'https://packagist.org/packages/acme/lib' } });
  assert.is(got.headers['x-forgejo-event'], undefined);
});

test('sourcehut builds: the manifest read at the pushed commit, pinned to it; other events are not sent', async () => {
  const { repo, hook } = await hooked('sourcehut_builds', {
    url: `${base}/query`,
    manifest_path: '.build.yml',
    visibility: 'PUBLIC',
    access_token: 'srht-token',
  });
  const sha = await pushFile(
    repo.full_name,
    '.build.yml',
    'image: alpine/edge\nsources:\n  - https://example.com/other.git\ntasks:\n  - build: echo hi\n',
  );
  const [got] = await deliver();
  assert.is(got.headers.authorization, 'Bearer srht-token');
  assert.is(got.headers['x-forgejo-event'], undefined);
  const p = json(got);
  assert.match(p.query, 'submit(');
  assert.equal(p.variables.tags, [repo.full_name, 'branch/main', '.build.yml']);
  assert.is(p.variables.visibility, 'PUBLIC');
  assert.is(p.variables.execute, true);
  assert.is(p.variables.secrets, false);
  assert.match(p.variables.note, 'add .build.yml');
  const manifest = p.variables.manifest as string;
  assert.match(manifest, `${repo.clone_url}#${sha}`);
  assert.match(manifest, 'https://example.com/other.git');
  assert.match(manifest, 'BUILD_SUBMITTER: forgejo');
  assert.match(manifest, 'GIT_REF: refs/heads/main');
  assert.match(manifest, 'image: alpine/edge');

  // A commit without the manifest: the error goes to the service, as Forgejo sends it.
  await env.as(env.alice, 'DELETE', `/repos/${repo.full_name}/contents/.build.yml`, {
    sha: (await env.as(env.alice, 'GET', `/repos/${repo.full_name}/contents/.build.yml`)).json.sha,
  });
  const [missing] = await deliver();
  assert.is(json(missing).error, `${repo.full_name}:refs/heads/main could not open manifest ".build.yml"`);

  // Issues are not for this service: nothing is sent, the task says why, no retry.
  await env.as(env.bob, 'POST', `/repos/${repo.full_name}/issues`, { title: 'no build' });
  assert.is((await deliver()).length, 0);
  const task = await root().findOneOrFail(HookTask, { hookId: hook.id, eventType: 'issues' });
  assert.is(task.isDelivered, true);
  assert.is(task.isSucceed, false);
  assert.match(task.responseInfo?.body ?? '', 'unsupported webhook event');
});

test('a test delivery to a discord hook sends a discord push message', async () => {
  const { repo, hook } = await hooked('discord', { url: `${base}/discord-test`, username: 'forge' });
  const t = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks/${hook.id}/tests`);
  assert.is(t.status, 204, t.text);
  const [got] = await deliver();
  assert.is(got.url, '/discord-test');
  assert.is(json(got).embeds[0].title, `[${repo.full_name}:main] 1 new commit`);
});

test('GET hooks/{id} shows the delivery history: queued, delivered with its status, failed with the next attempt due', async () => {
  const { repo, hook } = await hooked('gitea', { url: `${base}/history` });
  const path = `/repos/${repo.full_name}/hooks/${hook.id}`;
  assert.is((await env.as(env.alice, 'POST', `${path}/tests`)).status, 204);
  let got = await env.as(env.alice, 'GET', path);
  valid('Hook', got.json);
  const queued = got.json.deliveries[0];
  assert.equal([queued.event, queued.is_delivered, queued.attempts, queued.response_status], ['push', false, 0, null]);
  await deliver();
  got = await env.as(env.alice, 'GET', path);
  const done = got.json.deliveries[0];
  assert.equal(
    [done.uuid, done.is_delivered, done.is_succeed, done.attempts, done.response_status, done.next_attempt_at],
    [queued.uuid, true, true, 1, 200, null],
  );
  assert.ok(Date.parse(done.delivered_at) >= Date.parse(done.created_at));

  // A destination that refuses: not delivered yet, one attempt made, the next one scheduled.
  assert.is((await env.as(env.alice, 'PATCH', path, { config: { url: 'http://127.0.0.1:1/closed', content_type: 'json' } })).status, 200);
  assert.is((await env.as(env.alice, 'POST', `${path}/tests`)).status, 204);
  await deliver();
  const failed = (await env.as(env.alice, 'GET', path)).json.deliveries[0];
  assert.equal([failed.is_delivered, failed.is_succeed, failed.attempts], [false, false, 1]);
  assert.ok(Date.parse(failed.next_attempt_at) > Date.now(), failed.next_attempt_at);
  assert.is((await env.as(env.alice, 'GET', `/repos/${repo.full_name}/hooks`)).json[0].deliveries, undefined, "lists stay Forgejo's Hook");
});

test('type settings: required keys answer 422 Missing config option, bad values 422 or 400, nothing stored', async () => {
  const repo = await newRepo(env, env.alice);
  const cases: [string, Record<string, string>, number, string][] = [
    ['packagist', {}, 422, 'Missing config option: package_url'],
    ['packagist', { package_url: 'not a url' }, 422, 'Invalid config option: package_url'],
    ['sourcehut_builds', {}, 422, 'Missing config option: manifest_path'],
    ['sourcehut_builds', { manifest_path: '../x.yml' }, 422, 'Invalid config option: manifest_path'],
    ['sourcehut_builds', { manifest_path: '.build.yml', visibility: 'SECRET' }, 422, 'Invalid config option: visibility'],
    ['matrix', { message_type: '3' }, 422, 'Invalid config option: message_type'],
    ['discord', { icon_url: 'ftp://x' }, 422, 'Invalid config option: icon_url'],
    ['slack', { channel: 'Has Spaces' }, 400, 'Invalid slack channel name'],
  ];
  for (const [type, config, status, message] of cases) {
    const r = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks`, {
      type,
      config: { url: `${base}/x`, content_type: 'json', ...config },
    });
    assert.is(r.status, status, `${type} ${JSON.stringify(config)} ${r.text}`);
    assert.is(r.json.message, message);
  }
  assert.is((await env.as(env.alice, 'GET', `/repos/${repo.full_name}/hooks`)).json.length, 0);
});

test.run();
