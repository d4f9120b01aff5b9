// `cairn admin dump` and `cairn admin restore`: one .tar.gz with everything an instance keeps, taken
// while it serves, and brought back into an empty data directory and an empty database.
//
// The archive, like `forgejo dump`'s: manifest.json (what it holds and which migrations its database
// is at), database/ (lib/maintenance/dump-database.ts: pg_dump.sql, or tables.json and one <table>.jsonl each),
// repos/<owner>/<name>.git (the repository root), data/ (the data directory: LFS objects,
// attachments, packages, avatars, the secret key, the SSH host key, ...), and app.ini when the
// settings came from one (for reference; restore does not write it).
//
// Consistency while the server runs:
// - The database is read in one REPEATABLE READ transaction: every table as of one snapshot.
// - Every repository's refs are read once, right after that snapshot is taken. A write that had
//   committed in the database had moved its refs before, so the archive's refs are never behind its
//   rows; a push whose refs moved after the snapshot is in the refs only, as a crash at that moment
//   would leave it (the work after a push is redone at start: lib/pulls/merge-recovery.ts, events aside).
// - Each repository's objects are linked (or copied) after its refs were read: git writes an object
//   file under its final name only once complete and never changes it, so they include everything
//   those refs reach; the copy's refs are then set to exactly what was read, packed, and its
//   connectivity checked (`git fsck --connectivity-only`), linking again what a concurrent repack
//   replaced. A push is in a repository's copy entirely or not at all.
// - Data files (all written under a temporary name and renamed into place) are linked before the
//   snapshot and again after, so a file whose row is in the snapshot is in the archive even when it is
//   deleted while the dump runs.
// Files are hard-linked into a staging directory under the data path (copied where the file system
// refuses), so a dump costs little more disk than the archive; the archive is written beside its
// final name and renamed into place when complete.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import * as tar from 'tar';
import type { Config } from '../../config.ts';
import { migrate, openDatabase, type Orm } from '../../model/db.ts';
import { migrations } from '../../model/migrations/index.ts';
import { connectivityProblem, readRefs, writeRefs, type SnapshotRef } from '../../git/snapshot.ts';
import {
  appliedMigrations,
  exportTables,
  importTables,
  pgDump,
  pgDumpVersion,
  psqlRestore,
  relationCount,
  serverMajor,
  type LogicalDump,
} from './dump-database.ts';
import { DUMP_STAGING } from './leftovers.ts';
import { executeSql, sql } from '../../model/sql.ts';

export const DUMP_FORMAT = 'cairn-dump';
export const DUMP_VERSION = 1;
export type DatabaseFormat = 'pg_dump' | 'json';

export interface Manifest {
  format: typeof DUMP_FORMAT;
  version: number;
  createdAt: string;
  database: { kind: 'postgresql' | 'embedded'; format: DatabaseFormat; migrations: string[]; tool?: string };
  repositories: string[];
  dataFiles: number;
  appIni: boolean;
}

export class DumpError extends Error {}

/** Entries of the data directory that are not the instance's data: the database files, generated hooks, sockets, staging. */
const NOT_DATA = new Set(['pglite', 'git-hooks', DUMP_STAGING, 'cairn-admin.sock']);
/** Partial uploads (lib/maintenance/leftovers.ts). */
const SPOOLS = new Set([path.join('attachments', 'tmp'), path.join('packages', 'tmp')]);

export interface DumpOptions {
  /** Absolute path of the archive to write. */
  file: string;
  /** Default: pg_dump on PostgreSQL when a pg_dump as new as the server is on the PATH, else json. */
  databaseFormat?: DatabaseFormat;
}

