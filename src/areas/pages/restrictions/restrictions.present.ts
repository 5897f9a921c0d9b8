import { effectiveSpaceRole } from '../../spaces/spaces.policy.js';
import type { Role } from '../../workspaces/workspaces.policy.js';
import { cappedRole } from './restrictions.cap.js';
import type { SpaceReader } from './restrictions.repo.js';

export interface PageAccessFacts {
  page: { id: string; title: string; spaceName: string; visibility: 'public' | 'private' };
  /** The page's own grants; null when it is not restricted itself. */
  grants:
    | {
        userId: string | null;
        groupId: string | null;
        role: 'viewer' | 'editor';
        userName: string | null;
        userEmail: string | null;
        groupName: string | null;
      }[]
    | null;
  inherited: { pageId: string; title: string }[];
  /** Every grant on the page's path, one row per user it reaches. */
  pathGrants: { restrictionPageId: string; role: 'viewer' | 'editor'; userId: string; groupName: string | null }[];
  readers: SpaceReader[];
  truncated: boolean;
}

type Via = 'workspace_admin' | 'space_role' | 'space_group' | 'public_space' | 'restriction';
const ROLE_OF_RANK: Record<number, Role> = { 1: 'viewer', 2: 'editor', 3: 'admin' };
const PLURAL: Record<Role, string> = { viewer: 'Viewers', editor: 'Editors', admin: 'Admins' };

/** Why the reader can open the page's space, before restrictions. */
function spaceReason(r: SpaceReader, spaceName: string): { via: Via; detail: string } {
  if (r.workspaceRole === 'admin') return { via: 'workspace_admin', detail: 'Workspace admin' };
  if (r.directRank && (!r.groupRank || r.directRank >= r.groupRank))
    return { via: 'space_role', detail: `${PLURAL[ROLE_OF_RANK[r.directRank]]} of space ${spaceName}` };
  if (r.groupRank) return { via: 'space_group', detail: `Group ${r.groupName} (${ROLE_OF_RANK[r.groupRank]} in space ${spaceName})` };
  return { via: 'public_space', detail: `Members of public space ${spaceName}` };
}

/**
 * One reader's best grant on each restriction of the path; the lowest of them is what caps them, and the reason
 * shown. Direct grants win ties over groups.
 */
function bindingGrant(facts: PageAccessFacts, userId: string) {
  const best = new Map<string, { role: 'viewer' | 'editor'; groupName: string | null }>();
  for (const g of facts.pathGrants) {
    if (g.userId !== userId) continue;
    const held = best.get(g.restrictionPageId);
    const better = !held || (g.role === 'editor' && held.role === 'viewer') || (g.role === held.role && !g.groupName && held.groupName);
    if (better) best.set(g.restrictionPageId, { role: g.role, groupName: g.groupName });
  }
  let binding: { restrictionPageId: string; role: 'viewer' | 'editor'; groupName: string | null } | null = null;
  for (const [restrictionPageId, g] of best) if (!binding || (g.role === 'viewer' && binding.role === 'editor')) binding = { restrictionPageId, ...g };
  return binding;
}

function titleOf(facts: PageAccessFacts, restrictionPageId: string): string {
  if (restrictionPageId === facts.page.id) return 'this page';
  return `“${facts.inherited.find((i) => i.pageId === restrictionPageId)?.title ?? 'a parent page'}”`;
}

/** "Who has access and why": each reader's effective role on the page and the reason for it. */
function people(facts: PageAccessFacts) {
  const restricted = facts.grants !== null || facts.inherited.length > 0;
  return facts.readers.map((r) => {
    const spaceRole = effectiveSpaceRole(r.workspaceRole, Math.max(r.directRank ?? 0, r.groupRank ?? 0) || null, facts.page.visibility) ?? 'viewer';
    const user = { id: r.id, name: r.name, email: r.email };
    const binding = restricted ? bindingGrant(facts, r.id) : null;
    if (!binding) return { user, role: spaceRole, ...spaceReason(r, facts.page.spaceName) };
    const where = titleOf(facts, binding.restrictionPageId);
    const detail = binding.groupName ? `Group ${binding.groupName} (restriction on ${where})` : `Granted ${binding.role} (restriction on ${where})`;
    return { user, role: cappedRole(spaceRole, binding.role), via: 'restriction' as const, detail };
  });
}

export function presentAccess(facts: PageAccessFacts) {
  return {
    pageId: facts.page.id,
    restricted: facts.grants !== null || facts.inherited.length > 0,
    restriction: facts.grants
      ? {
          pageId: facts.page.id,
          grants: facts.grants.map((g) =>
            g.userId
              ? { type: 'user' as const, id: g.userId, name: g.userName ?? '', email: g.userEmail ?? undefined, role: g.role }
              : { type: 'group' as const, id: g.groupId!, name: g.groupName ?? '', role: g.role },
          ),
        }
      : null,
    inherited: facts.inherited,
    people: people(facts),
    peopleTruncated: facts.truncated,
  };
}

export function presentRestrictedPage(row: {
  pageId: string;
  title: string;
  spaceId: string;
  deletedAt: Date | null;
  grantCount: number;
  createdBy: string | null;
  createdAt: Date;
}) {
  return {
    pageId: row.pageId,
    title: row.title,
    spaceId: row.spaceId,
    inTrash: row.deletedAt !== null,
    grantCount: row.grantCount,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}
