import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER, recordRoutes } from '../../http/routes.js';
import { ErrorBody } from '../../schema.js';
import { PasswordChangeBody, PasswordChanged, UserListQuery, UserListResult, UserParams, UserReadQuery, UserResult, UserUpdateBody } from './users.schema.js';
import { changePassword, getUser, listUsers, updateUser } from './users.service.js';

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
  app.post(
    '/users/me/password',
    {
      preValidation: deps.authThrottle.guard,
      schema: {
        tags,
        summary: 'Change your password: signs out every other session of yours (this one stays; API keys keep working)',
        description:
          'Needs a session token (JWT or the browser cookie); an API key gets 403 `session_required`. A wrong current password is 422 `VALIDATION_ERROR` ' +
          '(`details.field: "currentPassword"`); an account without a password (single sign-on) gets 403 `no_password` and sets one through a reset link. Throttled like login.',
        security: BEARER,
        body: PasswordChangeBody,
        response: { 200: PasswordChanged, 403: ErrorBody, 422: ErrorBody, 429: ErrorBody },
      },
    },
    async (req) => ({ data: await changePassword(ctxOf(req, deps), deps.authenticator, req.body) }),
  );
});
