import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { TestApp } from '../helpers/app.js';
import { readSse, type SseEvent } from '../helpers/sse.js';

/**
 * Several real service processes (`src/main.ts` through tsx, as `npm run dev:api` runs it) sharing one PostgreSQL
 * database, one Redis and one object store, talked to over real HTTP: the realistic way to start, use and kill them.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Instance {
  name: string;
  /** `http://127.0.0.1:<port>` */
  base: string;
  pid: number;
  child: ChildProcess;
  /** `request` of a TestApp, over real HTTP to this instance: the test factories work against it unchanged. */
  request: TestApp['request'];
  /** The factories' view of this instance (they only use `request`). */
  asTestApp: TestApp;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** `request` over fetch, with the TestApp request's options and answer shape (`{ status, headers, body }`). */
export function httpRequester(base: string): TestApp['request'] {
  return async ({ method = 'GET', url, token, body, query, headers = {} }) => {
    const h: Record<string, string> = { ...headers };
    if (token) h.authorization = `Bearer ${token}`;
    if (body !== undefined && typeof body !== 'string') h['content-type'] = 'application/json';
    const target = new URL(`${base}${url}`);
    for (const [k, v] of Object.entries(query ?? {})) for (const one of Array.isArray(v) ? v : [v]) target.searchParams.append(k, one);
    const res = await fetch(target, { method, headers: h, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    const parsed: unknown = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
    return { status: res.status, headers: Object.fromEntries(res.headers), body: parsed } as Awaited<ReturnType<TestApp['request']>>;
  };
}

/** Starts one instance and resolves once it listens (its address is read from its start-up line). */
export function startInstance(name: string, env: Record<string, string>, timeoutMs = 90_000): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start in ${timeoutMs} ms:\n${out.slice(-2000)}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      out += d;
      if (out.length > 200_000) out = out.slice(-100_000);
      const match = /listening on (http:\/\/[^/\s]+)\/api/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stdout?.on('data', (more) => (out += more));
      const base = match[1];
      const request = httpRequester(base);
      resolve({
        name,
        base,
        pid: child.pid as number,
        child,
        request,
        asTestApp: { request } as unknown as TestApp,
        output: () => out,
        exited,
        async kill(signal) {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill(signal);
          await exited;
        },
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d) => (out += d));
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before it listened:\n${out.slice(-2000)}`));
    });
  });
}

/**
 * An OpenAI-compatible embeddings endpoint (`POST /v1/embeddings` with `{ model, input }`), standing in for the outside
 * service and keeping every text it was asked to embed, so a test can count how often a page was embedded.
 */
export async function startFakeEmbeddings(): Promise<{ url: string; inputs: string[]; stop(): Promise<void> }> {
  const inputs: string[] = [];
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') return void res.writeHead(404).end();
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; input: string[] };
      inputs.push(...body.input);
      const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, inputs, stop: () => new Promise((r) => server.close(() => r())) };
}

/** A small deterministic vector from the text's letters (the index only needs one per passage). */
function vectorOf(text: string): number[] {
  const v = new Array(8).fill(0.01);
  for (let i = 0; i < text.length; i++) v[text.charCodeAt(i) % 8] += 1;
  return v;
}

/** Opens a person's notification stream (Server-Sent Events over fetch, as EventSource reads it) and collects its events. */
export async function openNotificationStream(base: string, token: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/v1/notifications/stream`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  const events: SseEvent[] = [];
  void readSse(res.body, (event) => events.push(event));
  return { res, events, close: () => controller.abort() };
}
