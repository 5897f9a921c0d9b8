import { sql } from 'kysely';
import { compiledOnce } from '../../../db/compiled.js';
import type { Db } from '../../../db/index.js';
import type { Role } from '../../workspaces/workspaces.policy.js';

/**
 * What the restrictions above a page leave the user, in one query: for each restriction on the page's path, the
 * user's best grant (direct or through a group). The page is closed when one of them grants nothing; otherwise the
 * lowest of the bests caps the user's space role. An unrestricted page is one probe of `page_restricted_by`'s key.
 */
const findCap = compiledOnce(
  (_db: Db, pageId: string, userId: string) =>
    sql<{ restrictions: number; closed: boolean | null; cap: number | null }>`select count(*)::int as restrictions,
      bool_or(t.best is null) as closed, min(t.best) as cap
    from (select (select max(case prg.role when 'editor' then 2 else 1 end) from page_restriction_grants prg
        where prg.page_id = prb.restriction_page_id
          and (prg.user_id = ${userId}
            or prg.group_id in (select gm.group_id from group_members gm where gm.user_id = ${userId} and gm.workspace_id = prb.workspace_id))) as best
      from page_restricted_by prb where prb.page_id = ${pageId}) t`,
);

/** `open` (no restriction on the path), `closed`, or the highest role the restrictions allow. */
export type RestrictionCap = 'open' | 'closed' | Exclude<Role, 'admin'>;

export async function restrictionCapOf(db: Db, pageId: string, userId: string): Promise<RestrictionCap> {
  const [row] = await findCap(db, pageId, userId);
  if (!row || row.restrictions === 0) return 'open';
  if (row.closed) return 'closed';
  return row.cap === 2 ? 'editor' : 'viewer';
}

/** The effective role on a page: the space role, lowered to the restrictions' cap. */
export function cappedRole(spaceRole: Role, cap: Exclude<RestrictionCap, 'closed'>): Role {
  if (cap === 'open') return spaceRole;
  if (cap === 'viewer' || spaceRole === 'viewer') return 'viewer';
  return 'editor';
}
