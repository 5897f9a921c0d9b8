import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { AuditListQuery, AuditListResult } from './audit.schema.js';
import { listAuditLog } from './audit.service.js';

/** The audit log is read only: there is no route that edits or deletes an entry. */
export const auditRoutes: AreaRoutes = (app, deps) => {
  app.get(
    '/audit-log',
    {
      schema: {
        tags: ['audit'],
        security: BEARER,
        summary: 'The workspace’s audit log, newest first (workspace admins)',
        description:
          'Security events of the workspace (membership and role changes, invitations, space and group grants, page restrictions, shares, exports) and the sign-ins of its current members made since they joined (their failed sign-ins, sessions, keys and passwords are their own). Filter by `action` (repeated or comma-separated), `actorId`, `targetId`, `since`, `until`; page with `cursor` = `meta.nextCursor`. Entries cannot be changed.',
        querystring: AuditListQuery,
        response: { 200: AuditListResult },
      },
    },
    async (req) => listAuditLog(ctxOf(req, deps), req.query),
  );
};
