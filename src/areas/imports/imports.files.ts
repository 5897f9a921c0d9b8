import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { refused } from './imports.limits.js';
import type { OpenZip, ZipEntryInfo } from './imports.zip.js';
import type { ImportFiles } from './sources/source.js';

/** Collects a stream's bytes, refusing more than `max` (yauzl already holds each entry to its declared size). */
async function collect(stream: Readable, max: number, path: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      stream.destroy();
      throw refused('too_large', `The file ${path} is larger than its limit of ${max} bytes`, { path, limit: max });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Bytes as UTF-8 text; anything else (Latin-1, UTF-16, a binary file named `.md`) is refused with the path. */
export function decodeUtf8(bytes: Buffer, path: string): string {
  try {
    const text = utf8.decode(bytes);
    if (text.includes('\u0000')) throw new Error('binary');
    return text;
  } catch {
    throw refused('invalid_utf8', `The file ${path} is not UTF-8 text`, { path });
  }
}

/** The files of an upload: a zip's entries, each unpacked when asked for. */
export class ZipFiles implements ImportFiles {
  readonly paths: string[];
  private readonly byPath: Map<string, ZipEntryInfo>;

  constructor(
    private readonly zip: OpenZip,
    private readonly maxFileBytes: number,
  ) {
    this.byPath = new Map(zip.entries.map((e) => [e.path, e]));
    this.paths = zip.entries.map((e) => e.path);
  }

  has(path: string) {
    return this.byPath.has(path);
  }

  size(path: string) {
    return this.byPath.get(path)?.size ?? 0;
  }

  async bytes(path: string) {
    const entry = this.byPath.get(path);
    if (!entry) throw refused('corrupt', `The zip has no file ${path}`, { path });
    return collect(await this.zip.open(entry), this.maxFileBytes, path);
  }

  async stream(path: string): Promise<Readable> {
    const entry = this.byPath.get(path);
    if (!entry) throw refused('corrupt', `The zip has no file ${path}`, { path });
    return this.zip.open(entry);
  }

  async text(path: string) {
    return decodeUtf8(await this.bytes(path), path);
  }

  close() {
    this.zip.close();
  }
}

/** One uploaded `.md` or `.html` file, seen as a zip of that one file. */
export class SingleFile implements ImportFiles {
  readonly paths: string[];

  constructor(
    private readonly file: string,
    private readonly name: string,
    private readonly length: number,
    private readonly maxFileBytes: number,
  ) {
    this.paths = [name];
  }

  has(path: string) {
    return path === this.name;
  }

  size(path: string) {
    return path === this.name ? this.length : 0;
  }

  async bytes(path: string) {
    if (path !== this.name) throw refused('corrupt', `The upload has no file ${path}`, { path });
    return collect(createReadStream(this.file), this.maxFileBytes, path);
  }

  async stream(path: string): Promise<Readable> {
    if (path !== this.name) throw refused('corrupt', `The upload has no file ${path}`, { path });
    return createReadStream(this.file);
  }

  async text(path: string) {
    return decodeUtf8(await this.bytes(path), path);
  }
}

export type UploadFiles = ZipFiles | SingleFile;
