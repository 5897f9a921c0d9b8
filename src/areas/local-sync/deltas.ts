import { sql } from 'kysely';
import type { z } from 'zod';
import type { Ctx } from '../../context.js';
import { validation } from '../../errors.js';
import { findSource, requireSyncRole } from './local-sync.policy.js';
import { decodeSeq, encodeSeq } from './local-sync.present.js';
import type { DeltasBody } from './local-sync.schema.js';

/**
 * Events of a source after a cursor, in the order of their sequence. `head` (the newest event when the read
 * started) bounds the page, so when nothing more is left `nextCursor` can move past events the caller asked to
 * leave out without skipping any that commit later: every write of a source holds its row lock while it
 * numbers its events, so later commits always get higher numbers.
 */
export async function deltas(ctx: Ctx, body: z.infer<typeof DeltasBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const after = decodeSeq(body.cursor);
  if (after === null) throw validation('cursor', 'invalid', 'cursor is not a cursor this service gave out');
  const source = await findSource(ctx.db, access.workspaceId, body.sourceId);
  const db = ctx.db;
  const headRow = await db
    .selectFrom('syncEvents')
    .select((eb) => eb.fn.max('seq').as('head'))
    .where('sourceId', '=', source.id)
    .where('workspaceId', '=', access.workspaceId)
    .executeTakeFirst();
  const head = Number(headRow?.head ?? 0);
  if (head <= after) return { events: [], nextCursor: encodeSeq(Math.max(after, head)), hasMore: false };

  // The page is built as JSON inside the database: one value to parse instead of thousands of fields.
  const exclude = body.excludeConnectorId ?? null;
  const content = body.includeContent
    ? sql`, 'content', case when e.type = 'file.upsert' then case when e.content_type = 'binary'
          then translate(encode(b.content, 'base64'), E'\n', '') else convert_from(b.content, 'UTF8') end end`
    : sql``;
  const join = body.includeContent
    ? sql`left join sync_blobs b on b.workspace_id = e.workspace_id and b.hash = e.content_hash and e.type = 'file.upsert'`
    : sql``;
  const { rows } = await sql<{ events: string; last: number | null; more: boolean }>`
    select coalesce(json_agg(json_build_object(
        'cursor', e.seq::text, 'type', e.type, 'sourceId', e.source_id, 'relativePath', e.relative_path,
        'contentHash', e.content_hash, 'contentType', e.content_type, 'size', e.size, 'conflictId', e.conflict_id,
        'localHash', e.local_hash, 'serviceHash', e.service_hash, 'baseHash', e.base_hash, 'resolution', e.resolution,
        'connectorId', e.connector_id, 'userId', e.user_id,
        'createdAt', to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ${content}
      ) order by e.seq) filter (where e.n <= ${body.limit}), '[]'::json)::text as events,
      max(e.seq) filter (where e.n <= ${body.limit}) as last,
      count(*) > ${body.limit} as more
    from (
      select s.*, row_number() over (order by s.seq) as n from sync_events s
      where s.source_id = ${source.id} and s.workspace_id = ${access.workspaceId} and s.seq > ${after} and s.seq <= ${head}
        and (${exclude}::text is null or s.connector_id is null or s.connector_id <> ${exclude})
      order by s.seq limit ${body.limit + 1}
    ) e ${join}`.execute(db);
  const page = rows[0];
  const events = JSON.parse(page.events) as { cursor: string }[];
  const hasMore = page.more;
  const nextCursor = hasMore ? events[events.length - 1].cursor : encodeSeq(head);
  return { events, nextCursor, hasMore };
}
