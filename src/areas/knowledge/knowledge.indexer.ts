import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import type { Embedder } from '../../embeddings/index.js';
import { type CpuPriority, runCpuTask } from '../../workers/pool.js';
import { embeddingText, type Passage } from './knowledge.chunk.js';
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

/** What the indexer needs of the settings: the CPU pool it chunks and embeds on, and how much one run may take. */
export type IndexerSettings = Pick<
  Config,
  'CPU_WORKERS' | 'CPU_WORKER_IDLE_MS' | 'CPU_WORKER_NICE' | 'KNOWLEDGE_INDEX_MAX_PAGES' | 'KNOWLEDGE_INDEX_BUDGET_MS'
>;

/** How an indexing call runs: its log, a signal that stops it, and its place on the CPU pool (default background). */
export interface IndexRun {
  log?: Logger;
  signal?: AbortSignal;
  priority?: CpuPriority;
}

/** The passages of each page, cut on the CPU pool; a page with no text keeps one passage, its title, so it can still be found. */
async function passagesOf(settings: IndexerSettings, pages: StalePage[], run: IndexRun): Promise<Passage[][]> {
  const cut = await runCpuTask(
    settings,
    'chunkDocuments',
    pages.map((p) => p.content),
    { signal: run.signal, priority: run.priority ?? 'background' },
  );
  return pages.map((page, i) =>
    cut[i].length ? cut[i] : [{ headingPath: '', content: page.title, wordCount: page.title.split(/\s+/).filter(Boolean).length }],
  );
}

/**
 * (Re)indexes pages: chunks each page, embeds every passage in one batch, and replaces the page's passages in a
 * transaction. If the embedder fails the passages are stored without vectors (searchable by words) and the pages
 * stay stale for the next run. A page purged meanwhile is skipped.
 */
export async function indexPages(db: Db, embedder: Embedder, settings: IndexerSettings, pages: StalePage[], run: IndexRun = {}): Promise<IndexOutcome> {
  const { log, signal, priority = 'background' } = run;
  const storage = await vectorStorage(db);
  const cut = await passagesOf(settings, pages, run);
  const chunks = pages.map((page, i) => ({ page, passages: cut[i] }));
  const texts = chunks.flatMap(({ page, passages }) => passages.map((p) => embeddingText(page.title, p.headingPath, p.content)));
  let vectors: Array<number[] | null>;
  let embedded = true;
  try {
    vectors = texts.length ? await embedder.embed(texts, signal, priority) : [];
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
    'background',
  );
  for (const [i, r] of rows.entries()) await knowledgeRepo.setMemoryEmbedding(db, storage, r.workspaceId, r.id, vectors[i], embedder.model);
  return rows.length;
}

/** What is embedded for a memory: its tags give it context, like a page title does a passage. */
export function memoryEmbeddingText(content: string, tags: string[]): string {
  return tags.length ? `${tags.join(', ')}\n${content}` : content;
}

/** Pages per batch: one transaction each, then the event loop gets a turn (on PGlite the database shares this thread). */
const BATCH_PAGES = 5;
/** Memories embedded per run, at most. */
const MEMORIES_PER_RUN = 50;

/**
 * One run of the background indexer: stale pages of every workspace, then stale memories. A run is bounded, at most
 * KNOWLEDGE_INDEX_MAX_PAGES pages and KNOWLEDGE_INDEX_BUDGET_MS, and yields to requests between batches; what is
 * left waits for the next run.
 */
export async function runIndexer(
  db: Db,
  embedder: Embedder,
  settings: IndexerSettings,
  opts: { log?: Logger; signal?: AbortSignal } = {},
): Promise<IndexOutcome> {
  const deadline = Date.now() + settings.KNOWLEDGE_INDEX_BUDGET_MS;
  const total: IndexOutcome = { pages: 0, passages: 0, memories: 0, embedded: true };
  const inTime = () => Date.now() < deadline && !opts.signal?.aborted;
  let attempted = 0;
  while (inTime() && attempted < settings.KNOWLEDGE_INDEX_MAX_PAGES) {
    const limit = Math.min(BATCH_PAGES, settings.KNOWLEDGE_INDEX_MAX_PAGES - attempted);
    const stale = await knowledgeRepo.stalePages(db, embedder.model, { limit });
    if (!stale.length) break;
    attempted += stale.length;
    const outcome = await indexPages(db, embedder, settings, stale, opts);
    total.pages += outcome.pages;
    total.passages += outcome.passages;
    if (!outcome.embedded) {
      total.embedded = false;
      break; // the embedder is down: try again on the next run rather than spin
    }
    await yieldToRequests();
  }
  if (total.embedded && inTime()) {
    try {
      total.memories = await embedStaleMemories(db, embedder, MEMORIES_PER_RUN, opts.signal);
    } catch (err) {
      opts.signal?.throwIfAborted();
      opts.log?.error({ err }, 'embedding memories failed');
      total.embedded = false;
    }
  }
  return total;
}
