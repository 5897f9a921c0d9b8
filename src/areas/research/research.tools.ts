import { DELETE, defineTool, OffsetPagedList, offsetPaged, READ } from '../../mcp/tool.js';
import { Id, WorkspaceIdParams } from '../../schema.js';
import {
  ResearchCancelResult,
  ResearchCreateBody,
  ResearchJob,
  ResearchListItem,
  ResearchListQuery,
  ResearchParams,
  ResearchReport,
} from './research.schema.js';
import { cancelResearch, createResearch, getReport, getResearch, listResearch } from './research.service.js';

const category = 'research';

export const researchTools = [
  defineTool({
    name: 'research_create',
    title: 'Start a research job',
    category,
    description:
      'Start an asynchronous research job on a `topic` (editor): it searches the workspace’s docs, the web and optionally a repository, then writes a report saved as a page in `spaceId` (or the creator’s private "Research (<name>)" space); the report quotes only what every reader of that space can read. Returns the job with `status: "pending"`; poll `research_status`, then read `research_report`. Limits: 5 running per workspace, 10 an hour.',
    input: WorkspaceIdParams.extend(ResearchCreateBody.shape).extend({
      spaceId: Id.optional().describe('Space the report page is saved in (same as `targetSpaceId`)'),
    }),
    output: ResearchJob,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    handler: (ctx, { workspaceId, spaceId, ...body }) => createResearch(ctx, workspaceId, { ...body, targetSpaceId: body.targetSpaceId ?? spaceId }),
  }),
  defineTool({
    name: 'research_status',
    title: 'Research job status',
    category,
    description:
      'Read a research job’s status (pending, running, completed, failed, cancelled), progress (0–100), sources searched, documents found and time estimates.',
    input: ResearchParams,
    output: ResearchJob,
    annotations: READ,
    handler: (ctx, a) => getResearch(ctx, a.workspaceId, a.jobId),
  }),
  defineTool({
    name: 'research_report',
    title: 'Research report',
    category,
    description:
      'Read the report of a completed research job: `summary`, Markdown `content` with numbered citations, `sources` (title, url, relevance) and the `pageId` holding it. Before completion it gives NOT_FOUND with `details.status`.',
    input: ResearchParams,
    output: ResearchReport,
    annotations: READ,
    handler: (ctx, a) => getReport(ctx, a.workspaceId, a.jobId),
  }),
  defineTool({
    name: 'research_cancel',
    title: 'Cancel a research job',
    category,
    description:
      'Cancel a research job whatever its state (editor). Returns `{ id, status: "cancelled", partialResults: true }`; what a running job had gathered is kept as its report.',
    input: ResearchParams,
    output: ResearchCancelResult,
    annotations: { ...DELETE, destructiveHint: false },
    handler: (ctx, a) => cancelResearch(ctx, a.workspaceId, a.jobId),
  }),
  defineTool({
    name: 'research_list',
    title: 'List research jobs',
    category,
    description:
      'List the research jobs of a workspace, newest first, optionally by `status`. Paged with `limit`/`offset`. Returns `{ items: [{ id, topic, status, progress, createdAt, completedAt }], total, offset, limit, hasMore }`.',
    input: WorkspaceIdParams.extend(ResearchListQuery.shape),
    output: OffsetPagedList(ResearchListItem),
    annotations: READ,
    handler: async (ctx, { workspaceId, ...q }) => {
      const { jobs, total, limit, offset } = await listResearch(ctx, workspaceId, q);
      return offsetPaged(jobs, { total, limit, offset });
    },
  }),
];
