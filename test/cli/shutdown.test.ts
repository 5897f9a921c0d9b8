import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './run-cli.js';

/**
 * The real service process (`src/main.ts`, as `npm start` runs it) on a PGlite data folder: SIGTERM while a write is
 * in flight lets it finish, the process exits 0, and a restart on the same folder has the data and the sessions.
 * PGlite only: the data folder is what is at stake (on PostgreSQL the server keeps the data).
 */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

interface Service {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  /** Resolves when a line of the service's output matches. */
  waitFor: (pattern: RegExp, ms?: number) => Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startService(dataDir: string, port: number): Service {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', JWT_SECRET: '', REDIS_URL: '', LOG_LEVEL: 'info' },
  });
  let out = '';
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];
  const onData = (d: Buffer) => {
    out += d;
    for (const w of [...waiters])
      if (w.pattern.test(out)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => out,
    exited,
    waitFor: (pattern, ms = 120_000) =>
      new Promise<void>((resolve, reject) => {
        if (pattern.test(out)) return resolve();
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; output so far:\n${out}`)), ms);
        waiters.push({
          pattern,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
        exited.then(() => reject(new Error(`service exited while waiting for ${pattern}; output:\n${out}`)));
      }),
  };
}

/** Exit code and how long the process took to exit after the signal. */
async function stop(service: Service, signal: NodeJS.Signals) {
  const started = Date.now();
  service.child.kill(signal);
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no exit 10 s after ${signal}:\n${service.output()}`)), 10_000));
  const result = await Promise.race([service.exited, timeout]);
  return { ...result, ms: Date.now() - started };
}

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });

describe.skipIf(!!process.env.DATABASE_URL)('graceful shutdown (PGlite)', { timeout: 240_000 }, () => {
  let dataDir: string;
  let running: Service | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'kb-shutdown-'));
  });
  afterAll(() => {
    if (running && running.child.exitCode === null) running.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes an in-flight signup on SIGTERM, exits 0, and keeps the account and the session after a restart', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api`;
    running = startService(dataDir, port);
    await running.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+\/api/);

    // A signup (scrypt hashing, then an insert) is in flight when the signal arrives: it must complete.
    const signup = fetch(`${base}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'keeper@example.com', name: 'Keeper', password: 'correct horse battery' }),
    });
    await running.waitFor(/"msg":"incoming request"[^\n]*/);
    const stopping = stop(running, 'SIGTERM');
    const created = await json(await signup);
    expect(created.status).toBe(201);
    const token: string = created.body.data.token;
    const exit = await stopping;
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.ms).toBeLessThan(10_000);
    expect(running.output()).toContain('shutting down');

    const port2 = await freePort();
    const base2 = `http://127.0.0.1:${port2}/api`;
    running = startService(dataDir, port2);
    await running.waitFor(/listening on/);
    const login = await json(
      await fetch(`${base2}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'keeper@example.com', password: 'correct horse battery' }),
      }),
    );
    expect(login.status).toBe(200);
    expect(login.body.data.user).toMatchObject({ id: created.body.data.user.id, email: 'keeper@example.com' });
    // The JWT secret was persisted under DATA_DIR: the session from before the restart is still good.
    const me = await json(await fetch(`${base2}/v1/users/me`, { headers: { authorization: `Bearer ${token}` } }));
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe('keeper@example.com');

    const second = await stop(running, 'SIGINT');
    expect(second).toMatchObject({ code: 0, signal: null });
  });
});
