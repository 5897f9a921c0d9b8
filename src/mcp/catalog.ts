/**
 * Every area's tools. Adding an area is one line here: `export { xTools } from '../areas/x/x.tools.js';`
 * (the registry takes every array this module exports).
 */
export { attachmentTools } from '../areas/attachments/attachments.tools.js';
export { auditTools } from '../areas/audit/audit.tools.js';
export { bugReportTools } from '../areas/bug-reports/bug-reports.tools.js';
export { commentTools } from '../areas/comments/comments.tools.js';
export { exportTools } from '../areas/exports/exports.tools.js';
export { goalTools } from '../areas/goals/goals.tools.js';
export { groupTools } from '../areas/groups/groups.tools.js';
export { importTools } from '../areas/imports/imports.tools.js';
export { invitationTools } from '../areas/invitations/invitations.tools.js';
export { knowledgeTools } from '../areas/knowledge/knowledge.tools.js';
export { memoryTools } from '../areas/memory/memory.tools.js';
export { notificationTools } from '../areas/notifications/notifications.tools.js';
export { pageTools } from '../areas/pages/pages.tools.js';
export { projectTools } from '../areas/projects/projects.tools.js';
export { researchTools } from '../areas/research/research.tools.js';
export { searchTools } from '../areas/search/search.tools.js';
export { shareTools } from '../areas/shares/shares.tools.js';
export { spaceTools } from '../areas/spaces/spaces.tools.js';
export { taskTools } from '../areas/tasks/tasks.tools.js';
export { templateTools } from '../areas/templates/templates.tools.js';
export { userTools } from '../areas/users/users.tools.js';
export { webhookTools } from '../areas/webhooks/webhooks.tools.js';
export { workspaceTools } from '../areas/workspaces/workspaces.tools.js';
export { metaTools } from './meta.tools.js';
