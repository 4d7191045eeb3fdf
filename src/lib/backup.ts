// `parley backup` and `parley restore`: one folder holds a consistent copy of a server's data.
//
//   parley-backup.json   what the folder holds (written last: a folder without it is no backup)
//   parley.db            SQLite: the database, from SQLite's online backup
//   database/<table>.jsonl  PostgreSQL: each table's rows, one JSON array of column texts a line
//   uploads/             the uploads folder (files, custom emoji, avatars and icons), without its tmp/
//
// The database is copied first and the uploads after it, so every file a copied row names was
// already there when the copy began; files uploaded later are copied too, unreferenced.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { backupPostgres, backupSqlite, BackupError, checkPostgresEmpty, restorePostgres, restoreSqlite, syncFile, type TableExport } from '../db/backup.ts';

export { BackupError };

const MANIFEST = 'parley-backup.json';
const FORMAT = 'parley-backup';
const VERSION = 1;

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  created_at: string;
  database: 'sqlite' | 'postgres';
  /** The migrations the database had applied: a restore recreates exactly that schema. */
  migrations: string[];
  /** PostgreSQL only: the tables in database/, their columns in file order, their row counts. */
  tables?: TableExport[];
  uploads: { files: number; bytes: number };
}

export async function backup(config: Config, out: string): Promise<Manifest> {
  const target = path.resolve(out);
  if (fs.existsSync(target)) throw new BackupError(`${target} already exists: give --out a new path`);
  const uploads = path.resolve(config.uploadsDir);
  if (target === uploads || target.startsWith(uploads + path.sep)) throw new BackupError('--out must be outside the uploads directory, which the backup copies');
  const parent = path.dirname(target);
  if (!fs.existsSync(parent)) throw new BackupError(`${parent} does not exist`);
  // Built beside its final name and renamed when complete, so a failed run leaves no backup that
  // looks whole.
  const partial = `${target}.partial-${process.pid}`;
  fs.mkdirSync(partial);
  try {
    const createdAt = new Date().toISOString();
    let manifest: Manifest;
    if (config.databaseUrl) {
      fs.mkdirSync(path.join(partial, 'database'));
      const r = await backupPostgres(config.databaseUrl, path.join(partial, 'database'));
      await syncFile(path.join(partial, 'database'));
      manifest = { format: FORMAT, version: VERSION, created_at: createdAt, database: 'postgres', migrations: r.migrations, tables: r.tables, uploads: { files: 0, bytes: 0 } };
    } else {
      const r = await backupSqlite(config.dataDir, path.join(partial, 'parley.db'));
      manifest = { format: FORMAT, version: VERSION, created_at: createdAt, database: 'sqlite', migrations: r.migrations, uploads: { files: 0, bytes: 0 } };
    }
    manifest.uploads = await copyTree(config.uploadsDir, path.join(partial, 'uploads'), { skipTop: new Set(['tmp']), vanishingOk: true });
    fs.writeFileSync(path.join(partial, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
    await syncFile(path.join(partial, MANIFEST));
    await syncFile(partial);
    fs.renameSync(partial, target);
    await syncFile(parent);
    return manifest;
  } catch (err) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

export function readManifest(from: string): Manifest {
  const file = path.join(path.resolve(from), MANIFEST);
  let m: Partial<Manifest>;
  try {
    m = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Manifest>;
  } catch {
    throw new BackupError(`${file} is missing or unreadable: --from names a folder written by parley backup`);
  }
  if (m.format !== FORMAT || typeof m.version !== 'number' || !Array.isArray(m.migrations) || (m.database !== 'sqlite' && m.database !== 'postgres')) {
    throw new BackupError(`${file} is not a Parley backup manifest`);
  }
  if (m.version > VERSION) throw new BackupError(`${file} is of backup format ${m.version}; this Parley reads format ${VERSION}: restore it with a newer Parley`);
  if (m.database === 'postgres' && !Array.isArray(m.tables)) throw new BackupError(`${file} lists no tables`);
  return m as Manifest;
}

function isEmptyDir(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

export async function restore(config: Config, from: string): Promise<Manifest> {
  const source = path.resolve(from);
  const manifest = readManifest(source);
  if (manifest.database === 'postgres' && !config.databaseUrl) {
    throw new BackupError('This backup is of a PostgreSQL database: restore it with --database-url (or DATABASE_URL) naming an empty database');
  }
  if (manifest.database === 'sqlite' && config.databaseUrl) {
    throw new BackupError('This backup is of a SQLite database: restore it into an empty --data-dir without DATABASE_URL (then `parley move-to-postgres` if you want PostgreSQL)');
  }
  if (manifest.database === 'sqlite' && !isEmptyDir(config.dataDir)) {
    throw new BackupError(`The data directory ${config.dataDir} is not empty: restore into a new or empty one`);
  }
  if (!isEmptyDir(config.uploadsDir)) throw new BackupError(`The uploads directory ${config.uploadsDir} is not empty: restore into a new or empty one`);
  if (config.databaseUrl) await checkPostgresEmpty(config.databaseUrl);

  // Uploads are copied to a staging folder that takes its place once the database is back.
  const staging = `${config.uploadsDir}.restoring-${process.pid}`;
  fs.mkdirSync(path.dirname(staging), { recursive: true });
  try {
    const copied = await copyTree(path.join(source, 'uploads'), staging, { vanishingOk: false });
    if (copied.files !== manifest.uploads.files) {
      throw new BackupError(`${source}/uploads holds ${copied.files} files where the manifest says ${manifest.uploads.files}`);
    }
    if (manifest.database === 'postgres') {
      try {
        await restorePostgres(config.databaseUrl!, path.join(source, 'database'), manifest.migrations, manifest.tables!);
      } catch (err) {
        if (err instanceof BackupError) throw err;
        const why = err instanceof Error ? err.message : String(err);
        throw new BackupError(`Loading the database failed (${why}); it may hold part of the backup now: drop it and create it again before another restore`);
      }
    }
    fs.rmSync(config.uploadsDir, { recursive: true, force: true });
    fs.renameSync(staging, config.uploadsDir);
    await syncFile(path.dirname(config.uploadsDir));
    // Last: parley.db in the data directory is what makes the restored SQLite data whole.
    if (manifest.database === 'sqlite') await restoreSqlite(path.join(source, 'parley.db'), config.dataDir);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return manifest;
}

/**
 * Copies a folder tree file by file, flushing each file and folder. With `vanishingOk`, a file or
 * folder deleted while the copy runs (the server removes uploads) is left out.
 */
async function copyTree(from: string, to: string, opts: { skipTop?: Set<string>; vanishingOk: boolean }): Promise<{ files: number; bytes: number }> {
  const total = { files: 0, bytes: 0 };
  const gone = (err: unknown) => opts.vanishingOk && (err as NodeJS.ErrnoException).code === 'ENOENT';
  const walk = async (src: string, dest: string, top: boolean): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(src, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && (top || opts.vanishingOk)) entries = [];
      else throw err;
    }
    await fs.promises.mkdir(dest, { recursive: true });
    for (const e of entries) {
      if (top && opts.skipTop?.has(e.name)) continue;
      const s = path.join(src, e.name);
      const d = path.join(dest, e.name);
      if (e.isDirectory()) {
        await walk(s, d, false);
      } else if (e.isFile()) {
        try {
          await fs.promises.copyFile(s, d, fs.constants.COPYFILE_EXCL);
        } catch (err) {
          if (gone(err)) continue;
          throw err;
        }
        await syncFile(d);
        total.files++;
        total.bytes += (await fs.promises.stat(d)).size;
      }
    }
    await syncFile(dest);
  };
  await walk(from, to, true);
  return total;
}
