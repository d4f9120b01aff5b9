// What the routes read, made through the real CLI and API: a site admin and a user (CLI, with their
// tokens), the user's repositories, and one issue in each repository that will hold issues. The bulk
// rows are copies of these (bench/seed-rows.ts); the history repository is pushed (bench/main.ts).
import { api, createUser, type CairnSetup } from './cairn.ts';

export const OWNER = 'bench';

export interface Seeded {
  token: string;
  adminToken: string;
  /** Repository ids by name. */
  repos: Record<RepoName, number>;
  /** The API-made issue of each issue repository. */
  issues: Record<'issues100' | 'issues10k' | 'writes', { id: number; number: number }>;
}

/** demo: README.md; big: the history; issues100 / issues10k: the issue lists; writes: POST routes; tmpl: copied to fill the repository lists. */
const REPOS = ['demo', 'big', 'issues100', 'issues10k', 'writes', 'tmpl'] as const;
type RepoName = (typeof REPOS)[number];

export async function seedThroughApi(s: CairnSetup, base: string): Promise<Seeded> {
  const [adminToken, token] = await Promise.all([createUser(s, 'root', true), createUser(s, OWNER, false)]);
  const repos = {} as Record<RepoName, number>;
  for (const name of REPOS) {
    const r = await api<{ id: number }>(base, 'POST', '/user/repos', token, { name, auto_init: name === 'demo' });
    repos[name] = r.id;
  }
  const issues = {} as Seeded['issues'];
  for (const name of ['issues100', 'issues10k', 'writes'] as const) {
    const r = await api<{ id: number; number: number }>(base, 'POST', `/repos/${OWNER}/${name}/issues`, token, {
      title: 'Issue 1',
      body: 'An issue of the benchmark.',
    });
    issues[name] = { id: r.id, number: r.number };
  }
  return { token, adminToken, repos, issues };
}
