import type { Db } from '../../db/index.js';
import type { Embedder } from '../../embeddings/index.js';
import { chunkDocument, embeddingText, type Passage } from './knowledge.chunk.js';
import { knowledgeRepo, type StalePage } from './knowledge.repo.js';
import { vectorStorage } from './knowledge.storage.js';

interface Logger {
  error(obj: object, msg?: string): void;
}

export interface IndexOutcome {
  pages: number;
  passages: number;
  memories: number;
  /** False when the embedder failed: passages were stored for words only, vectors follow on a later run. */
  embedded: boolean;
}

/** The passages of a page; a page with no text keeps one passage, its title, so it can still be found. */
function passagesOf(page: StalePage): Passage[] {
  const passages = chunkDocument(page.content);
  return passages.length ? passages : [{ headingPath: '', content: page.title, wordCount: page.title.split(/\s+/).filter(Boolean).length }];
}

/**
 * (Re)indexes pages: chunks each page, embeds every passage in one batch, and replaces the page's passages in a
 * transaction. If the embedder fails the passages are stored without vectors (searchable by words) and the pages
 * stay stale for the next run. A page purged meanwhile is skipped.
 */
export async function indexPages(db: Db, embedder: Embedder, pages: StalePage[], log?: Logger, signal?: AbortSignal): Promise<IndexOutcome> {
  const storage = await vectorStorage(db);
  const chunks = pages.map((page) => ({ page, passages: passagesOf(page) }));
  const texts = chunks.flatMap(({ page, passages }) => passages.map((p) => embeddingText(page.title, p.headingPath, p.content)));
  let vectors: Array<number[] | null>;
  let embedded = true;
  try {
    vectors = texts.length ? await embedder.embed(texts, signal) : [];
  } catch (err) {
    signal?.throwIfAborted();
    log?.error({ err }, 'embedding page passages failed; stored for full-text search only');
    vectors = texts.map(() => null);
    embedded = false;
  }
  let offset = 0;
  let passages = 0;
  let indexed = 0;
  const now = new Date();
  for (const { page, passages: list } of chunks) {
    const own = vectors.slice(offset, offset + list.length);
    offset += list.length;
    try {
      await db.transaction().execute((trx) => knowledgeRepo.replacePassages(trx, storage, page, list, own, embedded ? embedder.model : null, now));
      passages += list.length;
      indexed++;
    } catch (err) {
      if ((err as { code?: string }).code !== '23503') throw err; // the page was purged while we worked: nothing to index
    }
  }
  return { pages: indexed, passages, memories: 0, embedded };
}

/** Embeds memories whose vector is missing or of another model. */
export async function embedStaleMemories(db: Db, embedder: Embedder, limit: number, signal?: AbortSignal): Promise<number> {
  const storage = await vectorStorage(db);
  const rows = await knowledgeRepo.staleMemories(db, embedder.model, limit);
  if (!rows.length) return 0;
  const vectors = await embedder.embed(
    rows.map((r) => memoryEmbeddingText(r.content, r.tags)),
    signal,
  );
  for (const [i, r] of rows.entries()) await knowledgeRepo.setMemoryEmbedding(db, storage, r.workspaceId, r.id, vectors[i], embedder.model);
  return rows.length;
}

/** What is embedded for a memory: its tags give it context, like a page title does a passage. */
export function memoryEmbeddingText(content: string, tags: string[]): string {
  return tags.length ? `${tags.join(', ')}\n${content}` : content;
}

/** Pages per batch; a run goes on batch after batch until nothing is stale or its time is up. */
const BATCH_PAGES = 20;

/** One run of the background indexer: stale pages of every workspace, then stale memories, for up to `budgetMs`. */
export async function runIndexer(db: Db, embedder: Embedder, opts: { budgetMs?: number; log?: Logger; signal?: AbortSignal } = {}): Promise<IndexOutcome> {
  const deadline = Date.now() + (opts.budgetMs ?? 20_000);
  const total: IndexOutcome = { pages: 0, passages: 0, memories: 0, embedded: true };
  while (Date.now() < deadline && !opts.signal?.aborted) {
    const stale = await knowledgeRepo.stalePages(db, embedder.model, { limit: BATCH_PAGES });
    if (!stale.length) break;
    const outcome = await indexPages(db, embedder, stale, opts.log, opts.signal);
    total.pages += outcome.pages;
    total.passages += outcome.passages;
    if (!outcome.embedded) {
      total.embedded = false;
      break; // the embedder is down: try again on the next run rather than spin
    }
  }
  if (total.embedded && Date.now() < deadline && !opts.signal?.aborted) {
    try {
      total.memories = await embedStaleMemories(db, embedder, 200, opts.signal);
    } catch (err) {
      opts.signal?.throwIfAborted();
      opts.log?.error({ err }, 'embedding memories failed');
      total.embedded = false;
    }
  }
  return total;
}
