import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER, recordRoutes } from '../../http/routes.js';
import { Deleted } from '../../schema.js';
import {
  SpaceCreateBody,
  SpaceListQuery,
  SpaceListResult,
  SpaceMemberListResult,
  SpaceMemberParams,
  SpaceMembersAddBody,
  SpaceOptionalWorkspaceQuery,
  SpaceParams,
  SpacePermissionBody,
  SpacePermissionListResult,
  SpacePermissionResult,
  SpaceReadQuery,
  SpaceResult,
  SpaceUpdateBody,
} from './spaces.schema.js';
import {
  addSpaceMembers,
  createSpace,
  deleteSpace,
  getSpace,
  listSpaceMembers,
  listSpacePermissions,
  listSpaces,
  removeSpaceMember,
  setSpacePermission,
  updateSpace,
} from './spaces.service.js';

export const spacesRoutes: AreaRoutes = recordRoutes((app, deps) => {
  const tags = ['spaces'];
  const security = BEARER;
  app.get(
    '/spaces',
    { schema: { tags, security, summary: 'Spaces of a workspace the caller can see', querystring: SpaceListQuery, response: { 200: SpaceListResult } } },
    async (req) => ({ data: await listSpaces(ctxOf(req, deps), req.query.workspaceId) }),
  );
  app.get(
    '/spaces/:spaceId',
    {
      schema: {
        tags,
        security,
        summary: 'A space, with pageCount and memberCount',
        params: SpaceParams,
        querystring: SpaceReadQuery,
        response: { 200: SpaceResult },
      },
    },
    async (req) => ({ data: await getSpace(ctxOf(req, deps), req.query.workspaceId, req.params.spaceId) }),
  );
  app.post(
    '/spaces',
    { schema: { tags, security, summary: 'Create a space (workspace admin)', body: SpaceCreateBody, response: { 201: SpaceResult } } },
    async (req, reply) => reply.status(201).send({ data: await createSpace(ctxOf(req, deps), req.body) }),
  );
  app.put(
    '/spaces/:spaceId',
    {
      schema: {
        tags,
        security,
        summary: 'Update name, description, icon or visibility (space admin)',
        params: SpaceParams,
        body: SpaceUpdateBody,
        response: { 200: SpaceResult },
      },
    },
    async (req) => ({ data: await updateSpace(ctxOf(req, deps), req.params.spaceId, req.body) }),
  );
  app.delete(
    '/spaces/:spaceId',
    {
      schema: {
        tags,
        security,
        summary: 'Delete the space with all its pages, comments and attachments, irreversibly (space admin)',
        params: SpaceParams,
        querystring: SpaceReadQuery,
        response: { 200: Deleted },
      },
    },
    async (req) => ({ data: await deleteSpace(ctxOf(req, deps), req.query.workspaceId, req.params.spaceId) }),
  );
  app.get(
    '/spaces/:spaceId/members',
    {
      schema: {
        tags,
        security,
        summary: 'Users with a role in the space, directly or through groups',
        params: SpaceParams,
        querystring: SpaceOptionalWorkspaceQuery,
        response: { 200: SpaceMemberListResult },
      },
    },
    async (req) => ({ data: await listSpaceMembers(ctxOf(req, deps), req.params.spaceId, req.query.workspaceId) }),
  );
  app.post(
    '/spaces/:spaceId/members',
    {
      schema: {
        tags,
        security,
        summary: 'Give users and groups a role in the space (space admin); returns the members',
        params: SpaceParams,
        body: SpaceMembersAddBody,
        response: { 201: SpaceMemberListResult },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await addSpaceMembers(ctxOf(req, deps), req.params.spaceId, req.body) }),
  );
  app.get(
    '/spaces/:spaceId/permissions',
    {
      schema: {
        tags,
        security,
        summary: 'The direct role grants of the space: users and groups',
        params: SpaceParams,
        querystring: SpaceOptionalWorkspaceQuery,
        response: { 200: SpacePermissionListResult },
      },
    },
    async (req) => ({ data: await listSpacePermissions(ctxOf(req, deps), req.params.spaceId, req.query.workspaceId) }),
  );
  app.put(
    '/spaces/:spaceId/permissions',
    {
      schema: {
        tags,
        security,
        summary: 'Set the role of a user or a group in the space (space admin)',
        params: SpaceParams,
        body: SpacePermissionBody,
        response: { 200: SpacePermissionResult },
      },
    },
    async (req) => ({ data: await setSpacePermission(ctxOf(req, deps), req.params.spaceId, req.body) }),
  );
  app.delete(
    '/spaces/:spaceId/members/:userId',
    {
      schema: {
        tags,
        security,
        summary: 'Remove the direct role of a user (or a group) in the space (space admin)',
        params: SpaceMemberParams,
        querystring: SpaceOptionalWorkspaceQuery,
        response: { 200: Deleted },
      },
    },
    async (req) => ({ data: await removeSpaceMember(ctxOf(req, deps), req.params.spaceId, req.params.userId, req.query.workspaceId) }),
  );
});
