import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { runIndexer } from '../../src/areas/knowledge/knowledge.indexer.js';
import { embedderFor } from '../../src/embeddings/index.js';
import { type Measurement, median } from '../lib/measure.js';
import { processUsage, serviceEnv, startChild, stopChild } from '../lib/service-process.js';
import type { Target } from '../lib/target.js';
import type { ClientFigures } from './mixed-load.client.js';
import { asMeasurement, runClientProcess, seed as seedMixedLoad } from './mixed-load.js';
import type { Scenario } from './types.js';

/** The mixed load's 20 clients: all on one instance, or half on each of two. */
const CONNECTIONS = 20;

interface RunningInstance {
  url: string;
  child: ChildProcess;
  dataDir: string;
}

async function redisUrlIfUp(): Promise<string | undefined> {
  const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 1000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG' ? url : undefined;
  } catch {
    return undefined;
  } finally {
    client.disconnect();
  }
}

/** One service process (`src/main.ts` through tsx, default settings: workers and the knowledge indexer on) on the target's database. */
async function startInstance(databaseUrl: string, shared: Record<string, string>): Promise<RunningInstance> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-bench-instance-'));
  const env = serviceEnv(dataDir, { ...shared, DATABASE_URL: databaseUrl });
  try {
    const { child, match } = await startChild(['--import', 'tsx', 'src/main.ts'], env, /listening on (http:\/\/[^/\s]+)\/api/);
    return { url: match[1], child, dataDir };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/** One knowledge search, so the instance loads its embedding model before it is measured rather than during. */
async function prime(instance: RunningInstance, plan: { key: string; workspaceId: string }) {
  const res = await fetch(`${instance.url}/api/v1/knowledge/search?workspaceId=${plan.workspaceId}&query=${encodeURIComponent('how do we ship a release?')}`, {
    headers: { authorization: `Bearer ${plan.key}` },
  });
  if (!res.ok) throw new Error(`priming ${instance.url}: ${res.status} ${await res.text()}`);
}

async function stopInstance(instance: RunningInstance) {
  await stopChild(instance.child);
  rmSync(instance.dataDir, { recursive: true, force: true });
}

const cpuSecondsOf = (instances: RunningInstance[]) => instances.reduce((sum, i) => sum + processUsage(i.child.pid as number).cpuSeconds, 0);

/**
 * Issue 17's scaling figure: the hardening work's mixed load (20 clients mixing page and task reads and writes and
 * searches, `mixed-load.client.ts`) against one service process, then against two processes on the same PostgreSQL
 * database and Redis with the clients split 10 and 10, in interleaved rounds (1 2, 2 1, …; medians). Both processes
 * run with default settings (workers and the knowledge indexer on). PostgreSQL only: two processes cannot share one
 * PGlite. The service processes, PostgreSQL, Redis and the load generators all share this machine's cores, so the
 * ratio says what a second instance gives here, not on a machine per instance.
 */
export const instances: Scenario = {
  name: 'instances',
  description: 'the mixed load on one service process vs two processes on one PostgreSQL database (clients split over both)',
  async run(target: Target, load) {
    if (target.kind !== 'postgres' || !target.config.DATABASE_URL) {
      console.log('  skipped: two instances need a PostgreSQL server (run with DATABASE_URL)');
      return { measurements: [], ratios: [] };
    }
    const plan = await seedMixedLoad(target);
    await runIndexer(target.database.db, embedderFor(target.config), { ...target.config, KNOWLEDGE_INDEX_BUDGET_MS: 600_000, KNOWLEDGE_INDEX_MAX_PAGES: 1e6 });
    const redisUrl = await redisUrlIfUp();
    // What must match on every instance: the database (given), Redis and the JWT secret.
    const shared: Record<string, string> = { JWT_SECRET: `bench-${randomUUID()}`, ...(redisUrl ? { REDIS_URL: redisUrl } : {}) };
    console.log(`  ${cpus().length} cores; Redis ${redisUrl ? `at ${redisUrl}` : 'not answering: the instances count rate limits apart'}`);

    const first = await startInstance(target.config.DATABASE_URL, shared);
    await prime(first, plan);
    let second: RunningInstance | null = null;
    const runs: ClientFigures[][] = [[], []];
    const cpuPerRequest: number[][] = [[], []];
    const failures: string[] = [];
    const rounds = Math.max(2, load.rounds ?? 1);
    try {
      for (let round = 0; round < rounds; round++) {
        for (const two of round % 2 ? [true, false] : [false, true]) {
          // The second process is stopped in the one-instance rounds: its workers would otherwise share the background work.
          if (two && !second) {
            second = await startInstance(target.config.DATABASE_URL, shared);
            await prime(second, plan);
          }
          if (!two && second) {
            await stopInstance(second);
            second = null;
          }
          const live = second ? [first, second] : [first];
          const plans = live.map((i) => ({
            ...plan,
            pageIds: [...plan.pageIds],
            taskIds: [...plan.taskIds],
            url: i.url,
            connections: CONNECTIONS / live.length,
          }));
          if (load.warmup > 0) await Promise.all(plans.map((p) => runClientProcess({ ...p, durationS: load.warmup })));
          const cpuBefore = cpuSecondsOf(live);
          const groups = await Promise.all(plans.map((p) => runClientProcess({ ...p, durationS: load.duration })));
          const cpuUsed = cpuSecondsOf(live) - cpuBefore;
          const merged = mergeGroups(groups);
          runs[two ? 1 : 0].push(merged);
          cpuPerRequest[two ? 1 : 0].push(merged.requests ? (cpuUsed * 1e6) / merged.requests : 0);
          failures.push(...merged.failures);
        }
      }
    } finally {
      if (second) await stopInstance(second);
      await stopInstance(first);
    }
    const one = withCpu(asMeasurement('(1) one instance, 20 clients', runs[0]), cpuPerRequest[0]);
    const two = withCpu(asMeasurement('(2) two instances, 10 clients on each', runs[1]), cpuPerRequest[1]);
    if (failures.length) console.log(`  failed requests (first few): ${[...new Set(failures)].slice(0, 5).join(' | ')}`);
    console.log(
      '  p99 of (2): the higher of its two client groups’ p99s. CPU µs/req: the service processes only (PostgreSQL, Redis and the clients not counted).',
    );
    return {
      measurements: [one, two],
      ratios: [
        { label: 'throughput two instances / one', value: two.reqPerSec / one.reqPerSec },
        { label: 'p99 two instances / one', value: two.p99 / one.p99 },
      ],
    };
  },
};

/** Two client groups' figures as one run: requests and rates add up; p50 is request-weighted, p99 the higher one. */
function mergeGroups(groups: ClientFigures[]): ClientFigures {
  const requests = groups.reduce((s, g) => s + g.requests, 0);
  return {
    requests,
    errors: groups.reduce((s, g) => s + g.errors, 0),
    reqPerSec: groups.reduce((s, g) => s + g.reqPerSec, 0),
    p50: requests ? groups.reduce((s, g) => s + g.p50 * g.requests, 0) / requests : 0,
    p99: Math.max(...groups.map((g) => g.p99)),
    byKind: {},
    p99ByKind: {},
    failures: groups.flatMap((g) => g.failures),
  };
}

function withCpu(m: Measurement, cpuPerRequest: number[]): Measurement {
  return { ...m, cpuPerRequest: cpuPerRequest.length ? median(cpuPerRequest) : 0 };
}
