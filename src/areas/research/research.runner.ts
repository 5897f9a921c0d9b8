import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { Ctx, ServiceEnv } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { ResearchCoverage, ResearchReportData, ResearchSource } from '../../db/tables/research.js';
import type { ClaimedJob } from '../../jobs/queue.js';
import { type JobContext, type JobHandler, PermanentJobError } from '../../jobs/worker.js';
import { memberRole } from '../workspaces/workspaces.policy.js';
import { writeExtractive } from './report/extractive.js';
import { llmConfigured, writeWithLlm } from './report/llm.js';
import { assemble, type WrittenReport } from './report/markdown.js';
import { saveReportPage } from './report/save.js';
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

/**
 * Runs one research job: pending → running, each requested source in turn (progress, sources searched and
 * documents found written as it goes), the report from the best passages, a page, completed. The budget is a
 * ceiling: at the deadline gathering stops and the report is written from what was found. A cancellation (the
 * job's signal, or the row no longer running) stops it at its next step, and nothing more is written.
 */
export async function runResearch(job: ClaimedJob, jc: JobContext, env: ServiceEnv, log: FastifyBaseLogger): Promise<unknown> {
  const researchId = String(job.payload.researchId ?? '');
  const workspaceId = job.workspaceId ?? '';
  const { db } = jc;
  const config = env.config;
  const row = await researchRepo.start(db, workspaceId, researchId, new Date());
  if (!row) return { skipped: 'not active' };
  const ctx = creatorCtx(db, row, env, log);
  const membership = await memberRole(db, workspaceId, row.createdBy);
  if (!membership.role) {
    await researchRepo.setFailed(db, workspaceId, researchId, 'failed', 'The job’s creator is no longer a member of the workspace', new Date());
    throw new PermanentJobError('creator is no longer a member');
  }

  const startedAt = (row.startedAt as Date).getTime();
  const deadline = startedAt + row.timeBudget * config.RESEARCH_BUDGET_MINUTE_MS;
  const gather = new AbortController();
  const onCancel = () => gather.abort('cancelled');
  jc.signal.addEventListener('abort', onCancel, { once: true });
  if (jc.signal.aborted) onCancel();
  const budgetTimer = setTimeout(() => gather.abort('budget'), Math.max(0, deadline - Date.now()));

  const counts = { progress: 1, sourcesSearched: 0, documentsFound: 0 };
  let lastWrite = 0;
  let pending: Promise<void> | null = null;
  const writeProgress = async (force = false) => {
    if (!force && Date.now() - lastWrite < PROGRESS_WRITE_EVERY_MS) return;
    lastWrite = Date.now();
    const still = await researchRepo.progress(db, workspaceId, researchId, { ...counts });
    if (!still) gather.abort('cancelled');
  };
  const cancelled = () => gather.signal.reason === 'cancelled';

  try {
    const requested = row.sources;
    const coverage: ResearchCoverage[] = [];
    const documents: FoundDocument[] = [];
    const span = (GATHER_TO - GATHER_FROM) / Math.max(1, requested.length);
    const g: GatherContext = {
      topic: row.topic,
      config,
      signal: gather.signal,
      found: (n) => {
        counts.documentsFound += n;
        pending ??= writeProgress().finally(() => {
          pending = null;
        });
      },
    };
    counts.progress = GATHER_FROM;
    await writeProgress(true);
    for (const [i, source] of requested.entries()) {
      if (gather.signal.aborted) {
        if (cancelled()) break;
        coverage.push({ source, status: 'skipped', detail: 'not searched: the time budget ran out first' });
        continue;
      }
      const outcome = await gatherOne(source, ctx, row, g);
      coverage.push(outcome.coverage);
      documents.push(...outcome.documents);
      counts.sourcesSearched++;
      counts.progress = Math.round(GATHER_FROM + span * (i + 1));
      await pending;
      await writeProgress(true);
    }
    for (const s of ['docs', 'web', 'repository'] as ResearchSource[])
      if (!requested.includes(s)) coverage.push({ source: s, status: 'skipped', detail: 'not requested' });
    if (cancelled() || jc.signal.aborted) return { cancelled: true };

    const stoppedAtBudget = gather.signal.aborted;
    counts.progress = 90;
    await writeProgress(true);
    if (cancelled()) return { cancelled: true };

    const selection = selectPassages(documents, row.topic, SELECTION[row.outputMode]);
    const notes: string[] = [];
    if (stoppedAtBudget) notes.push(`Gathering stopped at the time budget (${row.timeBudget} minutes); the report is written from what had been found.`);
    let written: WrittenReport | null = null;
    let writer: ResearchReportData['writer'] = 'extractive';
    if (llmConfigured(config) && selection.passages.length) {
      try {
        written = await writeWithLlm({ topic: row.topic, mode: row.outputMode, selection }, config, jc.signal);
        writer = 'llm';
        notes.push(`Written by ${config.LLM_MODEL} from ${selection.passages.length} passages.`);
      } catch (err) {
        if (jc.signal.aborted) return { cancelled: true };
        notes.push(`The language model could not write the report (${errorText(err)}); it was written extractively instead.`);
      }
    }
    if (!written) {
      written = writeExtractive({ topic: row.topic, mode: row.outputMode, selection });
      notes.push(`Written extractively from ${selection.passages.length} passages of ${selection.sources.length} sources.`);
    }
    if ((await researchRepo.statusOf(db, workspaceId, researchId)) !== 'running' || jc.signal.aborted) return { cancelled: true };

    let content = assemble(written, selection, coverage, notes);
    const saved = await saveReportPage(ctx, row, content);
    if (saved.note) {
      notes.push(saved.note);
      content = assemble(written, selection, coverage, notes);
    }
    const now = new Date();
    const report: ResearchReportData = {
      summary: written.summary,
      content,
      sources: selection.sources.map(({ key: _key, ...s }) => s),
      coverage,
      writer,
      stoppedAtBudget,
    };
    await researchRepo.complete(db, workspaceId, researchId, {
      report,
      pageId: saved.pageId,
      timeSpent: Math.round((now.getTime() - startedAt) / 100) / 10,
      sourcesSearched: counts.sourcesSearched,
      documentsFound: counts.documentsFound,
      now,
    });
    return { researchId, pageId: saved.pageId };
  } catch (err) {
    if (cancelled() || jc.signal.aborted) return { cancelled: true };
    const last = err instanceof PermanentJobError || job.attempts >= job.maxAttempts;
    await researchRepo.setFailed(db, workspaceId, researchId, last ? 'failed' : 'pending', errorText(err), new Date()).catch(() => {});
    throw err;
  } finally {
    clearTimeout(budgetTimer);
    jc.signal.removeEventListener('abort', onCancel);
    await pending;
  }
}

async function gatherOne(source: ResearchSource, ctx: Ctx, row: ResearchRow, g: GatherContext): Promise<SourceOutcome> {
  try {
    if (source === 'docs') return await gatherDocs(ctx, row.workspaceId, g);
    if (source === 'web') return await gatherWeb(g);
    if (!row.repository) return { documents: [], coverage: { source, status: 'skipped', detail: 'no repository was given' } };
    return await gatherRepository(row.repository, g);
  } catch (err) {
    return { documents: [], coverage: { source, status: 'failed', detail: errorText(err) } };
  }
}

/** The handler for the job queue, over the given settings (tests pass theirs). */
export function createResearchHandler(env: ServiceEnv | (() => ServiceEnv)): JobHandler {
  let logger: FastifyBaseLogger | null = null;
  return (job, jc) => {
    const resolved = typeof env === 'function' ? env() : env;
    logger ??= pino({ level: resolved.config.LOG_LEVEL, name: 'research' }) as unknown as FastifyBaseLogger;
    return runResearch(job, jc, resolved, logger);
  };
}
