import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import { TokenIssuer } from '../../src/areas/auth/tokens.js';
import { createResearchHandler, RESEARCH_JOB_KIND } from '../../src/areas/research/research.runner.js';
import { createBlobStore } from '../../src/blobs/index.js';
import type { Config } from '../../src/config.js';
import { Worker } from '../../src/jobs/worker.js';
import { TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

/** A real worker over the test database running only the research handler, polling often. */
export function researchWorker(t: TestApp, opts: { leaseMs?: number; concurrency?: number; config?: Partial<Config> } = {}) {
  const env = { config: { ...t.config, ...opts.config }, tokens: new TokenIssuer(TEST_JWT_SECRET, 3600), blobs: createBlobStore(t.config) };
  const worker = new Worker({
    db: t.database.db,
    env,
    handlers: new Map([[RESEARCH_JOB_KIND, createResearchHandler(env)]]),
    concurrency: opts.concurrency ?? 2,
    pollMs: 20,
    leaseMs: opts.leaseMs ?? 600,
    baseBackoffMs: 10,
  });
  worker.start();
  return worker;
}

export const researchUrl = (ws: string, rest = '') => `/api/workspaces/${ws}/research${rest}`;

export async function createJob(t: TestApp, ws: string, user: TestUser, body: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url: researchUrl(ws), token: user.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; status: string };
}

/** Polls the status view until `done` says so (or the time runs out: the last view is returned either way). */
export async function waitForJob(
  t: TestApp,
  ws: string,
  user: TestUser,
  id: string,
  done = (s: string) => ['completed', 'failed', 'cancelled'].includes(s),
  ms = 20_000,
) {
  const until = Date.now() + ms;
  for (;;) {
    const res = await t.request({ url: researchUrl(ws, `/${id}`), token: user.token });
    expect(res.status).toBe(200);
    if (done(res.body.status) || Date.now() > until) return res.body;
    await new Promise((r) => setTimeout(r, 30));
  }
}

export async function makeSpace(t: TestApp, ws: string, admin: TestUser, name: string, visibility: 'public' | 'private' = 'public') {
  const res = await t.request({ method: 'POST', url: '/api/v1/spaces', token: admin.token, body: { workspaceId: ws, name, visibility } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}

export async function makePage(t: TestApp, ws: string, user: TestUser, spaceId: string, title: string, markdown: string) {
  const res = await t.request({ method: 'POST', url: '/api/v1/pages', token: user.token, body: { workspaceId: ws, spaceId, title, markdown } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}

type Route = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void | Promise<void>;

/** A real HTTP server on 127.0.0.1 answering by path prefix; records the requests it saw. */
export async function fakeServer(routes: Record<string, Route>) {
  const seen: { method: string; url: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', async () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      const path = (req.url ?? '').split('?')[0];
      const key = Object.keys(routes)
        .filter((k) => path.startsWith(k))
        .sort((a, b) => b.length - a.length)[0];
      if (!key) {
        res.writeHead(404).end('not found');
        return;
      }
      try {
        await routes[key](req, res, body);
      } catch {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

export const html = (res: http.ServerResponse, title: string, paragraphs: string[]) => {
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(
      `<!doctype html><html><head><title>${title}</title><script>var tracking = "ignore me";</script></head><body><nav>Home | About</nav><main><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</main><footer>Copyright</footer></body></html>`,
    );
};

/** A git repository with one commit on `main`, made with the git binary. */
export function makeGitRepo(dir: string, files: Record<string, string | Buffer>) {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env: { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' },
      stdio: 'pipe',
    });
  git('init', '--quiet', '--initial-branch=main');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  git('add', '-A');
  git('commit', '--quiet', '-m', 'initial');
}
