import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, UpdatedAt } from '../types.js';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface JobTable {
  id: string;
  workspaceId: string | null;
  kind: string;
  payload: Json;
  status: Generated<JobStatus>;
  attempts: Generated<number>;
  maxAttempts: Generated<number>;
  runAt: ColumnType<Date, Date | string | undefined, Date | string>;
  leaseUntil: Date | null;
  lockedBy: string | null;
  cancelRequested: Generated<boolean>;
  dedupeKey: string | null;
  lastError: string | null;
  result: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  finishedAt: Date | null;
}

export interface JobTables {
  jobs: JobTable;
}
