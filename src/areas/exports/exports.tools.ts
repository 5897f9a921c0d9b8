import { defineTool, READ } from '../../mcp/tool.js';
import { Export, ExportCreateBody, ExportParams } from './exports.schema.js';
import { createExport, getExport } from './exports.service.js';

const category = 'export';

export const exportTools = [
  defineTool({
    name: 'export_create',
    title: 'Export a space or page tree',
    category,
    description:
      'Start an export of a whole space (`spaceId`) or a page (`pageId`, with its descendants unless `includeChildren` is false) as a zip of Markdown files with YAML front matter (`format: "markdown"`) or HTML files, attachments included unless `includeAttachments` is false. Returns `{ id, status: "queued", progress }`; poll `export_get` until `status` is `succeeded`, then download the zip from its `downloadUrl` over HTTP with the same credentials.',
    input: ExportCreateBody,
    output: Export,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    handler: (ctx, a) => createExport(ctx, a),
  }),
  defineTool({
    name: 'export_get',
    title: 'Export status',
    category,
    description:
      'Read an export’s `status` (queued, running, succeeded, failed), `progress` ({ done, total } pages and attachments), `error`, `size` and `downloadUrl`. Only the export’s requester sees it.',
    input: ExportParams,
    output: Export,
    annotations: READ,
    handler: (ctx, a) => getExport(ctx, a.exportId),
  }),
];
