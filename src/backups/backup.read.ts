import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import yauzl from 'yauzl';
import { BackupError } from './backup.errors.js';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, blobEntry, MANIFEST_ENTRY, Manifest } from './backup.manifest.js';

/** An archive opened for reading: its manifest, checked against the entries the zip really holds. */
export interface OpenBackup {
  manifest: Manifest;
  /** A stream of one entry's bytes (yauzl holds it to the size the zip declares). */
  open(name: string): Promise<Readable>;
  close(): void;
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true }, (err, zip) =>
      err || !zip ? reject(err) : resolve(zip),
    ),
  );
}

function readEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  const entries = new Map<string, yauzl.Entry>();
  return new Promise((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve(entries));
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.readEntry();
  });
}

/** The manifest, parsed and checked: a kb backup, of a format this kb reads. */
function parseManifest(file: string, raw: string): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new BackupError(`${file}: manifest.json is not valid JSON: the archive is damaged`);
  }
  const kind = (json as { format?: unknown })?.format;
  if (kind !== BACKUP_FORMAT) throw new BackupError(`${file} is not a kb backup (its manifest.json says format ${JSON.stringify(kind)})`);
  const version = (json as { formatVersion?: unknown }).formatVersion;
  if (version !== BACKUP_FORMAT_VERSION)
    throw new BackupError(
      `${file} is a kb backup of format ${JSON.stringify(version)}; this kb reads format ${BACKUP_FORMAT_VERSION}` +
        (typeof version === 'number' && version > BACKUP_FORMAT_VERSION ? ': restore it with the kb version that wrote it, or newer' : ''),
    );
  const parsed = Manifest.safeParse(json);
  if (!parsed.success)
    throw new BackupError(`${file}: manifest.json is incomplete (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

/**
 * Opens a backup archive and checks it before anything is restored: a readable zip (a truncated file has no central
 * directory), a manifest of a known format, and every entry the manifest names present with the size it recorded.
 * The bytes themselves are checked against the manifest's SHA-256 as they are restored.
 */
export async function openBackup(file: string): Promise<OpenBackup> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new BackupError(`${file} does not exist`);
    throw new BackupError(`${file} is not a readable backup archive (${(err as Error).message}): it is truncated or damaged, or not a kb backup`);
  }
  try {
    const entries = await readEntries(zip).catch((err: Error) => {
      throw new BackupError(`${file} is damaged: ${err.message}`);
    });
    const open = (name: string) =>
      new Promise<Readable>((resolve, reject) => {
        const entry = entries.get(name);
        if (!entry) return reject(new BackupError(`${file} has no ${name}: the archive is incomplete`));
        zip.openReadStream(entry, (err, stream) =>
          err || !stream ? reject(new BackupError(`${file}: ${name} cannot be read: ${err?.message}`)) : resolve(stream),
        );
      });
    if (!entries.has(MANIFEST_ENTRY)) throw new BackupError(`${file} holds no manifest.json: it is not a kb backup`);
    const manifest = parseManifest(file, await text(await open(MANIFEST_ENTRY)));
    const expected = [
      { name: manifest.database.entry, size: manifest.database.size },
      ...manifest.blobs.map((b) => ({ name: blobEntry(b.key), size: b.size })),
    ];
    for (const { name, size } of expected) {
      const entry = entries.get(name);
      if (!entry) throw new BackupError(`${file} has no ${name}, which its manifest lists: the archive is incomplete`);
      if (entry.uncompressedSize !== size)
        throw new BackupError(`${file}: ${name} holds ${entry.uncompressedSize} bytes, its manifest says ${size}: the archive is damaged`);
    }
    return { manifest, open, close: () => zip.close() };
  } catch (err) {
    zip.close();
    throw err;
  }
}
