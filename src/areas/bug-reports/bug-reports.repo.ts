import { type Insertable, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { BugReportTable, BugSeverity, BugSource, BugStatus } from '../../db/tables/bug-reports.js';
import { type MemberScope, withinKeyScopeSql } from '../workspaces/member-scope.js';

const SUMMARY_COLUMNS = [
  'b.id',
  'b.title',
  'b.source',
  'b.severity',
  'b.status',
  'b.occurrenceCount',
  'b.occurredAt',
  'b.lastOccurredAt',
  'b.createdAt',
] as const;

const FULL_COLUMNS = [
  ...SUMMARY_COLUMNS,
  'b.workspaceId',
  'b.spaceId',
  'b.reporterId',
  'b.description',
  'b.errorMessage',
  'b.errorStack',
  'b.errorCode',
  'b.userJourney',
  'b.context',
  'b.metadata',
  'b.updatedAt',
  'b.resolvedAt',
] as const;

export interface ListFilters {
  source?: BugSource;
  severity?: BugSeverity;
  status?: BugStatus;
  workspaceId?: string;
  from?: Date;
  to?: Date;
}

/** Who may see what in a list: reports of the workspaces `userId` administers, and service-level ones if allowed. */
export interface ListScope extends MemberScope {
  includeServiceLevel: boolean;
}

export const bugReportsRepo = {
  insert(db: Db, row: Insertable<BugReportTable>) {
    return db.insertInto('bugReports').values(row).execute();
  },

  /** A live (not deleted) report with its reporter, or undefined. */
  findById(db: Db, id: string) {
    return db
      .selectFrom('bugReports as b')
      .leftJoin('users as u', 'u.id', 'b.reporterId')
      .select([...FULL_COLUMNS, 'u.name as reporterName', 'u.avatarUrl as reporterAvatarUrl'])
      .where('b.id', '=', id)
      .where('b.deletedAt', 'is', null)
      .executeTakeFirst();
  },

  /** Where a live report lives, for the access check. */
  findScope(db: Db, id: string) {
    return db
      .selectFrom('bugReports')
      .select(['id', 'workspaceId', 'status', 'resolvedAt'])
      .where('id', '=', id)
      .where('deletedAt', 'is', null)
      .executeTakeFirst();
  },

  summaryById(db: Db, id: string) {
    return db.selectFrom('bugReports as b').select(SUMMARY_COLUMNS).where('b.id', '=', id).executeTakeFirstOrThrow();
  },

  /**
   * Serializes every writer of one fingerprint until the transaction ends (PostgreSQL and PGlite alike), so the
   * look-up-then-insert below cannot make two records for two concurrent identical reports.
   */
  async lockFingerprint(trx: Db, fingerprint: string) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${fingerprint}, 0))`.execute(trx);
  },

  /** The open, live report that absorbs a new occurrence: same fingerprint, reported since `since`. */
  findOpenDuplicate(trx: Db, fingerprint: string, workspaceId: string | null, since: Date) {
    let q = trx
      .selectFrom('bugReports')
      .select('id')
      .where('fingerprint', '=', fingerprint)
      .where('status', '=', 'open')
      .where('deletedAt', 'is', null)
      .where('createdAt', '>=', since);
    q = workspaceId === null ? q.where('workspaceId', 'is', null) : q.where('workspaceId', '=', workspaceId);
    return q.orderBy('createdAt', 'desc').limit(1).forUpdate().executeTakeFirst();
  },

  addOccurrences(trx: Db, id: string, count: number, occurredAt: Date, now: Date) {
    return trx
      .updateTable('bugReports')
      .set((eb) => ({
        occurrenceCount: eb('occurrenceCount', '+', count),
        lastOccurredAt: sql<Date>`greatest(last_occurred_at, ${occurredAt})`,
        updatedAt: now,
      }))
      .where('id', '=', id)
      .execute();
  },

  /** Whether the member (within their key's scope) belongs to the workspace (which then exists). */
  isMember(db: Db, workspaceId: string, member: MemberScope) {
    return db
      .selectFrom('workspaceMembers')
      .select('workspaceId')
      .where('workspaceId', '=', workspaceId)
      .where('userId', '=', member.userId)
      .where(withinKeyScopeSql(sql.ref('workspace_id'), member.keyWorkspaceId))
      .executeTakeFirst();
  },

  /** A page of summaries, newest first; one more row than `limit` tells whether a next page exists. */
  list(db: Db, scope: ListScope, f: ListFilters, page: number, limit: number) {
    let q = db
      .selectFrom('bugReports as b')
      .select(SUMMARY_COLUMNS)
      .where('b.deletedAt', 'is', null)
      .where((eb) => {
        const administered = eb(
          'b.workspaceId',
          'in',
          eb
            .selectFrom('workspaceMembers as m')
            .select('m.workspaceId')
            .where('m.userId', '=', scope.userId)
            .where('m.role', '=', 'admin')
            .where(withinKeyScopeSql(sql.ref('m.workspace_id'), scope.keyWorkspaceId)),
        );
        return scope.includeServiceLevel ? eb.or([administered, eb('b.workspaceId', 'is', null)]) : administered;
      });
    if (f.workspaceId) q = q.where('b.workspaceId', '=', f.workspaceId);
    if (f.source) q = q.where('b.source', '=', f.source);
    if (f.severity) q = q.where('b.severity', '=', f.severity);
    if (f.status) q = q.where('b.status', '=', f.status);
    if (f.from) q = q.where('b.createdAt', '>=', f.from);
    if (f.to) q = q.where('b.createdAt', '<=', f.to);
    return q
      .orderBy('b.createdAt', 'desc')
      .orderBy('b.id', 'desc')
      .limit(limit + 1)
      .offset((page - 1) * limit)
      .execute();
  },

  /** Whether the user administers any workspace (a list needs the admin role somewhere). */
  async administersAny(db: Db, member: MemberScope) {
    const row = await db
      .selectFrom('workspaceMembers')
      .select('workspaceId')
      .where('userId', '=', member.userId)
      .where('role', '=', 'admin')
      .where(withinKeyScopeSql(sql.ref('workspace_id'), member.keyWorkspaceId))
      .limit(1)
      .executeTakeFirst();
    return !!row;
  },

  update(
    db: Db,
    id: string,
    patch: { title?: string; description?: string | null; severity?: BugSeverity; status?: BugStatus; resolvedAt?: Date | null },
    now: Date,
  ) {
    return db
      .updateTable('bugReports')
      .set({ ...patch, updatedAt: now })
      .where('id', '=', id)
      .where('deletedAt', 'is', null)
      .execute();
  },

  softDelete(db: Db, id: string, userId: string, now: Date) {
    return db
      .updateTable('bugReports')
      .set({ deletedAt: now, deletedBy: userId, updatedAt: now })
      .where('id', '=', id)
      .where('deletedAt', 'is', null)
      .executeTakeFirst();
  },
};
