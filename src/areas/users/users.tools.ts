import { defineTool, ItemList, listOf, READ, UPDATE } from '../../mcp/tool.js';
import { User, UserListQuery, UserParams, UserReadQuery, UserUpdateBody } from './users.schema.js';
import { getMe, getUser, listUsers, updateUser } from './users.service.js';

const category = 'user';

export const userTools = [
  defineTool({
    name: 'user_me',
    title: 'Who am I',
    category,
    description:
      'Your own user record (id, name, email). Give `workspaceId` to also get your role there. Use it to learn your user id (for `assigneeId` and the like).',
    input: UserReadQuery,
    output: User,
    annotations: READ,
    handler: (ctx, a) => getMe(ctx, a.workspaceId),
  }),
  defineTool({
    name: 'user_list',
    title: 'List users',
    category,
    description:
      'List the members of a workspace, optionally filtered by `query` (matches name or email). Use it to find a user id for assigning tasks or granting roles. Returns `{ items: [{ id, name, email, role }], total }`.',
    input: UserListQuery,
    output: ItemList(User),
    annotations: READ,
    handler: async (ctx, a) => listOf(await listUsers(ctx, a)),
  }),
  defineTool({
    name: 'user_get',
    title: 'Get a user',
    category,
    description: 'Read a user who shares a workspace with you; with `workspaceId`, includes their role there.',
    input: UserParams.extend(UserReadQuery.shape),
    output: User,
    annotations: READ,
    handler: (ctx, a) => getUser(ctx, a.userId, a.workspaceId),
  }),
  defineTool({
    name: 'user_update',
    title: 'Update your profile',
    category,
    description: 'Change your own name or avatar URL (only your own `userId`). Returns the user.',
    input: UserParams.extend(UserUpdateBody.shape),
    output: User,
    annotations: UPDATE,
    handler: (ctx, { userId, ...body }) => updateUser(ctx, userId, body),
  }),
];
