/**
 * The mixed-load bench's clients, run in a process of their own (so they never share the service's event loop or
 * CPU account): CONNECTIONS clients, each sending one request after another for DURATION seconds, drawn from a mix of
 * page reads and writes, task reads and writes, full-text and knowledge searches. Prints one JSON line of figures.
 * Input: the MIXED_LOAD environment variable, a JSON `ClientPlan`.
 */
import http from 'node:http';

export interface ClientPlan {
  url: string;
  key: string;
  workspaceId: string;
  spaceId: string;
  pageIds: string[];
  taskIds: string[];
  connections: number;
  durationS: number;
}

export interface ClientFigures {
  requests: number;
  errors: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Requests by kind, to check the mix. */
  byKind: Record<string, number>;
  /** p99 latency by kind (ms), to see which requests a slow p99 comes from. */
  p99ByKind: Record<string, number>;
  /** The first few failures, for the report. */
  failures: string[];
}

type Call = { kind: string; method: string; path: string; body?: unknown };

const WORDS = ['deploy', 'rollback', 'incident', 'budget', 'roadmap', 'onboarding', 'latency', 'migration', 'vacation', 'security', 'review', 'release'];
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
const markdown = () => `# ${sentence(3)}\n\n${sentence(60)}.\n\n## ${sentence(2)}\n\n${sentence(80)}.`;

/** The mix, by weight: reads dominate, as on a team's knowledge base; every write of a page leaves the indexer work. */
function nextCall(plan: ClientPlan): Call {
  const ws = plan.workspaceId;
  const r = Math.random() * 100;
  if (r < 35) return { kind: 'page read', method: 'GET', path: `/api/v1/pages/${pick(plan.pageIds)}` };
  if (r < 40)
    return {
      kind: 'page create',
      method: 'POST',
      path: '/api/v1/pages',
      body: { workspaceId: ws, spaceId: plan.spaceId, title: sentence(3), markdown: markdown() },
    };
  if (r < 50) return { kind: 'page update', method: 'PUT', path: `/api/v1/pages/${pick(plan.pageIds)}`, body: { markdown: markdown() } };
  if (r < 65) return { kind: 'task read', method: 'GET', path: `/api/v1/tasks/${pick(plan.taskIds)}` };
  if (r < 70) return { kind: 'task create', method: 'POST', path: '/api/v1/tasks', body: { workspaceId: ws, title: sentence(4), description: sentence(20) } };
  if (r < 75) return { kind: 'task update', method: 'PUT', path: `/api/v1/tasks/${pick(plan.taskIds)}`, body: { title: sentence(4) } };
  if (r < 90) return { kind: 'search', method: 'GET', path: `/api/v1/search?workspaceId=${ws}&query=${encodeURIComponent(sentence(2))}` };
  return {
    kind: 'knowledge search',
    method: 'GET',
    path: `/api/v1/knowledge/search?workspaceId=${ws}&query=${encodeURIComponent(`how do we ${sentence(3)}?`)}`,
  };
}

function send(agent: http.Agent, plan: ClientPlan, call: Call): Promise<{ status: number; body: string }> {
  const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${plan.url}${call.path}`,
      {
        method: call.method,
        agent,
        headers: {
          authorization: `Bearer ${plan.key}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0);

export async function runClients(plan: ClientPlan): Promise<ClientFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: plan.connections });
  const latencies: number[] = [];
  const byKind: Record<string, number> = {};
  const latencyByKind: Record<string, number[]> = {};
  const failures: string[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + plan.durationS * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const call = nextCall(plan);
      const t0 = performance.now();
      try {
        const res = await send(agent, plan, call);
        const ms = performance.now() - t0;
        latencies.push(ms);
        byKind[call.kind] = (byKind[call.kind] ?? 0) + 1;
        latencyByKind[call.kind] ??= [];
        latencyByKind[call.kind].push(ms);
        if (res.status >= 300) {
          errors++;
          if (failures.length < 5) failures.push(`${call.kind}: ${res.status} ${res.body.slice(0, 200)}`);
        } else if (call.kind === 'page create') plan.pageIds.push(JSON.parse(res.body).data.id);
        else if (call.kind === 'task create') plan.taskIds.push(JSON.parse(res.body).data.id);
      } catch (err) {
        errors++;
        if (failures.length < 5) failures.push(`${call.kind}: ${(err as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: plan.connections }, client));
  const elapsedS = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    reqPerSec: latencies.length / elapsedS,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    byKind,
    p99ByKind: Object.fromEntries(
      Object.entries(latencyByKind).map(([kind, list]) => [
        kind,
        Math.round(
          percentile(
            list.sort((a, b) => a - b),
            99,
          ),
        ),
      ]),
    ),
    failures,
  };
}

if (process.env.MIXED_LOAD) {
  const figures = await runClients(JSON.parse(process.env.MIXED_LOAD) as ClientPlan);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}