/** Writes the archive; returns the lines to show (what was dumped, and where). */
export async function dumpInstance(orm: Orm, cfg: Config, opts: DumpOptions): Promise<string[]> {
  const lines: string[] = [];
  const stagingRoot = path.join(cfg.dataPath, DUMP_STAGING);
  fs.mkdirSync(stagingRoot, { recursive: true });
  const staging = fs.mkdtempSync(path.join(stagingRoot, 'dump-'));
  const partial = `${opts.file}.${randomBytes(4).toString('hex')}.partial`;
  try {
    const postgres = cfg.DATABASE.URL !== '';
    const format = await chooseFormat(orm, postgres, opts.databaseFormat);
    const skipData = dataSkipper(cfg, [opts.file, partial]);
    const dataDir = path.join(staging, 'data');
    await linkTree(cfg.dataPath, dataDir, skipData);

    fs.mkdirSync(path.join(staging, 'database'));
    const repos = new Map<string, SnapshotRef[]>();
    let manifestDb: Manifest['database'] | null = null;
    await orm.em.fork().transactional(async (tx) => {
      await executeSql(tx, sql`set transaction isolation level repeatable read`);
      // The snapshot is taken by the transaction's first query; on PostgreSQL it is exported for pg_dump.
      const snapshot = postgres ? (await executeSql<{ s: string }>(tx, sql`select pg_export_snapshot() as s`))[0]!.s : null;
      const migrationNames = await appliedMigrations(tx);
      for (const repo of await repositoryDirs(cfg.repoRoot)) {
        const refs = await readRefs(path.join(cfg.repoRoot, repo)).catch((e: unknown) => {
          if (!fs.existsSync(path.join(cfg.repoRoot, repo))) return null; // removed since it was listed
          throw e;
        });
        if (refs) repos.set(repo, refs);
      }
      if (format.kind === 'pg_dump') {
        await pgDump(cfg.DATABASE.URL, snapshot!, path.join(staging, 'database', 'pg_dump.sql'));
        manifestDb = { kind: 'postgresql', format: 'pg_dump', migrations: migrationNames, tool: format.tool };
      } else {
        const logical = await exportTables(tx, path.join(staging, 'database'));
        fs.writeFileSync(path.join(staging, 'database', 'tables.json'), `${JSON.stringify(logical, null, 1)}\n`);
        manifestDb = { kind: postgres ? 'postgresql' : 'embedded', format: 'json', migrations: migrationNames };
      }
    });
    const db = manifestDb as unknown as Manifest['database'];
    lines.push(
      `database: ${db.format === 'pg_dump' ? `pg_dump (${db.tool})` : 'a logical export (JSON per table)'}${format.why ? `; ${format.why}` : ''}, at migration ${db.migrations.length}`,
    );

    for (const [repo, refs] of repos) await copyRepository(path.join(cfg.repoRoot, repo), path.join(staging, 'repos', repo), refs);
    lines.push(`repositories: ${repos.size}, each with its refs as of the database snapshot`);

    const dataFiles = await linkTree(cfg.dataPath, dataDir, skipData);
    lines.push(`data files: ${dataFiles} (${topLevel(dataDir).join(', ') || 'none'})`);
    const appIni = cfg.configFile !== null && fs.existsSync(cfg.configFile);
    if (appIni) fs.copyFileSync(cfg.configFile!, path.join(staging, 'app.ini'));
    const manifest: Manifest = {
      format: DUMP_FORMAT,
      version: DUMP_VERSION,
      createdAt: new Date().toISOString(),
      database: db,
      repositories: [...repos.keys()],
      dataFiles,
      appIni,
    };
    fs.writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

    fs.mkdirSync(path.dirname(opts.file), { recursive: true });
    await tar.c({ gzip: true, file: partial, cwd: staging, portable: true }, fs.readdirSync(staging).sort());
    fs.renameSync(partial, opts.file);
    lines.push(`wrote ${opts.file} (${(fs.statSync(opts.file).size / 1048576).toFixed(1)} MiB)`);
    return lines;
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

async function chooseFormat(
  orm: Orm,
  postgres: boolean,
  wanted: DatabaseFormat | undefined,
): Promise<{ kind: DatabaseFormat; tool?: string; why?: string }> {
  if (!postgres) {
    if (wanted === 'pg_dump') throw new DumpError('--database-format pg_dump needs PostgreSQL; the embedded database is dumped as json');
    return { kind: 'json' };
  }
  if (wanted === 'json') return { kind: 'json' };
  const tool = await pgDumpVersion();
  const server = await serverMajor(orm.em.fork());
  const why = tool === null ? 'no pg_dump on the PATH' : tool.major < server ? `${tool.text} is older than the server (${server})` : null;
  if (why === null) return { kind: 'pg_dump', tool: tool!.text };
  if (wanted === 'pg_dump') throw new DumpError(`--database-format pg_dump: ${why}`);
  return { kind: 'json', why };
}

/** Owner/name.git of every repository (and wiki) under the root. */
async function repositoryDirs(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const owner of (await entries(root)).filter((e) => e.isDirectory())) {
    for (const repo of (await entries(path.join(root, owner.name))).filter((e) => e.isDirectory() && e.name.endsWith('.git')))
      out.push(path.join(owner.name, repo.name));
  }
  return out.sort();
}

/** What of a repository's directory is not copied: its refs (written from what was read), reflogs, locks, quarantines, temporary packs. */
function skipInRepository(rel: string): boolean {
  const parts = rel.split(path.sep);
  const base = parts[parts.length - 1]!;
  if (parts[0] === 'refs' || parts[0] === 'logs' || rel === 'packed-refs') return true;
  if (base.endsWith('.lock')) return true;
  if (parts[0] === 'objects' && parts.length === 2 && /^(incoming-|tmp_objdir-)/.test(base)) return true;
  return parts[0] === 'objects' && /^(tmp_|\.tmp-)/.test(base);
}

/** A repository's copy holding exactly `refs`: objects linked after they were read, refs set, connectivity checked. */
async function copyRepository(src: string, dest: string, refs: SnapshotRef[]): Promise<void> {
  let problem: string | null = 'not copied';
  let refsWritten = false;
  for (let attempt = 1; attempt <= 3 && problem !== null; attempt++) {
    // Again after a failure: objects a concurrent repack moved into a new pack are linked from it.
    await linkTree(src, dest, skipInRepository);
    fs.mkdirSync(path.join(dest, 'refs', 'heads'), { recursive: true });
    fs.mkdirSync(path.join(dest, 'refs', 'tags'), { recursive: true });
    if (!refsWritten) {
      try {
        await writeRefs(dest, refs);
        refsWritten = true;
      } catch (e) {
        problem = e instanceof Error ? e.message : String(e);
        continue;
      }
    }
    problem = await connectivityProblem(dest);
  }
  if (problem !== null) throw new DumpError(`${src}: the copy of the repository is incomplete: ${problem}`);
}

/** Skips what of the data directory is not data, relative paths; and the archive itself when written there. */
function dataSkipper(cfg: Config, outputs: string[]): (rel: string) => boolean {
  const inside = (p: string) => {
    const rel = path.relative(cfg.dataPath, p);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : null;
  };
  const repoRoot = inside(cfg.repoRoot);
  const own = outputs.map(inside).filter((x): x is string => x !== null);
  return (rel) => {
    const parts = rel.split(path.sep);
    if (NOT_DATA.has(parts[0]!) || SPOOLS.has(parts.slice(0, 2).join(path.sep))) return true;
    if (repoRoot !== null && (rel === repoRoot || rel.startsWith(`${repoRoot}${path.sep}`))) return true;
    return own.includes(rel) || rel.endsWith('.tmp');
  };
}

async function entries(dir: string): Promise<fs.Dirent[]> {
  return fs.promises.readdir(dir, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return [];
    throw e;
  });
}

