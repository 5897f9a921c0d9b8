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
  private constructor(
    readonly file: string,
    private readonly out: WriteStream,
  ) {}

  static async open(dataDir: string): Promise<PageSpool> {
    const file = await tempFile(dataDir);
    return new PageSpool(file, createWriteStream(file));
  }

  async add(head: PageHead, content: Omit<PageContent, 'id'>) {
    this.heads.push(head);
    if (!this.out.write(`${JSON.stringify({ id: head.id, json: content.json, text: content.text })}\n`)) await once(this.out, 'drain');
  }

  /** Ends writing; the contents can then be read back. */
  async finish() {
    this.out.end();
    await once(this.out, 'finish');
  }

  /** The contents in the order they were added, `size` at a time. */
  async *batches(size: number): AsyncGenerator<PageContent[]> {
    let batch: PageContent[] = [];
    for await (const line of createInterface({ input: createReadStream(this.file), crlfDelay: Number.POSITIVE_INFINITY })) {
      if (!line) continue;
      batch.push(JSON.parse(line) as PageContent);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }

  async remove() {
    this.out.destroy();
    await rm(this.file, { force: true });
  }
}
