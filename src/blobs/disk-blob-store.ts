import { createHash, randomUUID } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files.js';
import { assertBlobKey, type BlobRange, type BlobStore, isBlobKey, BlobNotFoundError, BlobTooLargeError, type StoredBlob } from './blob-store.js';

/**
 * Blobs as files: `<root>/<last two characters of the key>/<key>`. A write goes to a temporary file in the same
 * folder and is renamed into place once complete, so a reader never sees half a blob. Folders are 0700 and files
 * 0600: attachments are the workspaces' own.
 */
export class DiskBlobStore implements BlobStore {
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    assertBlobKey(key);
    return path.join(this.root, key.slice(-2).toLowerCase(), key);
  }

  async put(key: string, source: Readable | Uint8Array, opts: { maxBytes?: number } = {}): Promise<StoredBlob> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = `${target}.${randomUUID()}.tmp`;
    const hash = createHash('sha256');
    let size = 0;
    const max = opts.maxBytes ?? Number.POSITIVE_INFINITY;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > max) return done(new BlobTooLargeError(max));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const input = source instanceof Readable ? source : Readable.from([Buffer.from(source.buffer, source.byteOffset, source.byteLength)]);
    try {
      await pipeline(input, meter, createWriteStream(temp, { flags: 'wx', mode: PRIVATE_FILE_MODE }));
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    return { size, sha256: hash.digest('hex') };
  }

  async get(key: string, range?: BlobRange): Promise<Readable> {
    const file = this.pathOf(key);
    try {
      await stat(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
      throw err;
    }
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const info = await stat(this.pathOf(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    return info?.isFile() ? { size: info.size } : null;
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: PRIVATE_DIR_MODE });
    await access(this.root, constants.R_OK | constants.W_OK);
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async *listBefore(before: Date): AsyncIterable<string> {
    for (const folder of await entriesOf(this.root)) {
      const dir = path.join(this.root, folder);
      for (const name of await entriesOf(dir)) {
        const file = path.join(dir, name);
        const info = await stat(file).catch(() => null);
        if (!info?.isFile() || info.mtime >= before) continue;
        if (name.endsWith('.tmp')) await rm(file, { force: true });
        else if (isBlobKey(name) && name.slice(-2).toLowerCase() === folder) yield name;
      }
    }
  }
}

/** The names in a folder; none when it does not exist (yet). */
async function entriesOf(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
  }
}
