/**
 * The co-editing bench's editors spread over client processes (collab-editor-process.ts, forked through tsx), so that
 * at N=50 the clients' own applying of ~24,000 updates a second is not one event loop's backlog. Each round, every
 * process types on the same schedule (a start time on the shared clock); their events are merged into one
 * `InsertLedger`, so the figures are those of `typeTogether` with every editor in one process.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FromEditors, ToEditors } from './collab-editor-process.js';
import { sharedNow, type Transport } from './collab-editors.js';
import { type ConvergenceFigures, InsertLedger } from './convergence.js';
import { processUsage } from './service-process.js';

/** How one client process did over a round (or pooled rounds). */
export interface EditorProcessFigures {
  keystrokes: number;
  planned: number;
  /** Its CPU time (user + system), ms. */
  cpuMs: number;
  /** Its event-loop delay p99 over its rounds so far on this transport, ms. */
  loopP99Ms: number;
}

export interface EditorsRound {
  figures: ConvergenceFigures;
  processes: EditorProcessFigures[];
}

/** COLLAB_BENCH_CLIENT_NODE_ARGS: extra Node arguments for the client processes, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`. */
const CHILD = fileURLToPath(new URL('./collab-editor-process.ts', import.meta.url));

/** A forked client process and its request/answer channel (one request at a time). */
function editorProcess() {
  const execArgv = ['--import', 'tsx', ...(process.env.COLLAB_BENCH_CLIENT_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
  const child: ChildProcess = fork(CHILD, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let waiting: { kind: FromEditors['kind']; resolve: (m: FromEditors) => void; reject: (e: Error) => void } | null = null;
  let exited: Error | null = null;
  const answer = <K extends FromEditors['kind']>(kind: K) =>
    new Promise<Extract<FromEditors, { kind: K }>>((resolve, reject) => {
      if (exited) return reject(exited);
      waiting = { kind, resolve: resolve as (m: FromEditors) => void, reject };
    });
  child.on('message', (m: FromEditors) => {
    const w = waiting;
    waiting = null;
    if (w?.kind === m.kind) w.resolve(m);
    else w?.reject(new Error(`client process ${child.pid}: expected ${w.kind}, got ${m.kind}`));
  });
  child.on('exit', (code) => {
    exited = new Error(`client process ${child.pid} exited (${code})`);
    waiting?.reject(exited);
  });
  const ready = answer('ready');
  return {
    child,
    ready,
    request<K extends FromEditors['kind']>(message: ToEditors, kind: K) {
      const a = answer(kind);
      child.send(message);
      return a;
    },
  };
}

/** `editors` on each transport, spread as evenly as can be over `count` processes, connected and synced. */
export async function startEditorProcesses(
  count: number,
  editors: number,
  setup: { serviceUrl: string; pageId: string; token: string; relayPort: number; seed: Uint8Array },
) {
  const shares = Array.from({ length: Math.min(count, editors) }, (_, i) => Math.floor(editors / count) + (i < editors % count ? 1 : 0));
  const processes = shares.map(editorProcess);
  const close = () => {
    for (const p of processes) if (p.child.connected) p.child.send({ kind: 'close' } satisfies ToEditors);
  };
  try {
    await Promise.all(processes.map((p) => p.ready));
    await Promise.all(processes.map((p, i) => p.request({ kind: 'connect', ...setup, editors: shares[i] }, 'connected')));
  } catch (err) {
    close();
    throw err;
  }
  return {
    pids: processes.map((p) => p.child.pid as number),
    /** Every process types for `seconds` from a common start, then waits (up to `drainMs`) for every insert. */
    async round(transport: Transport, seconds: number, everyMs: number, drainMs: number, seed: number): Promise<EditorsRound> {
      const startAt = sharedNow() + 300;
      const before = processes.map((p) => processUsage(p.child.pid as number));
      const typed = await Promise.all(
        processes.map((p, i) => p.request({ kind: 'type', transport, startAt, seconds, everyMs, seed: seed * 101 + i }, 'typed')),
      );
      const expected = typed.flatMap((t) => t.finalClocks);
      const drained = await Promise.all(processes.map((p) => p.request({ kind: 'drain', expected, drainMs }, 'drained')));
      const after = processes.map((p) => processUsage(p.child.pid as number));
      const ledger = new InsertLedger(editors);
      for (const { keystrokes: k } of drained) for (let i = 0; i < k.length; i += 3) ledger.typed(k[i], k[i + 1], k[i + 2]);
      const arrivals = drained.flatMap(({ arrivals: a }) => Array.from({ length: a.length / 4 }, (_, i) => a.subarray(i * 4, i * 4 + 4)));
      arrivals.sort((x, y) => x[3] - y[3]);
      for (const a of arrivals) ledger.arrived(a[0], a[1], a[2], a[3]);
      const contents = drained.flatMap((d) => d.contents);
      return {
        figures: ledger.figures(contents.every((c) => c === contents[0])),
        processes: drained.map((d, i) => ({
          keystrokes: d.keystrokes.length / 3,
          planned: shares[i] * (1000 / everyMs) * seconds,
          cpuMs: (after[i].cpuSeconds - before[i].cpuSeconds) * 1000,
          loopP99Ms: d.loopP99Ms,
        })),
      };
    },
    close,
  };
}
