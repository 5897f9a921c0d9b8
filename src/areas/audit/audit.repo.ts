import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { AuditAction } from './audit.record.js';

export interface AuditFilters {
  actions?: AuditAction[];
  actorId?: string;
  targetId?: string;
  since?: Date;
  until?: Date;
}

/** Where the previous answer stopped: the last entry's exact time (microseconds, as text) and id. */
export interface AuditKey {
  at: string;
  id: string;
}

/**
 * The account events (no workspace) a workspace's admins may see of its members: their sign-ins, nothing else. Failed
 * sign-ins, sessions, key names and password events of an account belong to its owner, not to every workspace they
 * are in.
 */
const MEMBER_ACCOUNT_ACTIONS: AuditAction[] = ['auth.signin'];

/**
 * Audit entries: read only (entries are written by `recordAudit`, never changed). A workspace's log is its own
 * entries plus the sign-ins of its current members made since they joined (their membership row's `joined_at`; a
 * member who leaves takes theirs along, and one who rejoins starts afresh), in one query.
 */
export const auditRepo = {
  /** Newest first, `limit` entries after `after`, with the actor and the target's current name. */
  list(db: Db, workspaceId: string, f: AuditFilters, after: AuditKey | null, limit: number) {
    let q = db
      .selectFrom('auditLog as a')
      .leftJoin('users as u', 'u.id', 'a.actorId')
      .leftJoin('users as tu', (j) => j.onRef('tu.id', '=', 'a.targetId').on('a.targetType', 'in', ['user', 'member']))
      .leftJoin('groups as g', (j) => j.onRef('g.id', '=', 'a.targetId').on('a.targetType', '=', 'group').on('g.workspaceId', '=', workspaceId))
      .leftJoin('spaces as s', (j) => j.onRef('s.id', '=', 'a.targetId').on('a.targetType', '=', 'space').on('s.workspaceId', '=', workspaceId))
      .select([
        'a.id',
        'a.workspaceId',
        'a.actorId',
        'a.action',
        'a.targetType',
        'a.targetId',
        'a.details',
        'a.address',
        'a.userAgent',
        'a.createdAt',
        sql<string>`to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('keyAt'),
        'u.name as actorName',
        'u.email as actorEmail',
        sql<string | null>`coalesce(tu.name, g.name, s.name)`.as('targetName'),
      ])
      .where((eb) =>
        eb.or([
          eb('a.workspaceId', '=', workspaceId),
          eb.and([
            eb('a.workspaceId', 'is', null),
            eb('a.action', 'in', MEMBER_ACCOUNT_ACTIONS),
            eb.exists(
              eb
                .selectFrom('workspaceMembers as m')
                .select(sql`1`.as('one'))
                .where('m.workspaceId', '=', workspaceId)
                .whereRef('m.userId', '=', 'a.actorId')
                .whereRef('m.joinedAt', '<=', 'a.createdAt'),
            ),
          ]),
        ]),
      );
    if (f.actions?.length) q = q.where('a.action', 'in', f.actions);
    if (f.actorId) q = q.where('a.actorId', '=', f.actorId);
    if (f.targetId) q = q.where('a.targetId', '=', f.targetId);
    if (f.since) q = q.where('a.createdAt', '>=', f.since);
    if (f.until) q = q.where('a.createdAt', '<', f.until);
    if (after) q = q.where(sql<boolean>`(a.created_at, a.id) < (${after.at}::timestamptz, ${after.id})`);
    return q.orderBy('a.createdAt', 'desc').orderBy('a.id', 'desc').limit(limit).execute();
  },
};

export type AuditRow = Awaited<ReturnType<typeof auditRepo.list>>[number];
