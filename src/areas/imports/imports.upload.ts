import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SingleFile, type UploadFiles, ZipFiles } from './imports.files.js';
import { type ImportLimits, refused } from './imports.limits.js';
import { openZip } from './imports.zip.js';

/**
 * The upload on local disk while it is checked or read: a zip needs random access (its directory is at the end),
 * and the blob store may be remote. The file lives in DATA_DIR's `tmp/imports/` under a random name and is removed
 * by whoever made it.
 */

export const uploadsFolder = (dataDir: string) => path.join(dataDir, 'tmp', 'imports');

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const EMPTY_ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const SINGLE = /\.(md|markdown|html?)$/i;

export async function tempFile(dataDir: string): Promise<string> {
  const dir = uploadsFolder(dataDir);
  await mkdir(dir, { recursive: true });
  return path.join(dir, `${randomUUID()}.upload`);
}

/** Writes `stream` to `file`, refusing (and removing it) past `maxBytes`. Returns the size. */
export async function spool(stream: Readable, file: string, maxBytes: number): Promise<number> {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) done(refused('too_large', `The upload is larger than the limit of ${maxBytes} bytes (IMPORT_MAX_BYTES)`, { limit: maxBytes }));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(stream, counter, createWriteStream(file));
    // A multipart parser that stopped at its own limit ends the stream early, marked truncated.
    if ((stream as { truncated?: boolean }).truncated)
      throw refused('too_large', `The upload is larger than the limit of ${maxBytes} bytes (IMPORT_MAX_BYTES)`, { limit: maxBytes });
    return size;
  } catch (err) {
    await rm(file, { force: true });
    throw err;
  }
}

async function headOf(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The upload's files: a zip (by its first bytes, whatever its name) checked against the limits, or one `.md` /
 * `.html` file. A `.zip` that is not one, or any other kind of file, is refused. The caller closes a zip's files.
 */
export async function openUpload(file: string, filename: string, limits: ImportLimits, maxFileBytes: number): Promise<UploadFiles> {
  const head = await headOf(file);
  if (head.length === 0) throw refused('empty', 'The upload is empty');
  const isZip = head.equals(ZIP_MAGIC) || head.equals(EMPTY_ZIP_MAGIC);
  if (isZip) return new ZipFiles(await openZip(file, limits), maxFileBytes);
  if (/\.zip$/i.test(filename)) throw refused('type_mismatch', `${filename} is named .zip but is not a zip`, { path: filename });
  if (!SINGLE.test(filename))
    throw refused('unsupported_file', `Upload a .zip, .md, .markdown or .html file (not ${JSON.stringify(filename)})`, { path: filename });
  const { size } = await stat(file);
  const single = new SingleFile(file, path.basename(filename), size, maxFileBytes);
  await single.text(single.paths[0]); // UTF-8 text, or refused now
  return single;
}

/** Closes a zip's file handle (a single file holds none). */
export function closeUpload(files: UploadFiles) {
  if (files instanceof ZipFiles) files.close();
}

/** Streams the blob to a fresh temporary file. */
export async function blobToTempFile(source: Readable, dataDir: string): Promise<string> {
  const file = await tempFile(dataDir);
  try {
    await pipeline(source, createWriteStream(file));
  } catch (err) {
    await rm(file, { force: true });
    throw err;
  }
  return file;
}

export const readTempFile = (file: string) => createReadStream(file);

/** Removes temporary uploads older than `ageMs` (left by a process that died mid-import). Returns how many. */
export async function removeStaleUploads(dataDir: string, ageMs: number, now = Date.now()): Promise<number> {
  const dir = uploadsFolder(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info && now - info.mtimeMs > ageMs) {
      await rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}
