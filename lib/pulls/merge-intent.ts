// The merge intent of lib/pulls/merge-recovery.ts: a small file under APP_DATA_PATH/merge-intents, one per
// pull, written and flushed to disk before git moves a base branch for a merge, and removed once the
// merge is recorded in the database (or known not to have reached git).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';

export interface Intent {
  pullId: number;
  commit: string;
  doerId: number;
}

export const intentDir = (cfg: Config) => path.join(cfg.dataPath, 'merge-intents');
const intentFile = (cfg: Config, pullId: number) => path.join(intentDir(cfg), String(pullId));

/** Written, and flushed to disk, before the base branch moves to `commit`. */
export async function writeMergeIntent(cfg: Config, intent: Intent): Promise<void> {
  await fs.mkdir(intentDir(cfg), { recursive: true });
  const file = intentFile(cfg, intent.pullId);
  const tmp = `${file}.${process.pid}.tmp`;
  const handle = await fs.open(tmp, 'w');
  try {
    await handle.writeFile(JSON.stringify(intent));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, file);
}

/** After the merge was recorded (or when it is known not to have happened). */
export async function dropMergeIntent(cfg: Config, pullId: number): Promise<void> {
  await fs.rm(intentFile(cfg, pullId), { force: true });
}

export async function readMergeIntent(cfg: Config, pullId: number): Promise<Intent | null> {
  try {
    const v = JSON.parse(await fs.readFile(intentFile(cfg, pullId), 'utf8')) as Partial<Intent>;
    if (typeof v.commit === 'string' && /^[0-9a-f]{40,64}$/.test(v.commit) && typeof v.doerId === 'number') {
      return { pullId, commit: v.commit, doerId: v.doerId };
    }
  } catch (e) {
    // A missing file is the normal case; a torn one (killed while writing) never reached git.
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && !(e instanceof SyntaxError)) throw e;
  }
  return null;
}
