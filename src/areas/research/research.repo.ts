import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { DB } from '../../db/types.js';
import type { ResearchJobTable, ResearchReportData, ResearchRepositoryConfig, ResearchSource, ResearchStatus } from '../../db/tables/research.js';

export type ResearchRow = NonNullable<Awaited<ReturnType<typeof researchRepo.find>>>;

const ACTIVE: ResearchStatus[] = ['pending', 'running'];

/** A subquery of space ids (built by a policy and passed down: the repository holds no access rules of its own). */
export type SpaceIds = SelectQueryBuilder<any, any, { id: string }>;

/** A page filter as SQL over a page id column (built by a policy, like SpaceIds). */
export type PageFilter = (pageRef: Expression<string>) => Expression<SqlBool>;

/** Whose jobs a reader sees: all (admin), or those whose target space they can read, or their own without one. */
export interface JobVisibility {
  userId: string;
  isAdmin: boolean;
  readableSpaces: SpaceIds;
}

function visibleTo(v: JobVisibility) {
  return (eb: ExpressionBuilder<DB, 'researchJobs'>) =>
    v.isAdmin
      ? sql<SqlBool>`true`
      : eb.or([
          eb.and([eb('researchJobs.targetSpaceId', 'is', null), eb('researchJobs.createdBy', '=', v.userId)]),
          eb('researchJobs.targetSpaceId', 'in', v.readableSpaces),
        ]);
}

