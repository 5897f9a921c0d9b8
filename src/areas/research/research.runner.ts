import type { FastifyBaseLogger } from 'fastify';
import { createLogger } from '../../logging.js';
import type { Ctx, ServiceEnv } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { ResearchCoverage, ResearchReportData, ResearchSource } from '../../db/tables/research.js';
import type { ClaimedJob } from '../../jobs/queue.js';
import { type JobContext, type JobHandler, PermanentJobError } from '../../jobs/worker.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { recordEvent } from '../events/events.record.js';
import { memberRole } from '../workspaces/workspaces.policy.js';
import { writeExtractive } from './report/extractive.js';
import { llmConfigured, writeWithLlm } from './report/llm.js';
import { assemble, type WrittenReport } from './report/markdown.js';
import { creatorResearchSpaceId, saveReportPage } from './report/save.js';
import { selectPassages } from './report/select.js';
import { type ResearchRow, researchRepo } from './research.repo.js';
import { gatherDocs } from './sources/docs.js';
import { gatherRepository } from './sources/repository.js';
import { errorText, type FoundDocument, type GatherContext, type SourceOutcome } from './sources/source.js';
import { gatherWeb } from './sources/web.js';

export const RESEARCH_JOB_KIND = 'research.run';

/** Progress points: gathering runs from 5 to 85, writing and saving to 100. */
const GATHER_FROM = 5;
const GATHER_TO = 85;
const PROGRESS_WRITE_EVERY_MS = 250;

const SELECTION = { brief: { perDocument: 2, total: 20 }, longform: { perDocument: 3, total: 40 } };

/** A Ctx acting as the job's creator: the sources see what they see, and the report page is theirs. */
function creatorCtx(db: Db, row: ResearchRow, env: ServiceEnv, log: FastifyBaseLogger): Ctx {
  return { db, actor: { userId: row.createdBy, via: 'jwt', apiKeyId: null }, log, now: () => new Date(), env };
}

/** What gathering produced: every document, each source's coverage, and whether the budget cut it short. */
interface Gathered {
  documents: FoundDocument[];
  coverage: ResearchCoverage[];
  stoppedAtBudget: boolean;
}

/**
 * One run of a research job: its abort controller (the budget or a cancellation), its counters and their
 * throttled writes. A progress write that finds the row no longer running (cancelled) aborts the run.
 */
class ResearchRun {
  readonly gather = new AbortController();
  readonly counts = { progress: 1, sourcesSearched: 0, documentsFound: 0 };
  private lastWrite = 0;
  private pendingWrite: Promise<void> | null = null;
  private budgetTimer: NodeJS.Timeout;
  private onCancel = () => this.gather.abort('cancelled');

  constructor(
    readonly db: Db,
    readonly row: ResearchRow,
    readonly jc: JobContext,
    readonly config: ServiceEnv['config'],
  ) {
    const deadline = this.startedAt + row.timeBudget * config.RESEARCH_BUDGET_MINUTE_MS;
    jc.signal.addEventListener('abort', this.onCancel, { once: true });
    if (jc.signal.aborted) this.onCancel();
    this.budgetTimer = setTimeout(() => this.gather.abort('budget'), Math.max(0, deadline - Date.now()));
  }

  get startedAt() {
    return (this.row.startedAt as Date).getTime();
  }

  cancelled() {
    return this.gather.signal.reason === 'cancelled' || this.jc.signal.aborted;
  }

  async writeProgress(force = false) {
    if (!force && Date.now() - this.lastWrite < PROGRESS_WRITE_EVERY_MS) return;
    this.lastWrite = Date.now();
    const still = await researchRepo.progress(this.db, this.row.workspaceId, this.row.id, { ...this.counts });
    if (!still) this.gather.abort('cancelled');
  }

  /** Counts documents as sources find them; one progress write at a time. */
  found(n: number) {
    this.counts.documentsFound += n;
    this.pendingWrite ??= this.writeProgress().finally(() => {
      this.pendingWrite = null;
    });
  }

  async settle() {
    await this.pendingWrite;
  }

  async stop() {
    clearTimeout(this.budgetTimer);
    this.jc.signal.removeEventListener('abort', this.onCancel);
    await this.pendingWrite;
  }
}

