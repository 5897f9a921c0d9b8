import { defineTool, READ } from '../../mcp/tool.js';
import { AuditListQuery, AuditListResult } from './audit.schema.js';
import { listAuditLog } from './audit.service.js';

export const auditTools = [
  defineTool({
    name: 'audit_log_list',
    title: 'Read the audit log',
    category: 'workspace',
    description:
      'Read a workspace’s audit log, newest first (workspace admins only): who did what and when, from which address — its members’ sign-ins since they joined, API keys limited to it, password reset links its admins made, membership and role changes, invitations, space and group grants, page restrictions, public shares, exports. Filter by `action` (an array or comma-separated list, e.g. "member.role_changed"), `actorId`, `targetId`, `since`, `until` (ISO 8601). Returns `{ data: [{ id, action, actor: { id, name, email }, target: { type, id, name }, details, address, userAgent, createdAt }], meta: { limit, hasMore, nextCursor } }`; pass `nextCursor` as `cursor` for older entries.',
    input: AuditListQuery,
    output: AuditListResult,
    annotations: READ,
    handler: (ctx, a) => listAuditLog(ctx, a),
  }),
];
