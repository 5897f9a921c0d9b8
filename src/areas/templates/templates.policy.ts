import { type Ctx, requireActor } from '../../context.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { requireSpaceInBody } from '../tasks/tasks.policy.js';
import { memberScope } from '../workspaces/member-scope.js';
import { memberRole, type Role, requireWorkspaceRole, roleAtLeast } from '../workspaces/workspaces.policy.js';
import { templatesRepo } from './templates.repo.js';

/**
 * Who may do what with templates:
 * - read (list, get, start a page from one): anyone who can read the template's space; a workspace-wide template,
 *   every member of the workspace.
 * - manage (create, update, delete): in a space, its editors and admins (the people who may write its pages);
 *   workspace-wide, workspace admins only, since every space's new-page picker offers those.
 * A template the caller cannot read does not exist for them: 404 by id, outsiders of the workspace included (the id
 * alone names it, so an outsider learns nothing about the workspace either).
 */
export type TemplateAction = 'read' | 'manage';

export interface TemplateScope {
  id: string;
  workspaceId: string;
  spaceId: string | null;
}

/** The role the caller holds where the template lives (the space, else the workspace); null when they cannot see it. */
async function roleAt(ctx: Ctx, scope: TemplateScope): Promise<Role | null> {
  if (scope.spaceId) {
    try {
      return (await requireSpaceRole(ctx, scope.workspaceId, scope.spaceId, 'viewer')).role;
    } catch (err) {
      if (err instanceof AppError && (err.code === 'NOT_FOUND' || err.code === 'FORBIDDEN')) return null;
      throw err;
    }
  }
  return (await memberRole(ctx.db, scope.workspaceId, memberScope(requireActor(ctx)))).role;
}

const MANAGE_ROLE = (scope: { spaceId: string | null }): Role => (scope.spaceId ? 'editor' : 'admin');

/** May the caller `action` this template? 404 when it is unknown or invisible to them (or `workspaceId` differs), 403 when they may only read it. */
export async function requireTemplateAccess(ctx: Ctx, templateId: string, action: TemplateAction, opts: { workspaceId?: string } = {}): Promise<TemplateScope> {
  const scope = await templatesRepo.findScope(ctx.db, templateId);
  if (!scope || (opts.workspaceId && opts.workspaceId !== scope.workspaceId)) throw notFound('Template', templateId);
  const role = await roleAt(ctx, scope);
  if (!role) throw notFound('Template', templateId);
  if (action === 'manage' && !roleAtLeast(role, MANAGE_ROLE(scope)))
    throw forbidden(
      scope.spaceId
        ? `Your role in this space (${role}) cannot change its templates; editor is needed`
        : `Your role (${role}) cannot change workspace-wide templates; admin is needed`,
      { templateId, role, required: MANAGE_ROLE(scope) },
    );
  return scope;
}

/**
 * May the caller make a template in `spaceId` (or workspace-wide without one)? 404 for an unknown workspace, 403 for
 * an outsider; in a space, 422 when it is unknown or invisible to them and 403 below editor; workspace-wide, 403 below admin.
 */
export async function requireTemplateTarget(ctx: Ctx, workspaceId: string, spaceId: string | null | undefined): Promise<void> {
  const role = await requireWorkspaceRole(ctx, workspaceId, 'viewer');
  if (spaceId) await requireSpaceInBody(ctx, workspaceId, spaceId, 'editor');
  else if (!roleAtLeast(role, 'admin'))
    throw forbidden(`Your role (${role}) cannot make workspace-wide templates; admin is needed (or give a spaceId you can edit in)`, {
      workspaceId,
      role,
      required: 'admin',
    });
}