/** Each requested source in turn (progress from 5 to 85), then `skipped` lines for those not requested. */
async function gatherSources(run: ResearchRun, ctx: Ctx, targetSpaceId: string): Promise<Gathered> {
  const { row } = run;
  const requested = row.sources;
  const coverage: ResearchCoverage[] = [];
  const documents: FoundDocument[] = [];
  const span = (GATHER_TO - GATHER_FROM) / Math.max(1, requested.length);
  const g: GatherContext = { topic: row.topic, config: run.config, signal: run.gather.signal, found: (n) => run.found(n) };
  run.counts.progress = GATHER_FROM;
  await run.writeProgress(true);
  for (const [i, source] of requested.entries()) {
    if (run.gather.signal.aborted) {
      if (run.cancelled()) break;
      coverage.push({ source, status: 'skipped', detail: 'not searched: the time budget ran out first' });
      continue;
    }
    const outcome = await gatherOne(source, ctx, row, targetSpaceId, g);
    coverage.push(outcome.coverage);
    documents.push(...outcome.documents);
    run.counts.sourcesSearched++;
    run.counts.progress = Math.round(GATHER_FROM + span * (i + 1));
    await run.settle();
    await run.writeProgress(true);
  }
  for (const s of ['docs', 'web', 'repository'] as ResearchSource[])
    if (!requested.includes(s)) coverage.push({ source: s, status: 'skipped', detail: 'not requested' });
  return { documents, coverage, stoppedAtBudget: run.gather.signal.aborted && !run.cancelled() };
}

/** The report's text: by the model when one is configured (falling back on any error), else extractive. */
async function writeReport(run: ResearchRun, gathered: Gathered, notes: string[], useModel: boolean) {
  const { row, config } = run;
  const selection = selectPassages(gathered.documents, row.topic, SELECTION[row.outputMode]);
  const input = { topic: row.topic, mode: row.outputMode, selection };
  if (useModel && llmConfigured(config) && selection.passages.length) {
    try {
      const written = await writeWithLlm(input, config, run.jc.signal);
      notes.push(`Written by ${config.LLM_MODEL} from ${selection.passages.length} passages.`);
      return { selection, written, writer: 'llm' as const };
    } catch (err) {
      if (run.jc.signal.aborted) throw err;
      notes.push(`The language model could not write the report (${errorText(err)}); it was written extractively instead.`);
    }
  }
  const written: WrittenReport = writeExtractive(input);
  notes.push(`Written extractively from ${selection.passages.length} passages of ${selection.sources.length} sources.`);
  return { selection, written, writer: 'extractive' as const };
}

function reportData(w: Awaited<ReturnType<typeof writeReport>>, gathered: Gathered, content: string): ResearchReportData {
  const sources = w.selection.sources.map(({ key: _key, ...s }) => s);
  return { summary: w.written.summary, content, sources, coverage: gathered.coverage, writer: w.writer, stoppedAtBudget: gathered.stoppedAtBudget };
}

const secondsSince = (startedAt: number, now: Date) => Math.round((now.getTime() - startedAt) / 100) / 10;

/**
 * A cancelled run keeps what it had gathered: an extractive report of it on the row (no page: a cancel writes
 * nothing a user has to clean up), served as the cancelled job's report.
 */
async function keepPartial(run: ResearchRun, gathered: Gathered) {
  if (!gathered.documents.length) return;
  const notes = ['The job was cancelled; this report was written from what had been gathered until then.'];
  const w = await writeReport(run, gathered, notes, false);
  const content = assemble(w.written, w.selection, gathered.coverage, notes);
  const now = new Date();
  await researchRepo.keepPartial(run.db, run.row.workspaceId, run.row.id, {
    report: reportData(w, gathered, content),
    timeSpent: secondsSince(run.startedAt, now),
  });
}