const topLevel = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

/**
 * Hard-links every regular file (and symlink) of `src` into `dest` under the same relative path, unless
 * `skip` says so or `dest` has it already; copies where a link is refused (another file system).
 * Files that vanish while it runs are passed over. Returns the files now in `dest`.
 */
async function linkTree(src: string, dest: string, skip: (rel: string) => boolean): Promise<number> {
  let count = 0;
  const walk = async (rel: string) => {
    for (const e of await entries(path.join(src, rel))) {
      const r = rel ? path.join(rel, e.name) : e.name;
      if (skip(r)) continue;
      const from = path.join(src, r);
      const to = path.join(dest, r);
      if (e.isDirectory()) {
        await walk(r);
        continue;
      }
      if (!e.isFile() && !e.isSymbolicLink()) continue;
      await fs.promises.mkdir(path.dirname(to), { recursive: true });
      count++;
      try {
        if (e.isSymbolicLink()) await fs.promises.symlink(await fs.promises.readlink(from), to);
        else await fs.promises.link(from, to);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') continue;
        if (code === 'ENOENT') {
          count--;
          continue;
        }
        if (code !== 'EXDEV' && code !== 'EPERM') throw err;
        try {
          await fs.promises.copyFile(from, to);
        } catch (copyErr) {
          if ((copyErr as NodeJS.ErrnoException).code !== 'ENOENT') throw copyErr;
          count--;
        }
      }
    }
  };
  await walk('');
  return count;
}

