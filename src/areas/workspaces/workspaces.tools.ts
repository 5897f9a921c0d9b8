import { z } from 'zod';
import { DELETE, defineTool, ItemList, listOf, READ, UPDATE, WRITE } from '../../mcp/tool.js';
import { DeletedRecord, WorkspaceIdParams } from '../../schema.js';
import { MemberInvited } from '../invitations/invitations.schema.js';
import { Member, MemberAddBody, MemberParams, MemberUpdateBody, Workspace, WorkspaceCreateBody, WorkspaceUpdateBody } from './workspaces.schema.js';
import {
  addMember,
  changeMemberRole,
  createWorkspace,
  getWorkspace,
  listMembers,
  listWorkspaces,
  removeMember,
  updateWorkspace,
} from './workspaces.service.js';

const category = 'workspace';

export const workspaceTools = [
  defineTool({
    name: 'workspace_list',
    title: 'List workspaces',
    category,
    description:
      'List the workspaces you belong to, with your role in each and the member count. Start here: almost every other tool needs a `workspaceId`. Returns `{ items: [{ id, name, hostname, role, memberCount, … }], total }`.',
    input: z.object({}),
    output: ItemList(Workspace),
    annotations: READ,
    handler: async (ctx) => listOf(await listWorkspaces(ctx)),
  }),
  defineTool({
    name: 'workspace_get',
    title: 'Get a workspace',
    category,
    description: 'Read one workspace: name, hostname, description, settings (defaultRole, allowPublicPages) and memberCount.',
    input: WorkspaceIdParams,
    output: Workspace,
    annotations: READ,
    handler: (ctx, a) => getWorkspace(ctx, a.workspaceId),
  }),
  defineTool({
    name: 'workspace_create',
    title: 'Create a workspace',
    category,
    description: 'Create a new workspace; you become its admin. `hostname` is a unique DNS label (a–z, 0–9, hyphens). Returns the workspace with its `id`.',
    input: WorkspaceCreateBody,
    output: Workspace,
    annotations: WRITE,
    handler: (ctx, a) => createWorkspace(ctx, a),
  }),
  defineTool({
    name: 'workspace_update',
    title: 'Update a workspace',
    category,
    description: 'Change the name, description, logo or settings of a workspace (admin only); only the given fields change. Returns the workspace.',
    input: WorkspaceIdParams.extend(WorkspaceUpdateBody.shape),
    output: Workspace,
    annotations: UPDATE,
    handler: (ctx, { workspaceId, ...body }) => updateWorkspace(ctx, workspaceId, body),
  }),
  defineTool({
    name: 'workspace_member_list',
    title: 'List workspace members',
    category,
    description: 'List the members of a workspace with their role (admin, editor, viewer). Use `user_list` to search members by name or email.',
    input: WorkspaceIdParams,
    output: ItemList(Member),
    annotations: READ,
    handler: async (ctx, a) => listOf(await listMembers(ctx, a.workspaceId)),
  }),
  defineTool({
    name: 'workspace_member_add',
    title: 'Add a workspace member',
    category,
    description:
      'Add an existing user (by `userId`) to a workspace with a role (admin only). Nobody joins without consent: usually the user is invited and joins when they accept, returning `{ status: "invited", invitation, url, mailed }`; an installation admin, or a user of the installation’s single sign-on domains, is added at once, returning the member. Limited to so many invitations an hour (429).',
    input: WorkspaceIdParams.extend(MemberAddBody.shape),
    output: z.union([Member, MemberInvited.shape.data]),
    annotations: WRITE,
    handler: async (ctx, { workspaceId, ...body }) => {
      const outcome = await addMember(ctx, workspaceId, body);
      return outcome.status === 'added' ? outcome.member : outcome;
    },
  }),
  defineTool({
    name: 'workspace_member_update',
    title: 'Change a member’s role',
    category,
    description: 'Change the role of a workspace member (admin only; the last admin cannot be demoted). Returns the member.',
    input: MemberParams.extend(MemberUpdateBody.shape),
    output: Member,
    annotations: UPDATE,
    handler: (ctx, a) => changeMemberRole(ctx, a.workspaceId, a.userId, a.role),
  }),
  defineTool({
    name: 'workspace_member_remove',
    title: 'Remove a workspace member',
    category,
    description: 'Remove a member from a workspace (admin), or leave it yourself (your own `userId`). Returns `{ id, deleted: true }`.',
    input: MemberParams,
    output: DeletedRecord,
    annotations: DELETE,
    handler: (ctx, a) => removeMember(ctx, a.workspaceId, a.userId),
  }),
];
