import type { BugSeverity, BugSource, BugStatus } from '../../db/tables/bug-reports.js';
import type { Journey } from '../../http/journey.js';

export interface BugSummaryRecord {
  id: string;
  title: string;
  source: BugSource;
  severity: BugSeverity;
  status: BugStatus;
  occurrenceCount: number;
  occurredAt: Date;
  lastOccurredAt: Date;
  createdAt: Date;
}

export interface BugReportRecord extends BugSummaryRecord {
  workspaceId: string | null;
  spaceId: string | null;
  reporterId: string | null;
  description: string | null;
  errorMessage: string | null;
  errorStack: string | null;
  errorCode: string | null;
  userJourney: Record<string, unknown> | null;
  context: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
  updatedAt: Date;
  resolvedAt: Date | null;
  reporterName: string | null;
  reporterAvatarUrl: string | null;
}

/** The list form. */
export function presentBugSummary(r: BugSummaryRecord) {
  return {
    id: r.id,
    title: r.title,
    source: r.source,
    severity: r.severity,
    status: r.status,
    occurrenceCount: r.occurrenceCount,
    occurredAt: r.occurredAt.toISOString(),
    lastOccurredAt: r.lastOccurredAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
  };
}

/** The full report, with its reporter (null for a service-captured report or a deleted user). */
export function presentBugReport(r: BugReportRecord) {
  const journey = r.userJourney as Journey | null;
  return {
    ...presentBugSummary(r),
    description: r.description,
    workspaceId: r.workspaceId,
    spaceId: r.spaceId,
    reporterId: r.reporterId,
    errorMessage: r.errorMessage,
    errorStack: r.errorStack,
    errorCode: r.errorCode,
    userJourney: journey ? { recentActions: journey.recentActions ?? [], sessionStartedAt: journey.sessionStartedAt ?? null } : null,
    context: r.context,
    metadata: r.metadata,
    updatedAt: r.updatedAt.toISOString(),
    resolvedAt: r.resolvedAt?.toISOString() ?? null,
    reporter: r.reporterId && r.reporterName !== null ? { id: r.reporterId, name: r.reporterName, avatarUrl: r.reporterAvatarUrl } : null,
  };
}