/** Restores an archive into an empty data directory (and repository root) and an empty database. */
export async function restoreInstance(cfg: Config, file: string): Promise<string[]> {
  const lines: string[] = [];
  if (!fs.existsSync(file)) throw new DumpError(`${file}: no such archive`);
  for (const dir of [cfg.dataPath, cfg.repoRoot]) {
    const found = (await entries(dir)).map((e) => e.name);
    if (found.length)
      throw new DumpError(
        `${dir} is not empty (${found.slice(0, 5).join(', ')}${found.length > 5 ? ', ...' : ''}): restore needs an empty data directory and repository root`,
      );
  }
  fs.mkdirSync(cfg.dataPath, { recursive: true });
  const staging = fs.mkdtempSync(path.join(cfg.dataPath, `${DUMP_STAGING}-restore-`));
  let db: Awaited<ReturnType<typeof openDatabase>> | null = null;
  let done = false;
  try {
    await tar.x({ file, cwd: staging, strict: true, filter: (p) => p === 'manifest.json' });
    const manifest = readManifest(path.join(staging, 'manifest.json'), file);
    const postgres = cfg.DATABASE.URL !== '';
    if (manifest.database.format === 'pg_dump' && !postgres) {
      throw new DumpError(
        `${file} holds a pg_dump of PostgreSQL: restore it into PostgreSQL (CAIRN__DATABASE__URL or [database]), or dump with --database-format json for the embedded database`,
      );
    }
    db = await openDatabase(cfg);
    const em = db.orm.em.fork();
    const relations = await relationCount(em);
    if (relations > 0) {
      throw new DumpError(
        `the database is not empty (${relations} tables and sequences): restore needs an empty database${postgres ? ' (create a new one)' : ''}`,
      );
    }
    await tar.x({ file, cwd: staging, strict: true });
    if (manifest.database.format === 'pg_dump') {
      await psqlRestore(cfg.DATABASE.URL, path.join(staging, 'database', 'pg_dump.sql'));
      lines.push(`database: pg_dump restored with psql (migration ${manifest.database.migrations.length})`);
    } else {
      const last = manifest.database.migrations[manifest.database.migrations.length - 1];
      if (last) await db.orm.getMigrator().up({ to: last });
      const logical = JSON.parse(fs.readFileSync(path.join(staging, 'database', 'tables.json'), 'utf8')) as LogicalDump;
      const rows = await importTables(em, path.join(staging, 'database'), logical);
      lines.push(`database: ${rows} rows in ${logical.tables.length} tables restored (migration ${manifest.database.migrations.length})`);
    }
    const applied = await migrate(db.orm);
    if (applied.length) lines.push(`migrations applied since the dump: ${applied.join(', ')}`);
    fs.mkdirSync(cfg.repoRoot, { recursive: true });
    for (const name of topLevel(path.join(staging, 'repos'))) await move(path.join(staging, 'repos', name), path.join(cfg.repoRoot, name));
    for (const name of topLevel(path.join(staging, 'data'))) await move(path.join(staging, 'data', name), path.join(cfg.dataPath, name));
    lines.push(`repositories: ${manifest.repositories.length}; data files: ${manifest.dataFiles}`);
    if (manifest.appIni) lines.push("the archive's app.ini (the settings of the dumped instance) was not written: compare it with yours");
    lines.push(`restored ${file} (dumped ${manifest.createdAt})`);
    done = true;
    return lines;
  } finally {
    await db?.close();
    fs.rmSync(staging, { recursive: true, force: true });
    // A restore that failed leaves the data directory as it found it (its embedded database included).
    if (!done) for (const name of topLevel(cfg.dataPath)) fs.rmSync(path.join(cfg.dataPath, name), { recursive: true, force: true });
  }
}

function readManifest(file: string, archive: string): Manifest {
  if (!fs.existsSync(file)) throw new DumpError(`${archive} is not a cairn dump (no manifest.json)`);
  const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  if (m.format !== DUMP_FORMAT || m.version !== DUMP_VERSION)
    throw new DumpError(`${archive}: unknown dump format ${m.format} ${m.version}`);
  const known = new Set(migrations.map((x) => x.name));
  const newer = m.database.migrations.filter((name) => !known.has(name));
  if (newer.length)
    throw new DumpError(`${archive} was dumped by a newer cairn (migrations ${newer.join(', ')}): restore it with that version`);
  return m;
}

/** Renames, or copies and removes across file systems. */
async function move(from: string, to: string): Promise<void> {
  try {
    await fs.promises.rename(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    await fs.promises.cp(from, to, { recursive: true, verbatimSymlinks: true });
    await fs.promises.rm(from, { recursive: true, force: true });
  }
}
