// `POST {R}/generate`: a new repository from a template (Forgejo routers/api/v1/repo/repo.go Generate).
import type { Handler } from '../lib/http/handler.ts';
import { json, signedIn } from '../lib/http/handler.ts';
import type { GenerateRepoOption } from '../model/schemas/index.ts';
import { User } from '../model/user.ts';
import { unprocessable } from '../lib/http/errors.ts';
import { generateRepository } from '../lib/repos/generate.ts';
import { need } from '../lib/http/request.ts';
import { repoJson } from '../lib/repos/api/repo-json.ts';

export const create = signedIn<GenerateRepoOption>(async (c) => {
  const { repo: tpl } = need(c.repo, 'repo');
  const b = c.body;
  if (!(b.git_content || b.topics || b.git_hooks || b.webhooks || b.avatar || b.labels || b.protected_branch)) {
    throw unprocessable('must select at least one template item');
  }
  const doer = c.auth.doer;
  // GENERATE_OWNER has checked that the owner exists and that the caller may create there.
  const owner = b.owner.toLowerCase() === doer.lowerName ? doer : await c.em.findOneOrFail(User, { lowerName: b.owner.toLowerCase() });
  const repo = await generateRepository(c.em, c.config, c.services, doer, owner, tpl, {
    name: b.name,
    description: b.description,
    private: b.private,
    defaultBranch: b.default_branch,
    gitContent: b.git_content,
    topics: b.topics,
    avatar: b.avatar,
    labels: b.labels,
    protectedBranch: b.protected_branch,
  });
  return json(201, await repoJson(c, repo, owner));
});

/** This family's handlers; `routes.table.ts` names each `generate.<key>`. */
export const handlers = {
  create,
} satisfies Record<string, Handler<never, never>>;
