import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER, recordRoutes } from '../../http/routes.js';
import { UserListQuery, UserListResult, UserParams, UserReadQuery, UserResult, UserUpdateBody } from './users.schema.js';
import { getUser, listUsers, updateUser } from './users.service.js';

export const usersRoutes: AreaRoutes = recordRoutes((app, deps) => {
  const tags = ['users'];
  app.get(
    '/users',
    {
      schema: {
        tags,
        summary: 'Members of a workspace, searchable by name or email',
        security: BEARER,
        querystring: UserListQuery,
        response: { 200: UserListResult },
      },
    },
    async (req) => ({ data: await listUsers(ctxOf(req, deps), req.query) }),
  );
  app.get(
    '/users/:userId',
    {
      schema: {
        tags,
        summary: 'A user who shares a workspace with the caller',
        security: BEARER,
        params: UserParams,
        querystring: UserReadQuery,
        response: { 200: UserResult },
      },
    },
    async (req) => ({ data: await getUser(ctxOf(req, deps), req.params.userId, req.query.workspaceId) }),
  );
  app.put(
    '/users/:userId',
    { schema: { tags, summary: 'Update your own name or avatar', security: BEARER, params: UserParams, body: UserUpdateBody, response: { 200: UserResult } } },
    async (req) => ({ data: await updateUser(ctxOf(req, deps), req.params.userId, req.body) }),
  );
});
