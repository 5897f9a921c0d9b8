/**
 * Import/export (issue 14): `npx tsx bench/import-export.ts`. The service runs in a child process (`src/main.ts`
 * through tsx, WORKERS=2 so the export and import jobs run in it) on a fresh PGlite folder, then on a fresh PostgreSQL
 * database when DATABASE_URL is set; its RSS and CPU are read from /proc. For each size (IMPORT_EXPORT_BENCH_SIZES,
 * `pages:attachments,…`, default `1000:200,250:50`, each in a service process of its own):
 * 1. Seed through the API: one space, subtrees of 50 pages four levels deep, every page using every node and mark of
 *    the schema and naming other pages (mention, web-app link, API link) and attachments (image, download link); the
 *    attachments are random bytes of 2–200 KB (PNG- and PDF-looking), uploaded through /api/v1/attachments.
 * 2. Baseline: every page read once (`GET /api/v1/pages/{id}`, JSON) and every attachment downloaded, one request at
 *    a time (the export is one job: one reader).
 * 3. Export the space as Markdown: POST, poll every 100 ms, download the zip; timed from the POST to the last byte.
 * 4. Import that zip into a new space: multipart POST, poll every 100 ms; timed from the POST to `succeeded`.
 *    For 3 and 4: the service's RSS sampled every 50 ms, its peak against its RSS just before (after a full GC).
 * 5. Round trip: both spaces read back through the API and compared with ids mapped (see lib/import-export-compare.ts):
 *    the tree (nesting, titles, sibling order), each page's content JSON, each attachment's bytes, name and type.
 * The knowledge indexer is kept from running (KNOWLEDGE_INDEX_EVERY_MS far out; it only runs once at start, on an
 * empty database): it would load an embedding model into the same process and measure that instead.
 */
import { type PageView, compareSpaces, readSpace } from './lib/import-export-compare.js';
import { type Api, pollJob, seedSpace, signUp } from './lib/import-export-api.js';
import { planAttachments, planTree, seeded } from './lib/import-export-content.js';
import { processUsage, type ServiceProcess, startServiceProcess } from './lib/service-process.js';
import type { DatabaseKind } from './lib/target.js';

const SIZES = (process.env.IMPORT_EXPORT_BENCH_SIZES ?? '1000:200,250:50').split(',').map((s) => {
  const [pages, attachments] = s.split(':').map(Number);
  return { pages, attachments };
});
const SHOWN_DIFFERENCES = 10;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

interface Watched<T> {
  result: T;
  ms: number;
  rssBeforeMb: number;
  peakRssMb: number;
  cpuSeconds: number;
}

/** `work` timed, with the service's RSS sampled every 50 ms (after a full GC in the service, so garbage left by seeding is not counted). */
async function watched<T>(service: ServiceProcess, work: () => Promise<T>): Promise<Watched<T>> {
  await service.memoryAfterGc();
  const before = processUsage(service.pid);
  let peak = before.rssMb;
  const sampler = setInterval(() => (peak = Math.max(peak, processUsage(service.pid).rssMb)), 50);
  const t0 = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - t0;
    const end = processUsage(service.pid);
    return { result, ms, rssBeforeMb: before.rssMb, peakRssMb: Math.max(peak, end.rssMb), cpuSeconds: end.cpuSeconds - before.cpuSeconds };
  } finally {
    clearInterval(sampler);
  }
}

const rssLine = (w: Watched<unknown>) =>
  `RSS ${w.rssBeforeMb.toFixed(0)} → peak ${w.peakRssMb.toFixed(0)} MB (+${(w.peakRssMb - w.rssBeforeMb).toFixed(0)}), service CPU ${w.cpuSeconds.toFixed(1)} s`;

/** Every page read once and every attachment downloaded, one request at a time: what the export has to read. */
async function readEverything(api: Api, pageIds: string[], attachmentIds: string[]) {
  let bytes = 0;
  for (const id of pageIds) bytes += JSON.stringify(await api.call('GET', `/api/v1/pages/${id}`)).length;
  for (const id of attachmentIds) bytes += (await api.download(`/api/v1/attachments/${id}/download`)).length;
  return bytes;
}

async function exportSpace(api: Api, workspaceId: string, spaceId: string) {
  const started = await api.call('POST', '/api/v1/exports', { workspaceId, spaceId, format: 'markdown' });
  const done = await pollJob(api, `/api/v1/exports/${started.id}`);
  return api.download(done.downloadUrl);
}

async function importZip(api: Api, workspaceId: string, spaceId: string, zip: Buffer) {
  const started = await api.upload('/api/v1/imports', { workspaceId, spaceId, source: 'markdown' }, { bytes: zip, filename: 'Handbook.zip' });
  return pollJob(api, `/api/v1/imports/${started.id}`);
}

interface Row {
  kind: DatabaseKind;
  pages: number;
  attachments: number;
  baselineMs: number;
  exported: Watched<Buffer>;
  imported: Watched<{ warnings: unknown[] }>;
  differences: number;
}

