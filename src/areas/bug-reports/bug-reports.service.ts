import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { BugSeverity, BugSource } from '../../db/tables/bug-reports.js';
import { forbidden, notFound, validation } from '../../errors.js';
import type { JourneyStore } from '../../http/journey.js';
import { newId } from '../../ids.js';
import { memberScope } from '../workspaces/member-scope.js';
import { detectSeverity, fingerprintOf, generateTitle, scrubSecrets } from './bug-reports.classify.js';
import { isServiceAdmin, requireReportAdmin, resolveReportWorkspace } from './bug-reports.policy.js';
import { presentBugReport, presentBugSummary } from './bug-reports.present.js';
import { bugReportsRepo } from './bug-reports.repo.js';
import type { BugAutoBody, BugCreateBody, BugListBody, BugUpdateBody } from './bug-reports.schema.js';

/** An auto report absorbs new occurrences while it is open and was reported less than this long ago. */
export const DEDUPE_WINDOW_MS = 24 * 3600 * 1000;
/** How far in the future a client's `occurredAt` may be (clock skew). */
const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

export async function listBugReports(ctx: Ctx, input: z.infer<typeof BugListBody>) {
  const actor = requireActor(ctx);
  // A key scoped to one workspace sees that workspace's reports only, never the service-level ones (isServiceAdmin).
  const includeServiceLevel = await isServiceAdmin(ctx);
  const workspaceId = input.workspaceId ?? ctx.workspaceHint;
  if (workspaceId) await requireReportAdmin(ctx, workspaceId);
  else if (!includeServiceLevel && !(await bugReportsRepo.administersAny(ctx.db, memberScope(actor))))
    throw forbidden('Listing bug reports needs the admin role in a workspace');
  const from = input.fromDate ? dayBound(input.fromDate, 'start') : undefined;
  const to = input.toDate ? dayBound(input.toDate, 'end') : undefined;
  if (from && to && from > to) throw validation('toDate', 'must not be before fromDate');
  const rows = await bugReportsRepo.list(
    ctx.db,
    { ...memberScope(actor), includeServiceLevel: includeServiceLevel && !workspaceId },
    { source: input.source, severity: input.severity, status: input.status, workspaceId, from, to },
    input.page,
    input.limit,
  );
  return {
    items: rows.slice(0, input.limit).map(presentBugSummary),
    meta: { page: input.page, limit: input.limit, hasNextPage: rows.length > input.limit, hasPrevPage: input.page > 1 },
  };
}

