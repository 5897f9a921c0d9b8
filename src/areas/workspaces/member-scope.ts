import { type Expression, type SqlBool, sql } from 'kysely';
import type { Actor } from '../../context.js';

/**
 * Whose workspace memberships a query may count: the user's, limited to one workspace when they act through an API
 * key scoped to it (issue 15). Every query that asks "is the actor a member here, with which role" takes a scope, so a
 * scoped key is, in every other workspace, exactly a user who is not a member (the same 403/404, the same empty lists).
 */
export interface MemberScope {
  userId: string;
  /** The only workspace whose membership counts; null: all of the user's. */
  keyWorkspaceId: string | null;
  /** An app token without the `admin` scope: an admin's role counts as editor (areas/oauth). */
  withoutAdmin?: boolean;
}

export function memberScope(actor: Actor): MemberScope {
  return { userId: actor.userId, keyWorkspaceId: actor.workspaceId ?? null, ...(actor.withoutAdmin ? { withoutAdmin: true } : {}) };
}

/** A bare user id asks about all of that user's memberships (another user, a background job's creator). */
export function asMemberScope(member: string | MemberScope): MemberScope {
  return typeof member === 'string' ? { userId: member, keyWorkspaceId: null } : member;
}

/** SQL: whether a membership in workspace `workspaceRef` counts under the key's scope (any, when `keyWorkspaceId` is null). */
export function withinKeyScopeSql(workspaceRef: Expression<string>, keyWorkspaceId: string | null): Expression<SqlBool> {
  return sql<SqlBool>`coalesce(${keyWorkspaceId}::text, ${workspaceRef}) = ${workspaceRef}`;
}