async function runSize(kind: DatabaseKind, size: { pages: number; attachments: number }): Promise<Row> {
  const service = await startServiceProcess(kind, { WORKERS: '2', KNOWLEDGE_INDEX_EVERY_MS: '2000000000' });
  try {
    console.log(
      `\n== ${kind}, ${size.pages} pages and ${size.attachments} attachments: the service in process ${service.pid}, RSS ${service.usage().rssMb.toFixed(0)} MB at start`,
    );
    let t0 = performance.now();
    const plan = planTree(size.pages);
    const files = planAttachments(plan, size.attachments, seeded(size.pages));
    const { api, workspace } = await signUp(service.url);
    const seededSpace = await seedSpace(api, workspace, plan, files);
    console.log(`  seeded through the API in ${seconds(performance.now() - t0)} (${mb(files.reduce((t, f) => t + f.bytes.length, 0))} of attachments)`);

    t0 = performance.now();
    const read = await readEverything(
      api,
      seededSpace.pages.map((p) => p.id),
      seededSpace.attachments.map((a) => a.id),
    );
    const baselineMs = performance.now() - t0;
    console.log(`  baseline, every page and attachment read one at a time: ${seconds(baselineMs)} (${mb(read)})`);

    const exported = await watched(service, () => exportSpace(api, workspace.id, seededSpace.space.id));
    console.log(
      `  export as Markdown, POST to last byte: ${seconds(exported.ms)} (${(exported.ms / baselineMs).toFixed(2)}× baseline), zip ${mb(exported.result.length)}; ${rssLine(exported)}`,
    );

    const copy = await api.call('POST', '/api/v1/spaces', { workspaceId: workspace.id, name: `Handbook ${size.pages} imported` });
    const imported = await watched(service, () => importZip(api, workspace.id, copy.id, exported.result));
    const { result, warnings } = imported.result;
    console.log(
      `  import of that zip, POST to succeeded: ${seconds(imported.ms)} (${(imported.ms / baselineMs).toFixed(2)}× baseline), ${result.pages} pages and ${result.attachments} attachments, ${warnings.length} warnings; ${rssLine(imported)}`,
    );
    for (const w of warnings.slice(0, 5)) console.log(`    warning: ${w.path}: ${w.message}`);

    const [before, after] = [await readSpace(api, workspace.id, seededSpace.space.id), await readSpace(api, workspace.id, copy.id)];
    return { kind, ...size, baselineMs, exported, imported: imported as Row['imported'], differences: reportRoundTrip(before, after) };
  } finally {
    await service.stop();
  }
}

/** Prints "round trip: identical" or each kind of difference (at most SHOWN_DIFFERENCES) with its smallest example. */
function reportRoundTrip(before: PageView[], after: PageView[]) {
  const differences = compareSpaces(before, after);
  if (!differences.length) {
    console.log(`  round trip: identical (${before.length} pages, ${before.reduce((t, p) => t + p.files.length, 0)} attachments)`);
    return 0;
  }
  console.log(`  round trip: ${differences.length} kinds of difference${differences.length > SHOWN_DIFFERENCES ? `, the first ${SHOWN_DIFFERENCES}` : ''}:`);
  for (const d of differences.slice(0, SHOWN_DIFFERENCES)) {
    console.log(`    ${d.kind}: on ${d.count} page(s), first on ${d.page}`);
    console.log(`      before: ${d.before}`);
    console.log(`      after:  ${d.after}`);
  }
  return differences.length;
}

function printTable(rows: Row[]) {
  const head = ['database', 'pages', 'files', 'baseline', 'export', '×', 'import', '×', 'zip', 'export RSS +', 'import RSS +', 'round trip'];
  const cells = rows.map((r) => [
    r.kind,
    String(r.pages),
    String(r.attachments),
    seconds(r.baselineMs),
    seconds(r.exported.ms),
    (r.exported.ms / r.baselineMs).toFixed(2),
    seconds(r.imported.ms),
    (r.imported.ms / r.baselineMs).toFixed(2),
    mb(r.exported.result.length),
    `${(r.exported.peakRssMb - r.exported.rssBeforeMb).toFixed(0)} MB`,
    `${(r.imported.peakRssMb - r.imported.rssBeforeMb).toFixed(0)} MB`,
    r.differences ? `${r.differences} kinds of difference` : 'identical',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `  ${c.map((x, i) => (i < 1 || i === c.length - 1 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join('  ')}`;
  console.log(`\n${line(head)}`);
  for (const c of cells) console.log(line(c));
}

// IMPORT_EXPORT_BENCH_KINDS (e.g. `postgres`) runs only those of the default kinds.
const kinds = (process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']) as DatabaseKind[];
const rows: Row[] = [];
for (const kind of kinds.filter((k) => !process.env.IMPORT_EXPORT_BENCH_KINDS || process.env.IMPORT_EXPORT_BENCH_KINDS.split(',').includes(k)))
  for (const size of SIZES) rows.push(await runSize(kind, size));
printTable(rows);
process.exit(0);
