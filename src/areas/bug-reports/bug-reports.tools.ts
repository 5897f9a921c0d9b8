import { DELETE, defineTool, PagedList, READ, UPDATE, WRITE } from '../../mcp/tool.js';
import { BugAutoBody, BugAutoResult, BugCreateBody, BugDeleted, BugIdBody, BugListBody, BugReport, BugSummary, BugUpdateBody } from './bug-reports.schema.js';
import { autoReport, createBugReport, deleteBugReport, getBugReport, listBugReports, updateBugReport } from './bug-reports.service.js';

const category = 'bug_report';

export const bugReportTools = [
  defineTool({
    name: 'bug_report_list',
    title: 'List bug reports',
    category,
    description:
      'List bug reports of the workspaces you administer, newest first, filtered by `source`, `severity`, `status`, `workspaceId`, `fromDate`, `toDate` (admin). Paged (`page`, `limit`). Returns `{ items: [{ id, title, source, severity, status, occurrenceCount, occurredAt }], page, limit, hasMore }`.',
    input: BugListBody,
    output: PagedList(BugSummary).omit({ total: true }),
    annotations: READ,
    handler: async (ctx, a) => {
      const { items, meta } = await listBugReports(ctx, a);
      return { items, page: meta.page, limit: meta.limit, hasMore: meta.hasNextPage };
    },
  }),
  defineTool({
    name: 'bug_report_get',
    title: 'Get a bug report',
    category,
    description: 'Read a full bug report: error, stack, user journey, context, occurrences (admin of its workspace).',
    input: BugIdBody,
    output: BugReport,
    annotations: READ,
    handler: (ctx, a) => getBugReport(ctx, a.bugReportId),
  }),
  defineTool({
    name: 'bug_report_create',
    title: 'Report a bug',
    category,
    description:
      'File a bug report by hand (admin): `title`, `description`, `severity` (low, medium default, high, critical), `workspaceId`, `spaceId`, `context`. Your recent requests are attached as the user journey. Returns the report with its `id`.',
    input: BugCreateBody.extend({ source: BugCreateBody.shape.source.default('user:command') }),
    output: BugReport,
    annotations: WRITE,
    handler: (ctx, a) => createBugReport(ctx, a, ctx.mcp.journeys),
  }),
  defineTool({
    name: 'bug_report_auto',
    title: 'Report an error automatically',
    category,
    description:
      'Report an error you ran into (any member; use `source: "auto:agent"`): `errorMessage`, `errorStack`, `errorCode`, optional `title` and `severity` (detected when absent). The same open error within 24 hours is counted, not duplicated. Returns `{ id, title, status, occurrenceCount, deduplicated }`.',
    input: BugAutoBody,
    output: BugAutoResult,
    annotations: WRITE,
    handler: (ctx, a) => autoReport(ctx, a),
  }),
  defineTool({
    name: 'bug_report_update',
    title: 'Update a bug report',
    category,
    description:
      'Change the title, description, severity or status (open, triaged, in_progress, resolved, closed) of a bug report (admin). Returns the report.',
    input: BugUpdateBody,
    output: BugReport,
    annotations: UPDATE,
    handler: (ctx, a) => updateBugReport(ctx, a),
  }),
  defineTool({
    name: 'bug_report_delete',
    title: 'Delete a bug report',
    category,
    description: 'Delete a bug report (admin; a soft delete: gone from lists). Returns `{ id, deleted: true }`.',
    input: BugIdBody,
    output: BugDeleted.shape.data,
    annotations: DELETE,
    handler: (ctx, a) => deleteBugReport(ctx, a.bugReportId),
  }),
];
