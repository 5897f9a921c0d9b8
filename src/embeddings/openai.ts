import { AppError } from '../errors.js';
import type { Embedder } from './embedder.js';
import { clip, normalize } from './embedder.js';

export interface OpenAiEmbedderOptions {
  /** API base, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1` (Ollama). */
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

const BATCH = 64;

/** An OpenAI-compatible embeddings endpoint: `POST {url}/embeddings` with `{ model, input: string[] }`. */
export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.model = options.model;
  }

  /** After a failure, calls fail at once for this long instead of waiting on an endpoint that is down. */
  static PAUSE_MS = 15_000;
  private pausedUntil = 0;
  private lastError: Error | null = null;

  available() {
    return Date.now() >= this.pausedUntil;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    if (!this.available() && this.lastError) throw this.lastError;
    const out: number[][] = [];
    try {
      for (let i = 0; i < texts.length; i += BATCH) out.push(...(await this.batch(texts.slice(i, i + BATCH), signal)));
    } catch (err) {
      if (!signal?.aborted) {
        this.lastError = err as Error;
        this.pausedUntil = Date.now() + OpenAiEmbedder.PAUSE_MS;
      }
      throw err;
    }
    this.pausedUntil = 0;
    return out;
  }

  private async batch(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const { url, model, apiKey, timeoutMs } = this.options;
    const timeout = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    let res: Response;
    try {
      res = await fetch(`${url.replace(/\/+$/, '')}/embeddings`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model, input: texts.map((t) => clip(t.trim()) || ' ') }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      throw unavailable(`the embeddings endpoint did not answer (${(err as Error).message})`);
    }
    if (!res.ok) throw unavailable(`the embeddings endpoint answered ${res.status}`);
    const body = (await res.json().catch(() => null)) as { data?: Array<{ embedding?: unknown; index?: number }> } | null;
    const data = body?.data;
    if (!Array.isArray(data) || data.length !== texts.length) throw unavailable('the embeddings endpoint gave a malformed answer');
    const sorted = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return sorted.map((d) => {
      if (!Array.isArray(d.embedding) || d.embedding.length === 0 || !d.embedding.every((x) => typeof x === 'number'))
        throw unavailable('the embeddings endpoint gave a malformed vector');
      return normalize(d.embedding as number[]);
    });
  }
}

const unavailable = (reason: string) => new AppError('SERVICE_UNAVAILABLE', `Embeddings are unavailable: ${reason}`, { reason: 'embeddings' });