/** Writes the report, saves it as a page in `spaceId` and completes the job (unless it was cancelled meanwhile). */
async function completeRun(run: ResearchRun, ctx: Ctx, gathered: Gathered, spaceId: string) {
  const { row, db } = run;
  const notes: string[] = [];
  if (gathered.stoppedAtBudget) notes.push(`Gathering stopped at the time budget (${row.timeBudget} minutes); the report is written from what had been found.`);
  const w = await writeReport(run, gathered, notes, true);
  if ((await researchRepo.statusOf(db, row.workspaceId, row.id)) !== 'running' || run.jc.signal.aborted) return keepPartial(run, gathered);
  let content = assemble(w.written, w.selection, gathered.coverage, notes);
  const saved = await saveReportPage(ctx, row, spaceId, content);
  if (saved.note) {
    notes.push(saved.note);
    content = assemble(w.written, w.selection, gathered.coverage, notes);
  }
  const now = new Date();
  const completed = await db.transaction().execute(async (trx) => {
    const done = await researchRepo.complete(trx, row.workspaceId, row.id, {
      report: reportData(w, gathered, content),
      pageId: saved.pageId,
      timeSpent: secondsSince(run.startedAt, now),
      sourcesSearched: run.counts.sourcesSearched,
      documentsFound: run.counts.documentsFound,
      now,
    });
    if (done)
      await recordEvent(trx, ctx, {
        workspaceId: row.workspaceId,
        type: 'research.completed',
        subject: { type: 'research', id: row.id },
        spaceId,
        pageId: saved.pageId,
        data: { title: row.topic, requestedBy: row.createdBy, pageId: saved.pageId, documentsFound: run.counts.documentsFound },
      });
    return done;
  });
  if (completed) await nudgeEventDispatch(ctx);
  return saved.pageId;
}

/**
 * Runs one research job: pending → running, each requested source in turn (progress, sources searched and
 * documents found written as it goes), the report from the best passages, a page, completed. The budget is a
 * ceiling: at the deadline gathering stops and the report is written from what was found. A cancellation (the
 * job's signal, or the row no longer running) stops it at its next step; what was gathered is kept as a partial
 * report, and nothing else is written.
 */
export async function runResearch(job: ClaimedJob, jc: JobContext, env: ServiceEnv, log: FastifyBaseLogger): Promise<unknown> {
  const researchId = String(job.payload.researchId ?? '');
  const workspaceId = job.workspaceId ?? '';
  const { db } = jc;
  const row = await researchRepo.start(db, workspaceId, researchId, new Date());
  if (!row) return { skipped: 'not active' };
  const ctx = creatorCtx(db, row, env, log);
  if (!(await memberRole(db, workspaceId, row.createdBy)).role) {
    await researchRepo.setFailed(db, workspaceId, researchId, 'failed', 'The job’s creator is no longer a member of the workspace', new Date());
    throw new PermanentJobError('creator is no longer a member');
  }
  const run = new ResearchRun(db, row, jc, env.config);
  try {
    // The report's space decides what it may quote, so it is known before anything is gathered.
    const spaceId = row.targetSpaceId ?? (await creatorResearchSpaceId(ctx, workspaceId));
    const gathered = await gatherSources(run, ctx, spaceId);
    if (run.cancelled()) {
      await keepPartial(run, gathered);
      return { cancelled: true };
    }
    run.counts.progress = 90;
    await run.writeProgress(true);
    if (run.cancelled()) {
      await keepPartial(run, gathered);
      return { cancelled: true };
    }
    const pageId = await completeRun(run, ctx, gathered, spaceId);
    return pageId === undefined ? { cancelled: true } : { researchId, pageId };
  } catch (err) {
    if (run.cancelled()) return { cancelled: true };
    const last = err instanceof PermanentJobError || job.attempts >= job.maxAttempts;
    await researchRepo.setFailed(db, workspaceId, researchId, last ? 'failed' : 'pending', errorText(err), new Date()).catch(() => {});
    throw err;
  } finally {
    await run.stop();
  }
}

async function gatherOne(source: ResearchSource, ctx: Ctx, row: ResearchRow, targetSpaceId: string, g: GatherContext): Promise<SourceOutcome> {
  try {
    if (source === 'docs') return await gatherDocs(ctx, row.workspaceId, targetSpaceId, g);
    if (source === 'web') return await gatherWeb(g);
    if (!row.repository) return { documents: [], coverage: { source, status: 'skipped', detail: 'no repository was given' } };
    return await gatherRepository(row.repository, g);
  } catch (err) {
    return { documents: [], coverage: { source, status: 'failed', detail: errorText(err) } };
  }
}

/** The handler for the job queue, over the given settings, or those of the runtime running the job. */
export function createResearchHandler(env: ServiceEnv | ((jc: JobContext) => ServiceEnv)): JobHandler {
  let logger: FastifyBaseLogger | null = null;
  return (job, jc) => {
    const resolved = typeof env === 'function' ? env(jc) : env;
    logger ??= createLogger(resolved.config, 'research') as unknown as FastifyBaseLogger;
    return runResearch(job, jc, resolved, logger);
  };
}
