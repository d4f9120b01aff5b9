// Runs a CLI admin command in-process against the test database (the code path `npm run cli -- admin` uses).
import { runAdmin } from '../../cli-admin.ts';
import { loadConfig } from '../../config.ts';
import type { TestDb } from './server.ts';

export async function runAdminCommand(t: TestDb, argv: string[]) {
  const out = await runAdmin(t.db.orm, loadConfig({}, { SERVER__APP_DATA_PATH: t.dataPath }), argv);
  if (out.code !== 0) throw new Error(`cli admin ${argv.join(' ')}: ${out.lines.join('\n')}`);
  return out;
}
