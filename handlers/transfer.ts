// Repository transfer (Forgejo routers/api/v1/repo/transfer.go): 202 when done at once, 201 while it
// waits for the recipient; accept answers 202, reject 200, each with the repository.
import type { Handler } from '../lib/http/handler.ts';
import { json, signedIn } from '../lib/http/handler.ts';
import type { TransferRepoOption } from '../model/schemas/index.ts';
import { User } from '../model/user.ts';
import { acceptTransfer, cancelTransfer, checkTransferTeams, startTransfer } from '../lib/repos/transfer.ts';
import { isSiteAdmin, need } from '../lib/http/request.ts';
import { repoJson } from '../lib/repos/api/repo-json.ts';

export const create = signedIn<TransferRepoOption>(async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const doer = c.auth.doer;
  const newOwner = need(c.newOwner, 'new-owner');
  const teamIds = await checkTransferTeams(c.em, newOwner, c.body.team_ids);
  const done = await startTransfer(c.em, c.services, doer, isSiteAdmin(c), repo, newOwner, teamIds);
  return json(done ? 202 : 201, await repoJson(c, repo, done ? newOwner : owner));
});

export const accept: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  await acceptTransfer(c.em, c.services, repo);
  return json(202, await repoJson(c, repo, await c.em.findOneOrFail(User, { id: repo.ownerId })));
};

export const reject: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  await cancelTransfer(c.em, repo);
  return json(200, await repoJson(c, repo, owner));
};

/** This family's handlers; `routes.table.ts` names each `transfer.<key>`. */
export const handlers = {
  create,
  accept,
  reject,
} satisfies Record<string, Handler<never, never>>;
