/**
 * Start-up time and idle memory of the service: `npx tsx bench/startup.ts` (STARTUP_BENCH_RUNS, default 5).
 * Runs, interleaved on fresh databases (PGlite in a temporary folder; a new database on the DATABASE_URL server too
 * when it is set):
 * - (before) the source through the TypeScript loader at run time, as `npm start` did before the production build:
 *   `node --import tsx src/main.ts`;
 * - (after) the compiled build, as `npm start` runs it now: `node dist/main.js` (run `npm run build` first).
 * Start-up is from spawning the process to its "listening on" line (migrations on an empty database included); idle
 * RSS is read 10 s later. Figures are medians, with after/before ratios.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median } from './lib/measure.js';
import { processUsage, serviceEnv, startChild, stopChild } from './lib/service-process.js';
import { type DatabaseKind, freshDatabase } from './lib/target.js';

const RUNS = Number(process.env.STARTUP_BENCH_RUNS ?? 5);
const SETTLE_MS = 10_000;
const MODES = {
  before: ['--import', 'tsx', 'src/main.ts'],
  after: ['dist/main.js'],
} as const;
type Mode = keyof typeof MODES;

async function startOnce(kind: DatabaseKind, mode: Mode): Promise<{ startMs: number; rssMb: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-bench-startup-'));
  let drop = async () => {};
  let url = '';
  if (kind === 'postgres') {
    const fresh = await freshDatabase('postgres', dataDir);
    await fresh.database.close();
    url = fresh.url ?? '';
    drop = fresh.drop;
  }
  const env = serviceEnv(dataDir, { DATABASE_URL: url });
  try {
    const started = performance.now();
    const { child } = await startChild([...MODES[mode]], env, /listening on/);
    const startMs = performance.now() - started;
    try {
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      return { startMs, rssMb: processUsage(child.pid!).rssMb };
    } finally {
      await stopChild(child);
    }
  } finally {
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!existsSync('dist/main.js')) throw new Error('dist/main.js is missing: run `npm run build` first');
const kinds: DatabaseKind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
for (const kind of kinds) {
  const figures: Record<Mode, { startMs: number[]; rssMb: number[] }> = { before: { startMs: [], rssMb: [] }, after: { startMs: [], rssMb: [] } };
  for (let run = 0; run < RUNS; run++) {
    for (const mode of (run % 2 ? ['after', 'before'] : ['before', 'after']) as Mode[]) {
      const once = await startOnce(kind, mode);
      figures[mode].startMs.push(once.startMs);
      figures[mode].rssMb.push(once.rssMb);
    }
  }
  const m = (mode: Mode, what: 'startMs' | 'rssMb') => median(figures[mode][what]);
  console.log(`[${kind}] ${RUNS} interleaved runs, medians`);
  for (const mode of ['before', 'after'] as Mode[])
    console.log(
      `  ${mode === 'before' ? 'before: tsx src/main.ts ' : 'after:  node dist/main.js'}  start-up ${m(mode, 'startMs').toFixed(0)} ms, idle RSS ${m(mode, 'rssMb').toFixed(0)} MB`,
    );
  console.log(
    `  after/before: start-up ${(m('after', 'startMs') / m('before', 'startMs')).toFixed(2)}, idle RSS ${(m('after', 'rssMb') / m('before', 'rssMb')).toFixed(2)}`,
  );
}
