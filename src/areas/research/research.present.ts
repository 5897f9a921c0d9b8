import type { ResearchStatus } from '../../db/tables/research.js';
import { estimateRemaining } from './research.limits.js';
import type { ResearchRow } from './research.repo.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const seconds = (ms: number) => Math.round(Math.max(0, ms) / 100) / 10;

/** The status view: the job with its progress, counts and times (seconds). */
export function presentJob(row: ResearchRow, now: Date, minuteMs: number) {
  const end = row.completedAt ?? (row.status === 'pending' || row.status === 'running' ? now : (row.cancelledAt ?? row.updatedAt));
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    topic: row.topic,
    status: row.status,
    sources: row.sources,
    outputMode: row.outputMode,
    timeBudget: row.timeBudget,
    targetSpaceId: row.targetSpaceId,
    repository: row.repository,
    progress: row.progress,
    sourcesSearched: row.sourcesSearched,
    documentsFound: row.documentsFound,
    timeElapsed: row.startedAt ? seconds(end.getTime() - row.startedAt.getTime()) : 0,
    estimatedTimeRemaining: estimateRemaining(row, now, minuteMs),
    error: row.error,
    pageId: row.pageId,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
  };
}

export function presentListItem(row: { id: string; topic: string; status: ResearchStatus; progress: number; createdAt: Date; completedAt: Date | null }) {
  return {
    id: row.id,
    topic: row.topic,
    status: row.status,
    progress: row.progress,
    createdAt: row.createdAt.toISOString(),
    completedAt: iso(row.completedAt),
  };
}

export function presentReport(row: ResearchRow) {
  const report = row.report!;
  return {
    id: row.id,
    topic: row.topic,
    summary: report.summary,
    content: report.content,
    sources: report.sources,
    coverage: report.coverage,
    writer: report.writer,
    pageId: row.pageId,
    timeSpent: row.timeSpent ?? 0,
    completedAt: (row.completedAt as Date).toISOString(),
  };
}