export const researchRepo = {
  insert(
    db: Db,
    row: {
      id: string;
      workspaceId: string;
      createdBy: string;
      topic: string;
      sources: ResearchSource[];
      outputMode: ResearchJobTable['outputMode'];
      timeBudget: number;
      targetSpaceId: string | null;
      repository: ResearchRepositoryConfig | null;
      jobId: string | null;
      createdAt: Date;
    },
  ) {
    return db
      .insertInto('researchJobs')
      .values({
        ...row,
        sources: JSON.stringify(row.sources),
        repository: row.repository ? JSON.stringify(row.repository) : null,
        startedAt: null,
        completedAt: null,
        cancelledAt: null,
        error: null,
        report: null,
        pageId: null,
        timeSpent: null,
        updatedAt: row.createdAt,
      })
      .execute();
  },

  setJobId(db: Db, workspaceId: string, id: string, jobId: string) {
    return db.updateTable('researchJobs').set({ jobId }).where('workspaceId', '=', workspaceId).where('id', '=', id).execute();
  },

  find(db: Db, workspaceId: string, id: string) {
    return db.selectFrom('researchJobs').selectAll().where('workspaceId', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  },

  /** The job when the reader may see it (undefined otherwise: to them it does not exist). */
  findVisible(db: Db, workspaceId: string, id: string, reader: JobVisibility) {
    return db.selectFrom('researchJobs').selectAll().where('workspaceId', '=', workspaceId).where('id', '=', id).where(visibleTo(reader)).executeTakeFirst();
  },

  /** The row under a lock, for a state change that must not race another (cancel against completion). */
  lock(db: Db, workspaceId: string, id: string) {
    return db.selectFrom('researchJobs').selectAll().where('workspaceId', '=', workspaceId).where('id', '=', id).forUpdate().executeTakeFirst();
  },

  list(db: Db, workspaceId: string, reader: JobVisibility, status: ResearchStatus | undefined, limit: number, offset: number) {
    let q = db
      .selectFrom('researchJobs')
      .select(['id', 'topic', 'status', 'progress', 'createdAt', 'completedAt'])
      .where('workspaceId', '=', workspaceId)
      .where(visibleTo(reader));
    if (status) q = q.where('status', '=', status);
    return q.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
  },

  async count(db: Db, workspaceId: string, reader: JobVisibility, status: ResearchStatus | undefined): Promise<number> {
    let q = db.selectFrom('researchJobs').select(sql<number>`count(*)::int`.as('n')).where('workspaceId', '=', workspaceId).where(visibleTo(reader));
    if (status) q = q.where('status', '=', status);
    return (await q.executeTakeFirstOrThrow()).n;
  },

  /** Serialises creates of one workspace (the limits are counted under it): a row lock on the workspace. */
  async lockWorkspace(db: Db, workspaceId: string): Promise<boolean> {
    const row = await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().executeTakeFirst();
    return !!row;
  },

  /** Active jobs (pending or running) with what the Retry-After estimate needs. */
  active(db: Db, workspaceId: string) {
    return db
      .selectFrom('researchJobs')
      .select(['id', 'status', 'progress', 'startedAt', 'createdAt', 'timeBudget'])
      .where('workspaceId', '=', workspaceId)
      .where('status', 'in', ACTIVE)
      .execute();
  },

  /** Jobs created since `since`, oldest first (their creation times: the hourly window). */
  createdSince(db: Db, workspaceId: string, since: Date) {
    return db
      .selectFrom('researchJobs')
      .select('createdAt')
      .where('workspaceId', '=', workspaceId)
      .where('createdAt', '>', since)
      .orderBy('createdAt')
      .execute();
  },

  /** pending → running (also a retry or a lease takeover of a running job); null when the job is no longer active. */
  async start(db: Db, workspaceId: string, id: string, now: Date) {
    return db
      .updateTable('researchJobs')
      .set({ status: 'running', startedAt: sql`coalesce(started_at, ${now})`, progress: 1, sourcesSearched: 0, documentsFound: 0, error: null, updatedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .where('status', 'in', ACTIVE)
      .returningAll()
      .executeTakeFirst();
  },

  /** Progress of a running job; false when it is no longer running (cancelled): the runner then stops writing. */
  async progress(db: Db, workspaceId: string, id: string, fields: { progress: number; sourcesSearched: number; documentsFound: number }) {
    const res = await db
      .updateTable('researchJobs')
      .set({ ...fields, updatedAt: new Date() })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },

  async statusOf(db: Db, workspaceId: string, id: string): Promise<ResearchStatus | null> {
    const row = await db.selectFrom('researchJobs').select('status').where('workspaceId', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    return row?.status ?? null;
  },

  async complete(
    db: Db,
    workspaceId: string,
    id: string,
    fields: { report: ResearchReportData; pageId: string | null; timeSpent: number; sourcesSearched: number; documentsFound: number; now: Date },
  ) {
    const res = await db
      .updateTable('researchJobs')
      .set({
        status: 'completed',
        progress: 100,
        report: JSON.stringify(fields.report),
        pageId: fields.pageId,
        timeSpent: fields.timeSpent,
        sourcesSearched: fields.sourcesSearched,
        documentsFound: fields.documentsFound,
        completedAt: fields.now,
        updatedAt: fields.now,
      })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },

  /** What a cancelled run had gathered, kept as its report (once; a completed job's report is never replaced). */
  keepPartial(db: Db, workspaceId: string, id: string, fields: { report: ResearchReportData; timeSpent: number }) {
    return db
      .updateTable('researchJobs')
      .set({ report: JSON.stringify(fields.report), timeSpent: fields.timeSpent })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .where('status', '=', 'cancelled')
      .where('report', 'is', null)
      .execute();
  },

  /** running → failed (for good) or back to pending (a retry will follow). */
  setFailed(db: Db, workspaceId: string, id: string, status: 'failed' | 'pending', error: string, now: Date) {
    return db
      .updateTable('researchJobs')
      .set({ status, error: error.slice(0, 2000), completedAt: status === 'failed' ? now : null, updatedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .where('status', 'in', ACTIVE)
      .execute();
  },

  setCancelled(db: Db, workspaceId: string, id: string, now: Date) {
    return db
      .updateTable('researchJobs')
      .set({ status: 'cancelled', cancelledAt: now, completedAt: sql`coalesce(completed_at, ${now})`, updatedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /**
   * The user's own research space: private, made by them, named `name` (case-insensitive), and granted to them
   * directly. A space of that name made by someone else, or made public since, is not theirs to write reports in.
   */
  async findCreatorSpace(db: Db, workspaceId: string, userId: string, name: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('spaces as s')
      .select('s.id')
      .where('s.workspaceId', '=', workspaceId)
      .where('s.createdBy', '=', userId)
      .where('s.visibility', '=', 'private')
      .where(sql`lower(s.name)`, '=', name.toLowerCase())
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('spaceMembers as m')
            .select('m.id')
            .where('m.workspaceId', '=', workspaceId)
            .whereRef('m.spaceId', '=', 's.id')
            .where('m.userId', '=', userId),
        ),
      )
      .orderBy('s.createdAt')
      .orderBy('s.id')
      .executeTakeFirst();
    return row?.id;
  },

  async userName(db: Db, userId: string): Promise<string> {
    const row = await db.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst();
    return row?.name ?? '';
  },

  /**
   * Text of live pages in `spaces` that pass `quotable` (not research reports), by id: the docs source reads passages
   * from these.
   */
  pageTexts(db: Db, workspaceId: string, spaces: SpaceIds, quotable: PageFilter, ids: string[]) {
    if (!ids.length) return Promise.resolve([]);
    return db
      .selectFrom('pages as p')
      .select(['p.id', 'p.title', 'p.textContent'])
      .where('p.workspaceId', '=', workspaceId)
      .where('p.id', '=', sql<string>`any(${ids})`)
      .where('p.deletedAt', 'is', null)
      .where('p.spaceId', 'in', spaces)
      .where(quotable(sql.ref('p.id')))
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('researchJobs as r').select('r.id').where('r.workspaceId', '=', workspaceId).whereRef('r.pageId', '=', 'p.id'))),
      )
      .execute();
  },

  /** Text of tasks in `spaces`, or in no space (such a task belongs to the whole workspace). */
  taskTexts(db: Db, workspaceId: string, spaces: SpaceIds, ids: string[]) {
    if (!ids.length) return Promise.resolve([]);
    return db
      .selectFrom('tasks as t')
      .select(['t.id', 't.title', 't.description'])
      .where('t.workspaceId', '=', workspaceId)
      .where('t.id', '=', sql<string>`any(${ids})`)
      .where((eb) => eb.or([eb('t.spaceId', 'is', null), eb('t.spaceId', 'in', spaces)]))
      .execute();
  },
};
