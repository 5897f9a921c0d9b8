import { loadConfig } from '../../config.js';
import { embedderFor } from '../../embeddings/index.js';
import type { AreaJobs } from '../../jobs/registry.js';
import { runIndexer } from './knowledge.indexer.js';

/** The recurring job that (re)indexes page passages after their pages change, and embeds memories left without a vector. */
export const KNOWLEDGE_INDEX_JOB = 'knowledge.index';

let everyMs: number | undefined;

/** Knowledge's background work: the indexer, every KNOWLEDGE_INDEX_EVERY_MS (default 5 s), once across all instances. */
export const knowledgeJobs: AreaJobs = {
  handlers: {
    [KNOWLEDGE_INDEX_JOB]: async (_job, jc) => runIndexer(jc.db, embedderFor(jc.env.config), { log: jc.log, signal: jc.signal }),
  },
  // Read when the background starts (the settings are the process's by then), not when this module loads.
  get recurring() {
    everyMs ??= loadConfig().KNOWLEDGE_INDEX_EVERY_MS;
    return [{ kind: KNOWLEDGE_INDEX_JOB, everyMs }];
  },
};
