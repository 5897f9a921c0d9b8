import { sql } from 'kysely';
import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { type NewEvent, recordEvents } from '../events/events.record.js';

interface GoalProgress {
  id: string;
  title: string;
  spaceId: string | null;
  progress: number;
}

/** The goals a task counts towards. */
export async function goalIdsOfTask(db: Db, workspaceId: string, taskId: string): Promise<string[]> {
  const rows = await db.selectFrom('goalTasks').select('goalId').where('workspaceId', '=', workspaceId).where('taskId', '=', taskId).execute();
  return rows.map((r) => r.goalId);
}

/** The progress of goals over ALL their linked tasks (what the goal is, not what one reader sees of it), as goals.repo rounds it. */
export async function goalProgress(db: Db, workspaceId: string, goalIds: string[]): Promise<Map<string, GoalProgress>> {
  if (goalIds.length === 0) return new Map();
  const rows = await sql<GoalProgress>`
    select g.id, g.title, g.space_id as "spaceId",
      coalesce((
        select case when count(*) = 0 then 0 else round((count(*) filter (where t.status = 'done')) * 100.0 / count(*), 2) end
        from goal_tasks gt join tasks t on t.id = gt.task_id and t.workspace_id = gt.workspace_id
        where gt.goal_id = g.id and gt.workspace_id = g.workspace_id
      ), 0)::float8 as progress
    from goals g
    where g.workspace_id = ${workspaceId} and g.id in (${sql.join(goalIds)})`.execute(db);
  return new Map(rows.rows.map((r) => [r.id, { ...r, progress: Number(r.progress) }]));
}

/**
 * Records `goal.progress_changed` for each goal of `before` whose progress is now different (`data.from`/`data.to` in
 * percent). Call it in the transaction of the change, with the progress read in it before the change.
 */
export async function recordGoalProgressChanges(trx: Db, ctx: Pick<Ctx, 'actor'>, workspaceId: string, before: Map<string, GoalProgress>): Promise<number> {
  const after = await goalProgress(trx, workspaceId, [...before.keys()]);
  const events: NewEvent[] = [];
  for (const [id, was] of before) {
    const now = after.get(id);
    if (!now || now.progress === was.progress) continue;
    events.push({
      workspaceId,
      type: 'goal.progress_changed',
      subject: { type: 'goal', id },
      spaceId: now.spaceId,
      data: { title: now.title, from: was.progress, to: now.progress },
    });
  }
  await recordEvents(trx, ctx, events);
  return events.length;
}

/** Runs a change of goals' task links in a transaction that records the progress it moves, then nudges the dispatcher. */
export async function withGoalProgressEvents(ctx: Ctx, workspaceId: string, goalIds: string[], change: (trx: Db) => Promise<unknown>): Promise<void> {
  const recorded = await ctx.db.transaction().execute(async (trx) => {
    const before = await goalProgress(trx, workspaceId, goalIds);
    await change(trx);
    return recordGoalProgressChanges(trx, ctx, workspaceId, before);
  });
  if (recorded) await nudgeEventDispatch(ctx);
}
