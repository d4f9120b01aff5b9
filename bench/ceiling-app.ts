// The app both ceilings share: Koa 3 and @koa/router from our own node_modules (the versions cairn
// runs), one route shaped like `GET /repos/{owner}/{repo}`, answering a repository object that cairn
// itself produced. Koa serialises the object on every request, as it does for any JSON API.
import fs from 'node:fs';
import Koa from 'koa';
import Router from '@koa/router';

export interface CeilingArgs {
  port: number;
  body: unknown;
  rest: string[];
}

/** `<port> <file holding the JSON answer> [...]`, as bench/main.ts starts the ceilings. */
export function ceilingArgs(argv = process.argv.slice(2)): CeilingArgs {
  const [port, file, ...rest] = argv;
  if (!port || !file) throw new Error('usage: <port> <json file> [...]');
  return { port: Number(port), body: JSON.parse(fs.readFileSync(file, 'utf8')), rest };
}

/** Serves the object on loopback; `lookup` runs first on every request when given. */
export function serveCeiling(a: CeilingArgs, lookup?: (owner: string, repo: string) => Promise<void>): void {
  const app = new Koa();
  const router = new Router();
  router.get('/api/v1/repos/:owner/:repo', async (ctx) => {
    if (lookup) await lookup(ctx.params.owner, ctx.params.repo);
    ctx.body = a.body;
  });
  app.use(router.routes());
  const server = app.listen(a.port, '127.0.0.1');
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}
