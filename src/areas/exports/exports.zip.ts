import { PassThrough, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';

/**
 * A zip written as a stream (yazl), one entry at a time: `add` resolves once the entry's bytes have been taken
 * into the zip, and yazl pipes them on only as fast as `output`'s reader (the blob store) consumes them, so memory
 * holds about one entry's buffers whatever the size of the export. Entries are stored uncompressed when
 * `compress` is false (images and archives, which deflate would not shrink).
 */
export class ZipWriter {
  private readonly zip = new ZipFile();
  readonly output: Readable;
  private readonly broken: Promise<never>;

  constructor() {
    this.output = this.zip.outputStream as unknown as Readable;
    this.broken = new Promise<never>((_, reject) => {
      this.zip.on('error', (err: Error) => {
        reject(err);
        this.output.destroy(err);
      });
      this.output.on('error', reject);
      this.output.on('close', () => reject(new Error('the zip output closed before the zip was complete')));
    });
    this.broken.catch(() => {});
  }

  async add(path: string, source: Buffer | Readable, opts: { mtime: Date; compress?: boolean }): Promise<void> {
    const stream = Buffer.isBuffer(source) ? new PassThrough().end(source) : source;
    this.zip.addReadStreamLazy(path, { mtime: opts.mtime, compress: opts.compress ?? true }, (cb) => cb(null, stream));
    try {
      await Promise.race([finished(stream), this.broken]);
    } catch (err) {
      // The zip broke (or this entry did): an entry it will never read is closed here, not left holding its file.
      if (!stream.destroyed) stream.destroy();
      throw err;
    }
  }

  /** Writes the central directory; the output ends after it. */
  end() {
    this.zip.end();
  }

  /** Stops the zip: its reader sees an error (and the blob store drops what it had written). */
  abort(err: Error) {
    this.output.destroy(err);
  }
}

/** Types deflate does not shrink: kept as they are in the zip. */
export function worthCompressing(contentType: string): boolean {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type.startsWith('text/') || type.endsWith('+xml') || type.endsWith('+json')) return true;
  return ['application/json', 'application/xml', 'application/javascript', 'image/svg+xml', 'image/bmp', 'application/x-ndjson'].includes(type);
}
