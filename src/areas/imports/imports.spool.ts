import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { DocJson } from '../../editor/index.js';
import { tempFile } from './imports.upload.js';

/** A converted page as the tree needs it; its content waits in the spool file. */
export interface PageHead {
  id: string;
  key: string;
  parentKey: string | null;
  title: string;
  icon?: string;
}

export interface PageContent {
  id: string;
  json: DocJson;
  text: string;
}

/**
 * The converted pages of an import, kept on disk (one JSON line each, under DATA_DIR's `tmp/imports/`) between
 * conversion and the transaction that writes them, so memory holds one batch of content whatever the import's size;
 * only each page's head (id, key, parent, title) stays in memory.
 */
export class PageSpool {
  readonly heads: PageHead[] = [];
  /** The stream's first error (a full disk, say): kept, and thrown by the next `add` or `finish`, never left unhandled. */
  private failure: Error | null = null;
  private constructor(
    readonly file: string,
    private readonly out: WriteStream,
  ) {
    // From the moment the stream exists: an error a stream emits with no listener takes the whole process down.
    out.on('error', (err) => {
      this.failure ??= err;
    });
  }

  static async open(dataDir: string): Promise<PageSpool> {
    const file = await tempFile(dataDir);
    return new PageSpool(file, createWriteStream(file));
  }

  async add(head: PageHead, content: Omit<PageContent, 'id'>) {
    this.check();
    this.heads.push(head);
    if (!this.out.write(`${JSON.stringify({ id: head.id, json: content.json, text: content.text })}\n`)) await this.settled('drain');
    this.check();
  }

  /** Ends writing; the contents can then be read back. */
  async finish() {
    this.check();
    this.out.end();
    await this.settled('finish');
    this.check();
  }

  /** The contents in the order they were added, `size` at a time. */
  async *batches(size: number): AsyncGenerator<PageContent[]> {
    const input = createReadStream(this.file);
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    try {
      let batch: PageContent[] = [];
      for await (const line of lines) {
        if (!line) continue;
        batch.push(JSON.parse(line) as PageContent);
        if (batch.length >= size) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length) yield batch;
    } finally {
      // A reader that stops early (the write failed) leaves the file open otherwise.
      lines.close();
      input.destroy();
    }
  }

  /**
   * Stops writing and deletes the file, whatever state the import left it in (a page refused half-way through a
   * batch leaves a write in flight): the stream is ended and closed first, and its errors are the listener's.
   */
  async remove() {
    if (!this.out.closed) {
      const closed = once(this.out, 'close').catch(() => {});
      if (this.out.writableFinished || this.failure) this.out.destroy();
      else this.out.end();
      await closed;
    }
    await rm(this.file, { force: true });
  }

  private check() {
    if (this.failure) throw this.failure;
  }

  /** Waits for `event`, or for the stream to fail or close first (then `check` throws the failure). */
  private async settled(event: 'drain' | 'finish') {
    if (this.failure || this.out.closed) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.out.off(event, done);
        this.out.off('error', done);
        this.out.off('close', done);
        resolve();
      };
      this.out.on(event, done);
      this.out.on('error', done);
      this.out.on('close', done);
    });
  }
}
