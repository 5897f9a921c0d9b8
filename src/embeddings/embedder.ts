/**
 * A text embedder: turns texts into unit-length vectors of one model. Two providers: an OpenAI-compatible
 * `POST {EMBEDDINGS_URL}/embeddings` (OpenAI, Ollama, vLLM, …) and the offline Universal Sentence Encoder.
 */
export interface Embedder {
  /** Stored with every vector; a vector of another model is re-embedded, never compared. */
  readonly model: string;
  /**
   * Vectors are embedded as passages or as queries (the offline encoder treats both alike). `background` work (the
   * indexer's) waits behind `interactive` work (a search's query) where the embedder runs on the CPU pool.
   */
  embed(texts: string[], signal?: AbortSignal, priority?: 'interactive' | 'background'): Promise<number[][]>;
  /** False while a remote embedder is known to be failing (calls fail fast then); optional work can wait. */
  available(): boolean;
}

/** Scales a vector to unit length (so cosine similarity is a dot product on every storage path). */
export function normalize(v: number[]): number[] {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (!Number.isFinite(norm) || norm === 0) return v.map(() => 0);
  return v.map((x) => x / norm);
}

/** pgvector's text form of a vector: `[0.1,0.2,…]`. */
export function vectorLiteral(v: number[]): string {
  return `[${v.map((x) => (Number.isFinite(x) ? Math.fround(x) : 0)).join(',')}]`;
}

/** Longest text sent to an embedder (characters); passages are far shorter, memories may not be. */
export const MAX_EMBED_CHARS = 8_000;

export const clip = (text: string) => (text.length > MAX_EMBED_CHARS ? text.slice(0, MAX_EMBED_CHARS) : text);
