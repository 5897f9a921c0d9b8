import type { Config } from '../config.js';
import type { Embedder } from './embedder.js';
import { OpenAiEmbedder } from './openai.js';
import { UniversalSentenceEncoder } from './use.js';

export { type Embedder, normalize, vectorLiteral } from './embedder.js';
export { USE_DIMENSIONS, USE_MODEL } from './use.js';

const cache = new Map<string, Embedder>();

/**
 * The embedder the settings name, one per distinct setting in the process: the OpenAI-compatible endpoint when
 * `EMBEDDINGS_URL` is set, else the offline Universal Sentence Encoder (run in the CPU pool, loaded there on first use).
 */
export function embedderFor(
  config: Pick<
    Config,
    'EMBEDDINGS_URL' | 'EMBEDDINGS_MODEL' | 'EMBEDDINGS_API_KEY' | 'EMBEDDINGS_TIMEOUT_MS' | 'CPU_WORKERS' | 'CPU_WORKER_IDLE_MS' | 'CPU_WORKER_NICE'
  >,
): Embedder {
  const key = config.EMBEDDINGS_URL ? `${config.EMBEDDINGS_URL}\n${config.EMBEDDINGS_MODEL}\n${config.EMBEDDINGS_API_KEY ?? ''}` : 'use';
  let embedder = cache.get(key);
  if (!embedder) {
    embedder = config.EMBEDDINGS_URL
      ? new OpenAiEmbedder({
          url: config.EMBEDDINGS_URL,
          model: config.EMBEDDINGS_MODEL,
          apiKey: config.EMBEDDINGS_API_KEY,
          timeoutMs: config.EMBEDDINGS_TIMEOUT_MS,
        })
      : new UniversalSentenceEncoder(config);
    cache.set(key, embedder);
  }
  return embedder;
}
