import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

/**
 * Who takes part in the thread a reply to `parentId` joins: the thread starter and the authors of its other comments
 * (deleted comments left out), once each. Read before the reply is written, so its own author counts only when they
 * wrote earlier in the thread (the fan-outs never notify anyone of their own action anyway).
 */
export async function threadParticipantIds(db: Db, workspaceId: string, parentId: string): Promise<string[]> {
  const rows = await sql<{ authorId: string }>`
    with recursive up(id, parent_id) as (
      select id, parent_id from comments where id = ${parentId} and workspace_id = ${workspaceId}
      union all
      select c.id, c.parent_id from comments c join up on c.id = up.parent_id where c.workspace_id = ${workspaceId}
    ),
    thread(id, author_id, deleted_at, created_at) as (
      select id, author_id, deleted_at, created_at from comments where id in (select id from up where parent_id is null)
      union all
      select c.id, c.author_id, c.deleted_at, c.created_at from comments c join thread t on c.parent_id = t.id where c.workspace_id = ${workspaceId}
    )
    select author_id as "authorId" from thread
    where author_id is not null and deleted_at is null
    group by author_id
    order by min(created_at)`.execute(db);
  return rows.rows.map((r) => r.authorId);
}
