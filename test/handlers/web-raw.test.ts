// The `download_url` of contents answers works (lib/repos/web-raw.ts): Forgejo's web raw links, answered by
// the API's raw route with the same permissions, for branches (slashes included), tags and commits.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRepo, setup, type Env } from './repo-setup.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

const b64 = (s: string) => Buffer.from(s).toString('base64');
const fetchAs = (url: string, token?: string) => fetch(url, { headers: token ? { Authorization: `token ${token}` } : {} });

async function downloadUrl(full: string, file: string, ref: string, token = env.alice.token): Promise<string> {
  const r = await env.as(token, 'GET', `/repos/${full}/contents/${file}?ref=${encodeURIComponent(ref)}`);
  assert.is(r.status, 200, r.text);
  return r.json.download_url as string;
}

test('download_url of a file on a branch, a branch with slashes, a tag and a commit answers the file', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true });
  const full = repo.full_name;
  const made = await env.as(env.alice, 'POST', `/repos/${full}/contents/dir/a%20b.txt`, {
    content: b64('on a branch'),
    new_branch: 'feature/x',
  });
  assert.is(made.status, 201, made.text);
  const sha = made.json.commit.sha as string;
  assert.is((await env.as(env.alice, 'POST', `/repos/${full}/tags`, { tag_name: 'v1', target: 'feature/x' })).status, 201);

  const onBranch = await downloadUrl(full, 'dir/a%20b.txt', 'feature/x');
  assert.is(onBranch, `${env.srv.config.appUrl}${full}/raw/branch/feature/x/dir/a%20b.txt`);
  for (const url of [onBranch, await downloadUrl(full, 'dir/a%20b.txt', 'v1'), await downloadUrl(full, 'dir/a%20b.txt', sha)]) {
    const r = await fetchAs(url);
    assert.is(r.status, 200, url);
    assert.is(await r.text(), 'on a branch', url);
  }
  const readme = await fetchAs(await downloadUrl(full, 'README.md', 'main'));
  assert.is(readme.status, 200);
  assert.match(await readme.text(), repo.name);
  assert.is((await fetchAs(`${env.srv.config.appUrl}${full}/raw/branch/nosuch/README.md`)).status, 404);
  assert.is((await fetchAs(`${env.srv.config.appUrl}${full}/raw/branch/main/nosuch.txt`)).status, 404);
  assert.is((await fetchAs(`${env.srv.config.appUrl}${full}/media/branch/main/README.md`)).status, 200, 'media serves plain blobs too');
});

test("a private repository's links need a caller who may read it: 404 otherwise", async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true, private: true });
  const url = await downloadUrl(repo.full_name, 'README.md', 'main');
  assert.is((await fetchAs(url)).status, 404);
  assert.is((await fetchAs(url, env.bob.token)).status, 404);
  const r = await fetchAs(url, env.alice.token);
  assert.is(r.status, 200);
  assert.match(await r.text(), repo.name);
});

test.run();
