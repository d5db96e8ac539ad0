// The data directory of a PGlite database with every migration applied, as an image test databases
// start from: initdb and the migrations cost about 1.5 s of CPU per database, loading the image 0.4 s,
// and the unit suite opens a few hundred. The image is kept in the temporary directory under a hash of
// the migrations and of PGlite's own code, so the first test file of a run that changed either writes
// a new one and the others read it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateToLatest, openDatabase } from '../db/database.ts';

function imageFile(): string {
  const hash = createHash('sha256');
  const migrationsDir = fileURLToPath(new URL('../db/migrations/', import.meta.url));
  for (const name of readdirSync(migrationsDir).sort()) hash.update(name).update(readFileSync(path.join(migrationsDir, name)));
  hash.update(readFileSync(fileURLToPath(import.meta.resolve('@electric-sql/pglite'))));
  return path.join(tmpdir(), `stockwise-migrated-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
}

async function writeImage(file: string): Promise<Uint8Array<ArrayBuffer>> {
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  try {
    await migrateToLatest(database.db);
    const image = new Uint8Array(await (await database.pglite!.dumpDataDir('none')).arrayBuffer());
    // Written whole under another name first: a test file of the other worker may be reading it.
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, image);
    await rename(partial, file);
    return image;
  } finally {
    await database.close();
  }
}

let image: Promise<Blob> | null = null;

export function migratedPgliteImage(): Promise<Blob> {
  image ??= (async () => {
    const file = imageFile();
    const bytes: Uint8Array<ArrayBuffer> = await readFile(file).catch(() => writeImage(file));
    return new Blob([bytes]);
  })();
  return image;
}
