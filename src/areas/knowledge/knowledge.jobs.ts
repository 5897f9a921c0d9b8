import type { Config } from '../../config.js';
import { embedderFor } from '../../embeddings/index.js';
import type { AreaJobs } from '../../jobs/registry.js';
import { runIndexer } from './knowledge.indexer.js';

/** The recurring job that (re)indexes page passages after their pages change, and embeds memories left without a vector. */
export const KNOWLEDGE_INDEX_JOB = 'knowledge.index';

/** Knowledge's background work: the indexer, every KNOWLEDGE_INDEX_EVERY_MS (default 5 s), once across all instances. */
export const knowledgeJobs: AreaJobs = {
  handlers: {
    [KNOWLEDGE_INDEX_JOB]: async (_job, jc) => runIndexer(jc.db, embedderFor(jc.env.config), jc.env.config, { log: jc.log, signal: jc.signal }),
  },
  recurring: (config: Config) => [{ kind: KNOWLEDGE_INDEX_JOB, everyMs: config.KNOWLEDGE_INDEX_EVERY_MS }],
};
