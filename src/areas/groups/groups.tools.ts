import { DELETE, defineTool, ItemList, listOf, READ, UPDATE, WRITE } from '../../mcp/tool.js';
import { DeletedRecord } from '../../schema.js';
import {
  Group,
  GroupCreateBody,
  GroupListQuery,
  GroupMemberParams,
  GroupMembersAddBody,
  GroupParams,
  GroupUpdateBody,
  GroupWithMembers,
  GroupWorkspaceQuery,
} from './groups.schema.js';
import { addGroupMembers, createGroup, deleteGroup, getGroup, listGroups, removeGroupMember, updateGroup } from './groups.service.js';

const category = 'group';

export const groupTools = [
  defineTool({
    name: 'group_list',
    title: 'List groups',
    category,
    description: 'List the groups of a workspace with their member counts. Groups are granted roles in spaces (see `space_member_add`).',
    input: GroupListQuery,
    output: ItemList(Group),
    annotations: READ,
    handler: async (ctx, a) => listOf(await listGroups(ctx, a.workspaceId)),
  }),
  defineTool({
    name: 'group_get',
    title: 'Get a group',
    category,
    description: 'Read a group with its members.',
    input: GroupParams.extend(GroupWorkspaceQuery.shape),
    output: GroupWithMembers,
    annotations: READ,
    handler: (ctx, a) => getGroup(ctx, a.groupId, a.workspaceId),
  }),
  defineTool({
    name: 'group_create',
    title: 'Create a group',
    category,
    description: 'Create a group in a workspace (workspace admin); names are unique in the workspace. Returns the group with its `id`.',
    input: GroupCreateBody,
    output: GroupWithMembers,
    annotations: WRITE,
    handler: (ctx, a) => createGroup(ctx, a),
  }),
  defineTool({
    name: 'group_update',
    title: 'Update a group',
    category,
    description: 'Rename a group or change its description (workspace admin). Returns the group.',
    input: GroupParams.extend(GroupUpdateBody.shape),
    output: GroupWithMembers,
    annotations: UPDATE,
    handler: (ctx, { groupId, ...body }) => updateGroup(ctx, groupId, body),
  }),
  defineTool({
    name: 'group_delete',
    title: 'Delete a group',
    category,
    description: 'Delete a group and the space roles it gave (workspace admin). Returns `{ id, deleted: true }`.',
    input: GroupParams.extend(GroupWorkspaceQuery.shape),
    output: DeletedRecord,
    annotations: DELETE,
    handler: (ctx, a) => deleteGroup(ctx, a.groupId, a.workspaceId),
  }),
  defineTool({
    name: 'group_member_add',
    title: 'Add group members',
    category,
    description: 'Add workspace members (`userIds`) to a group (workspace admin). Returns the group with its members.',
    input: GroupParams.extend(GroupMembersAddBody.shape),
    output: GroupWithMembers,
    annotations: UPDATE,
    handler: (ctx, { groupId, ...body }) => addGroupMembers(ctx, groupId, body),
  }),
  defineTool({
    name: 'group_member_remove',
    title: 'Remove a group member',
    category,
    description: 'Remove a user from a group (workspace admin). Returns `{ id, deleted: true }`.',
    input: GroupMemberParams.extend(GroupWorkspaceQuery.shape),
    output: DeletedRecord,
    annotations: DELETE,
    handler: (ctx, a) => removeGroupMember(ctx, a.groupId, a.userId, a.workspaceId),
  }),
];
