import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from '../types.js';

export type BugSource = 'auto:server' | 'auto:client' | 'auto:agent' | 'user:command';
export type BugSeverity = 'low' | 'medium' | 'high' | 'critical';
export type BugStatus = 'open' | 'triaged' | 'in_progress' | 'resolved' | 'closed';

/** A free-form JSON object column (context, metadata, userJourney): read as an object, written as JSON text. */
type JsonObject = ColumnType<Record<string, unknown> | null, string | null, string | null>;

export interface BugReportTable {
  id: string;
  /** Null for a service-level report (no workspace known): visible to BUG_REPORT_ADMINS only. */
  workspaceId: string | null;
  spaceId: string | null;
  reporterId: string | null;
  title: string;
  description: string | null;
  source: BugSource;
  severity: BugSeverity;
  status: Generated<BugStatus>;
  errorMessage: string | null;
  errorStack: string | null;
  errorCode: string | null;
  /** sha256 of (workspace, source, message) for auto reports: the de-duplication key. Null for user reports. */
  fingerprint: string | null;
  userJourney: JsonObject;
  context: JsonObject;
  metadata: JsonObject;
  occurrenceCount: Generated<number>;
  occurredAt: ColumnType<Date, Date | string, Date | string>;
  lastOccurredAt: ColumnType<Date, Date | string, Date | string>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  resolvedAt: Date | null;
  deletedAt: Date | null;
  deletedBy: string | null;
}

export interface BugReportsTables {
  bugReports: BugReportTable;
}
