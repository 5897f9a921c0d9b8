import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible embeddings service on 127.0.0.1 that speaks the protocol: `POST /v1/embeddings` with
 * `{ model, input }`, answering `{ object: 'list', data: [{ object: 'embedding', index, embedding }], model }` (data in
 * reverse order, as the protocol allows). Its vectors are hashed bags of words (64 dimensions, not normalized: the
 * client normalizes), so texts sharing words are close; `synonyms` maps words onto one another first, so texts that
 * share a meaning but no word are close too.
 */
export interface FakeEmbeddings {
  /** The API base to put in EMBEDDINGS_URL (…/v1). */
  url: string;
  /** Every request: its Authorization header, model and inputs. */
  seen: Array<{ auth?: string; model: string; input: string[] }>;
  /** While true, every request gets a 500. */
  failing: boolean;
  close(): Promise<void>;
}

export const FAKE_EMBEDDING_DIMS = 64;
const DIMS = FAKE_EMBEDDING_DIMS;

function fakeVector(text: string, synonyms: Record<string, string>): number[] {
  const v = new Array(DIMS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const w = synonyms[word] ?? word;
    let h = 2166136261;
    for (const c of w) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
    v[(h >>> 0) % DIMS] += 1;
  }
  return v;
}

async function readBody(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export async function startFakeEmbeddings(synonyms: Record<string, string> = {}): Promise<FakeEmbeddings> {
  const fake: FakeEmbeddings = { url: '', seen: [], failing: false, close: async () => {} };
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') return res.writeHead(404).end();
    const body = await readBody(req);
    fake.seen.push({ auth: req.headers.authorization, model: body.model, input: body.input });
    if (fake.failing) return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
    const data = (body.input as string[]).map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text, synonyms) })).reverse();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = async () => {
    server.close();
    await once(server, 'close');
  };
  return fake;
}
