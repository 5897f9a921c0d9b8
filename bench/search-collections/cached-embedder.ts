/**
 * An embedder that keeps the vectors it computed in a file (one per model), so a second bench run over the same
 * collections does not embed 17,490 documents again (the offline encoder takes 10–30 minutes for them on 2 cores).
 * Vectors are keyed by the sha1 of the text: a text the product would embed differently gets its own vector.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Embedder } from '../../src/embeddings/index.js';

export class CachedEmbedder implements Embedder {
  readonly model: string;
  private readonly vectors: Map<string, number[]>;
  private readonly file: string;
  private added = 0;

  constructor(
    private readonly inner: Embedder,
    dir: string,
  ) {
    this.model = inner.model;
    this.file = path.join(dir, `${inner.model.replace(/[^\w.-]/g, '_')}.json`);
    mkdirSync(dir, { recursive: true });
    this.vectors = new Map(existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as [string, number[]][]) : []);
  }

  available() {
    return this.inner.available();
  }

  async embed(texts: string[], signal?: AbortSignal, priority?: 'interactive' | 'background'): Promise<number[][]> {
    const keys = texts.map((t) => createHash('sha1').update(t).digest('base64'));
    const missing = [...new Set(keys.filter((k) => !this.vectors.has(k)))];
    if (missing.length) {
      const textOf = new Map(keys.map((k, i) => [k, texts[i]]));
      const computed = await this.inner.embed(
        missing.map((k) => textOf.get(k) as string),
        signal,
        priority,
      );
      for (const [i, k] of missing.entries()) this.vectors.set(k, computed[i]);
      this.added += missing.length;
      if (this.added >= 2_000) this.save();
    }
    return keys.map((k) => this.vectors.get(k) as number[]);
  }

  /** Writes the cache (only when something was added). */
  save() {
    if (!this.added) return;
    writeFileSync(this.file, JSON.stringify([...this.vectors]));
    this.added = 0;
  }
}
