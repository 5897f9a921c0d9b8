import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { type ImportLimits, refused } from './imports.limits.js';

/**
 * The upload as a zip (yauzl over a file on disk: random access to the central directory, entries streamed one at
 * a time). Every entry is checked before a byte is unpacked: a safe relative path (no `..`, no absolute or drive
 * path, no backslash trickery), no more than `maxEntries`, no deeper than `maxDepth`, declared sizes within
 * `maxUnpackedBytes` in all and `maxRatio` each; yauzl then refuses any entry whose real unpacked size differs from
 * what it declared, so a bomb that lies in its headers fails while being read.
 */

export interface ZipEntryInfo {
  path: string;
  size: number;
  entry: yauzl.Entry;
}

export interface OpenZip {
  entries: ZipEntryInfo[];
  open(entry: ZipEntryInfo): Promise<Readable>;
  close(): void;
}

function openFile(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false }, (err, zip) =>
      err || !zip ? reject(err) : resolve(zip),
    ),
  );
}

/** A path as written in the zip, made relative and checked; null for a folder entry or one of the OS's droppings. */
export function safeEntryPath(raw: string): string | null {
  const name = raw.replace(/\\/g, '/');
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name) || name.split('/').some((part) => part === '..'))
    throw refused('unsafe_path', `The zip holds a path outside its folder: ${JSON.stringify(raw.slice(0, 200))}`, { path: raw.slice(0, 500) });
  if (name.endsWith('/')) return null;
  const path = posix.normalize(name).replace(/^(\.\/)+/, '');
  if (path.startsWith('__MACOSX/') || posix.basename(path) === '.DS_Store' || posix.basename(path) === 'Thumbs.db') return null;
  return path;
}

function checkEntry(entry: yauzl.Entry, limits: ImportLimits, depthOf: (path: string) => number) {
  const path = safeEntryPath(entry.fileName);
  if (path === null) return null;
  if (depthOf(path) > limits.maxDepth)
    throw refused('too_deep', `The zip nests folders deeper than ${limits.maxDepth} levels (IMPORT_MAX_DEPTH)`, { path, limit: limits.maxDepth });
  if (entry.isEncrypted()) throw refused('encrypted', `The zip's file ${path} is encrypted`, { path });
  const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
  if (entry.uncompressedSize > 1024 * 1024 && ratio > limits.maxRatio)
    throw refused(
      'compression_ratio',
      `The zip's file ${path} unpacks ${Math.round(ratio)} times larger than it is packed (IMPORT_MAX_RATIO ${limits.maxRatio})`,
      {
        path,
        limit: limits.maxRatio,
      },
    );
  return path;
}

/** Reads and checks the zip's central directory; the caller closes what it returns. Refusals are AppErrors (422). */
export async function openZip(file: string, limits: ImportLimits): Promise<OpenZip> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openFile(file);
  } catch (err) {
    throw refused('not_a_zip', `The file is not a readable zip: ${(err as Error).message}`);
  }
  try {
    if (zip.entryCount > limits.maxEntries)
      throw refused('too_many_entries', `The zip holds ${zip.entryCount} entries, more than ${limits.maxEntries} (IMPORT_MAX_ENTRIES)`, {
        limit: limits.maxEntries,
      });
    const entries: ZipEntryInfo[] = [];
    const seen = new Set<string>();
    let unpacked = 0;
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (err: Error) => reject(err));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        try {
          const path = checkEntry(entry, limits, (p) => p.split('/').length);
          if (path !== null && !seen.has(path)) {
            seen.add(path);
            unpacked += entry.uncompressedSize;
            if (unpacked > limits.maxUnpackedBytes)
              throw refused('too_large_unpacked', `The zip unpacks to more than ${limits.maxUnpackedBytes} bytes (IMPORT_MAX_UNPACKED_BYTES)`, {
                limit: limits.maxUnpackedBytes,
              });
            entries.push({ path, size: entry.uncompressedSize, entry });
          }
          zip.readEntry();
        } catch (err) {
          reject(err);
        }
      });
      zip.readEntry();
    }).catch((err) => {
      if (err instanceof Error && err.name === 'AppError') throw err;
      const message = (err as Error).message;
      if (/invalid relative path|absolute path/i.test(message)) throw refused('unsafe_path', `The zip holds a path outside its folder: ${message}`);
      throw refused('corrupt', `The zip is damaged: ${message}`);
    });
    return {
      entries,
      open: (info) =>
        new Promise((resolve, reject) =>
          zip.openReadStream(info.entry, (err, stream) =>
            err || !stream ? reject(refused('corrupt', `The zip's file ${info.path} cannot be read: ${err?.message}`, { path: info.path })) : resolve(stream),
          ),
        ),
      close: () => zip.close(),
    };
  } catch (err) {
    zip.close();
    throw err;
  }
}