/** A date alone means the whole UTC day: from its first to its last millisecond. */
function dayBound(value: string, edge: 'start' | 'end'): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`);
  return new Date(value);
}

export async function getBugReport(ctx: Ctx, bugReportId: string) {
  requireActor(ctx);
  const row = await bugReportsRepo.findById(ctx.db, bugReportId);
  if (!row) throw notFound('Bug report', bugReportId);
  await requireReportAdmin(ctx, row.workspaceId);
  return presentBugReport(row);
}

/** A user-made report (admin of its workspace), with the caller's recent requests as its user journey. */
export async function createBugReport(ctx: Ctx, input: z.infer<typeof BugCreateBody>, journeys: JourneyStore) {
  const actor = requireActor(ctx);
  const workspaceId = await resolveReportWorkspace(ctx, input, 'create');
  const journey = await journeys.recent(actor.userId);
  const now = ctx.now();
  const id = newId();
  await bugReportsRepo.insert(ctx.db, {
    id,
    workspaceId,
    spaceId: input.spaceId ?? null,
    reporterId: actor.userId,
    title: input.title,
    description: input.description ?? null,
    source: input.source,
    severity: input.severity,
    userJourney: JSON.stringify(journey),
    context: input.context ? JSON.stringify(input.context) : null,
    occurredAt: now,
    lastOccurredAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return getBugReport(ctx, id);
}

/** An automatically captured error (any member of the workspace it names, or no workspace): recorded or de-duplicated. */
export async function autoReport(ctx: Ctx, input: z.infer<typeof BugAutoBody>) {
  const actor = requireActor(ctx);
  const now = ctx.now();
  const occurredAt = input.occurredAt ? new Date(input.occurredAt) : now;
  if (occurredAt.getTime() > now.getTime() + MAX_CLOCK_SKEW_MS) throw validation('occurredAt', 'must not be in the future');
  const workspaceId = await resolveReportWorkspace(ctx, input, 'auto');
  const { id, deduplicated } = await recordAutoReport(
    ctx.db,
    {
      workspaceId,
      spaceId: input.spaceId ?? null,
      reporterId: actor.userId,
      source: input.source,
      errorMessage: input.errorMessage,
      errorStack: input.errorStack,
      errorCode: input.errorCode,
      title: input.title,
      severity: input.severity,
      context: input.context ?? null,
      metadata: input.metadata ?? null,
      occurredAt,
    },
    now,
  );
  return { ...presentBugSummary(await bugReportsRepo.summaryById(ctx.db, id)), deduplicated };
}

export interface AutoRecord {
  /** Already checked to exist (and, for a caller, to be theirs); null for a service-level report. */
  workspaceId: string | null;
  spaceId: string | null;
  reporterId: string | null;
  source: BugSource;
  errorMessage?: string | null;
  errorStack?: string | null;
  errorCode?: string | null;
  title?: string;
  severity?: BugSeverity;
  context: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
  occurredAt: Date;
  statusCode?: number;
}

/**
 * Records `count` occurrences of an auto report: an open report of the same workspace with the same source and
 * message (the title when there is no message) created within 24 hours absorbs them (occurrenceCount += count,
 * lastOccurredAt moves on); otherwise a new report is made. A transaction-scoped advisory lock on the fingerprint
 * makes look-up-then-insert atomic, so concurrent identical reports never make two records.
 */
export async function recordAutoReport(db: Db, r: AutoRecord, now: Date, count = 1): Promise<{ id: string; deduplicated: boolean }> {
  const errorMessage = scrubSecrets(r.errorMessage ?? null) || null;
  const errorStack = scrubSecrets(r.errorStack ?? null) || null;
  const errorCode = r.errorCode || null;
  const facts = { source: r.source, errorMessage, errorCode, errorStack, statusCode: r.statusCode ?? numericStatus(r.context) };
  const title = r.title ?? generateTitle(facts);
  const severity = r.severity ?? detectSeverity(facts);
  const fingerprint = fingerprintOf(r.workspaceId, r.source, errorMessage ?? title);
  return db.transaction().execute(async (trx) => {
    await bugReportsRepo.lockFingerprint(trx, fingerprint);
    const open = await bugReportsRepo.findOpenDuplicate(trx, fingerprint, r.workspaceId, new Date(now.getTime() - DEDUPE_WINDOW_MS));
    if (open) {
      await bugReportsRepo.addOccurrences(trx, open.id, count, r.occurredAt, now);
      return { id: open.id, deduplicated: true };
    }
    const id = newId();
    await bugReportsRepo.insert(trx, {
      id,
      workspaceId: r.workspaceId,
      spaceId: r.spaceId,
      reporterId: r.reporterId,
      title,
      description: null,
      source: r.source,
      severity,
      errorMessage,
      errorStack,
      errorCode,
      fingerprint,
      context: r.context ? JSON.stringify(r.context) : null,
      metadata: r.metadata ? JSON.stringify(r.metadata) : null,
      occurrenceCount: count,
      occurredAt: r.occurredAt,
      lastOccurredAt: r.occurredAt,
      createdAt: now,
      updatedAt: now,
    });
    return { id, deduplicated: false };
  });
}

function numericStatus(context: Record<string, unknown> | null): number | null {
  const s = context?.statusCode ?? context?.status;
  return typeof s === 'number' && Number.isInteger(s) ? s : null;
}

/**
 * Changes the given fields. `resolvedAt` is set when the status becomes `resolved` (kept if it already was),
 * cleared when the report is reopened (open, triaged, in_progress), and kept when a resolved report is closed.
 */
export async function updateBugReport(ctx: Ctx, input: z.infer<typeof BugUpdateBody>) {
  requireActor(ctx);
  const scope = await bugReportsRepo.findScope(ctx.db, input.bugReportId);
  if (!scope) throw notFound('Bug report', input.bugReportId);
  await requireReportAdmin(ctx, scope.workspaceId);
  const now = ctx.now();
  let resolvedAt: Date | null | undefined;
  if (input.status === 'resolved') resolvedAt = scope.status === 'resolved' && scope.resolvedAt ? scope.resolvedAt : now;
  else if (input.status && input.status !== 'closed') resolvedAt = null;
  await bugReportsRepo.update(
    ctx.db,
    input.bugReportId,
    { title: input.title, description: input.description, severity: input.severity, status: input.status, resolvedAt },
    now,
  );
  return getBugReport(ctx, input.bugReportId);
}

/** Soft delete: the report is gone from list, get and de-duplication. */
export async function deleteBugReport(ctx: Ctx, bugReportId: string) {
  const actor = requireActor(ctx);
  const scope = await bugReportsRepo.findScope(ctx.db, bugReportId);
  if (!scope) throw notFound('Bug report', bugReportId);
  await requireReportAdmin(ctx, scope.workspaceId);
  const res = await bugReportsRepo.softDelete(ctx.db, bugReportId, actor.userId, ctx.now());
  if (!res.numUpdatedRows) throw notFound('Bug report', bugReportId);
  return { id: bugReportId, deleted: true as const };
}
