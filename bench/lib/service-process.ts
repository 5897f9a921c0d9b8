import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DatabaseKind, freshDatabase } from './target.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** What the kernel says a process has used: CPU time of all its threads (user + system) and resident memory. */
export interface ProcessUsage {
  cpuSeconds: number;
  rssMb: number;
  at: number;
}

/** Reads /proc/<pid>/stat (utime, stime) and /proc/<pid>/status (VmRSS). */
export function processUsage(pid: number): ProcessUsage {
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { cpuSeconds: ticks / TICKS_PER_SECOND, rssMb: rssKb / 1024, at: performance.now() };
}

/** A Node child process started from the repository root, once `ready` shows in its output (the match is returned). */
export function startChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  timeoutMs = 120_000,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the child (${args.join(' ')}) was not ready in ${timeoutMs} ms: ${out.slice(-800)}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      out += d;
      const match = ready.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stdout?.resume();
      resolve({ child, match });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d) => {
      out += d;
      if (process.env.BENCH_CHILD_STDERR) process.stderr.write(d);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!ready.test(out)) reject(new Error(`the child (${args.join(' ')}) exited (${code}) before it was ready: ${out.slice(-800)}`));
    });
  });
}

/** Stops a child with SIGTERM (its own clean shutdown), then SIGKILL after `graceMs`. */
export function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * The environment of a service process started by a bench: this process's own, less its database and Redis, with
 * `dataDir`, a port of its own on 127.0.0.1, warnings only and rate limits (and the co-editing sockets per address)
 * out of reach (they still count every request); `settings` go over it.
 */
export function serviceEnv(dataDir: string, settings: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _server, REDIS_URL: _redis, ...inherited } = process.env;
  return {
    ...inherited,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: String(1e9),
    AUTH_RATE_LIMIT_MAX: String(1e9),
    AUTH_RATE_LIMIT_PER_EMAIL: String(1e9),
    // Every simulated editor connects from 127.0.0.1.
    COLLAB_MAX_SOCKETS_PER_CLIENT: String(1e6),
    ...settings,
  };
}

/** The service in a process of its own, so its CPU and memory can be read from /proc. */
export interface ServiceProcess {
  kind: DatabaseKind;
  /** `http://127.0.0.1:<port>` of the service. */
  url: string;
  pid: number;
  usage(): ProcessUsage;
  /** The process's memory just after a full garbage collection (asked for by signal, answered on its stdout), MB. */
  memoryAfterGc(): Promise<{ rssMb: number; heapUsedMb: number; externalMb: number }>;
  stop(): Promise<void>;
}

/**
 * Loaded before the service (with --expose-gc): on SIGUSR2, a full collection, then the process's memory as one line
 * on stdout. The only thing the bench adds to the service process; the service's code is untouched.
 */
const GC_ON_SIGNAL = `process.on('SIGUSR2', () => { globalThis.gc(); console.log('kb-bench-memory ' + JSON.stringify(process.memoryUsage())); });`;
const MEMORY_LINE = /kb-bench-memory (\{[^\n]*\})/;

/**
 * The service as `src/main.ts` runs it (through tsx: the source as it is now, no build), on a fresh database: PGlite in
 * a temporary folder (inside the child), or a new database on the DATABASE_URL server (dropped by `stop`). Rate limits
 * are raised out of reach (they still count every request); `settings` are more environment variables.
 */
export async function startServiceProcess(kind: DatabaseKind, settings: Record<string, string> = {}): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-bench-service-'));
  let dropDatabase = async () => {};
  let url: string | undefined;
  if (kind === 'postgres') {
    const fresh = await freshDatabase('postgres', dataDir);
    await fresh.database.close(); // the child opens its own pool; this process only drops the database after
    url = fresh.url;
    dropDatabase = fresh.drop;
  }
  const env = serviceEnv(dataDir, { ...(url ? { DATABASE_URL: url } : {}), ...settings });
  const cleanUp = async () => {
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const preload = `data:text/javascript,${encodeURIComponent(GC_ON_SIGNAL)}`;
    const args = ['--expose-gc', '--import', preload, '--import', 'tsx', 'src/main.ts'];
    const { child, match } = await startChild(args, env, /listening on (http:\/\/[^/\s]+)\/api/);
    const pid = child.pid as number;
    return {
      kind,
      url: match[1],
      pid,
      usage: () => processUsage(pid),
      memoryAfterGc: () =>
        new Promise((resolve) => {
          let out = '';
          const onData = (d: Buffer) => {
            out += d;
            const line = MEMORY_LINE.exec(out);
            if (!line) return;
            child.stdout?.off('data', onData);
            const m = JSON.parse(line[1]) as NodeJS.MemoryUsage;
            const mb = (x: number) => x / 1024 / 1024;
            resolve({ rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), externalMb: mb(m.external) });
          };
          child.stdout?.on('data', onData);
          child.kill('SIGUSR2');
        }),
      async stop() {
        await stopChild(child);
        await cleanUp();
      },
    };
  } catch (err) {
    await cleanUp();
    throw err;
  }
}
