import { defineTool, READ } from '../../mcp/tool.js';
import { Import, ImportCreateBody, ImportParams } from './imports.schema.js';
import { createImportFromBase64, getImport } from './imports.service.js';

// The category the exports share, named "Import and Export": one place in list_categories for moving pages in and out.
const category = 'export';

export const importTools = [
  defineTool({
    name: 'import_create',
    title: 'Import pages from a file',
    category,
    description:
      'Import pages into a space (`spaceId`, editor rights needed), at its top or under `parentPageId`, from one file given as strict Base64 in `data` with its `filename`: a `.zip` of Markdown or HTML files (a Notion, Confluence or Obsidian export, or a kb export; `source` says which, `auto` tells them apart) or a single `.md`, `.markdown` or `.html` page. Folders become page trees, links between the files become links between the pages, and images and files become attachments. A bad file (not a zip, unsafe paths, too large) is refused at once with the reason. Returns `{ id, status: "queued", progress }`; poll `import_get` until `status` is `succeeded` (then `result.rootPageIds` are the top new pages) or `failed`. For files larger than a JSON body allows, upload over HTTP as multipart to `POST /api/v1/imports`.',
    input: ImportCreateBody,
    output: Import,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    handler: (ctx, a) => createImportFromBase64(ctx, a),
  }),
  defineTool({
    name: 'import_get',
    title: 'Import status',
    category,
    description:
      'Read an import’s `status` (queued, running, succeeded, failed), `progress` ({ done, total } pages and attachments written), `result` ({ pages, attachments, rootPageIds } once succeeded), `warnings` ([{ path, message }] for what could not be carried over) and `error` (why it failed; nothing of a failed import is kept). Only the import’s requester sees it.',
    input: ImportParams,
    output: Import,
    annotations: READ,
    handler: (ctx, a) => getImport(ctx, a.importId),
  }),
];
