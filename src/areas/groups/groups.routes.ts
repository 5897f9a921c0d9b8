import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER, recordRoutes } from '../../http/routes.js';
import { Deleted } from '../../schema.js';
import {
  GroupCreateBody,
  GroupListQuery,
  GroupListResult,
  GroupMemberParams,
  GroupMembersAddBody,
  GroupParams,
  GroupResult,
  GroupUpdateBody,
  GroupWorkspaceQuery,
} from './groups.schema.js';
import { addGroupMembers, createGroup, deleteGroup, getGroup, listGroups, removeGroupMember, updateGroup } from './groups.service.js';

export const groupsRoutes: AreaRoutes = recordRoutes((app, deps) => {
  const tags = ['groups'];
  const security = BEARER;
  app.get(
    '/groups',
    { schema: { tags, security, summary: 'Groups of a workspace', querystring: GroupListQuery, response: { 200: GroupListResult } } },
    async (req) => ({ data: await listGroups(ctxOf(req, deps), req.query.workspaceId) }),
  );
  app.get(
    '/groups/:groupId',
    { schema: { tags, security, summary: 'A group with its members', params: GroupParams, querystring: GroupWorkspaceQuery, response: { 200: GroupResult } } },
    async (req) => ({ data: await getGroup(ctxOf(req, deps), req.params.groupId, req.query.workspaceId) }),
  );
  app.post(
    '/groups',
    { schema: { tags, security, summary: 'Create a group (workspace admin)', body: GroupCreateBody, response: { 201: GroupResult } } },
    async (req, reply) => reply.status(201).send({ data: await createGroup(ctxOf(req, deps), req.body) }),
  );
  app.put(
    '/groups/:groupId',
    {
      schema: {
        tags,
        security,
        summary: 'Rename a group or change its description (workspace admin)',
        params: GroupParams,
        body: GroupUpdateBody,
        response: { 200: GroupResult },
      },
    },
    async (req) => ({ data: await updateGroup(ctxOf(req, deps), req.params.groupId, req.body) }),
  );
  app.delete(
    '/groups/:groupId',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a group and the space roles it gave (workspace admin)',
        params: GroupParams,
        querystring: GroupWorkspaceQuery,
        response: { 200: Deleted },
      },
    },
    async (req) => ({ data: await deleteGroup(ctxOf(req, deps), req.params.groupId, req.query.workspaceId) }),
  );
  app.post(
    '/groups/:groupId/members',
    {
      schema: {
        tags,
        security,
        summary: 'Add workspace members to the group (workspace admin); returns the group',
        params: GroupParams,
        body: GroupMembersAddBody,
        response: { 201: GroupResult },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await addGroupMembers(ctxOf(req, deps), req.params.groupId, req.body) }),
  );
  app.delete(
    '/groups/:groupId/members/:userId',
    {
      schema: {
        tags,
        security,
        summary: 'Remove a user from the group (workspace admin)',
        params: GroupMemberParams,
        querystring: GroupWorkspaceQuery,
        response: { 200: Deleted },
      },
    },
    async (req) => ({ data: await removeGroupMember(ctxOf(req, deps), req.params.groupId, req.params.userId, req.query.workspaceId) }),
  );
});
