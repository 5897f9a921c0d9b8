import { DELETE, defineTool, PagedList, paged, READ, UPDATE, WRITE } from '../../mcp/tool.js';
import { DeletedRecord } from '../../schema.js';
import { Page } from '../pages/pages.schema.js';
import { OneFormat, oneFormat, ReadFormat } from '../pages/pages.tools.js';
import {
  PageFromTemplateBody,
  Template,
  TemplateCreateBody,
  TemplateIdParams,
  TemplateListQuery,
  TemplateReadQuery,
  TemplateUpdateBody,
  TemplateWithContent,
  TemplateWorkspaceQuery,
} from './templates.schema.js';
import { createPageFromTemplate, createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from './templates.service.js';

const category = 'template';

export const templateTools = [
  defineTool({
    name: 'template_list',
    title: 'List templates',
    category,
    description:
      'List the page templates of a workspace the caller can read, by title, without content; `spaceId` gives those usable in that space (its own and the workspace-wide ones, `spaceId: null`). Paged (`limit`, `page`). Returns `{ items: [{ id, title, icon, description, spaceId, … }], total, page, limit, hasMore }`.',
    input: TemplateListQuery,
    output: PagedList(Template),
    annotations: READ,
    handler: async (ctx, a) => {
      const { data, meta } = await listTemplates(ctx, a);
      return paged(data, meta);
    },
  }),
  defineTool({
    name: 'template_get',
    title: 'Read a template',
    category,
    description: 'Read a template: its fields and content as Markdown (default), or as the document tree with `format: "json"`.',
    input: TemplateIdParams.extend({ workspaceId: TemplateReadQuery.shape.workspaceId, format: ReadFormat }),
    output: OneFormat(TemplateWithContent),
    annotations: READ,
    handler: async (ctx, a) => oneFormat(await getTemplate(ctx, a.templateId, { workspaceId: a.workspaceId, format: a.format }), a.format),
  }),
  defineTool({
    name: 'template_create',
    title: 'Create a template',
    category,
    description:
      'Make a page template from `markdown` (preferred), a ProseMirror `content` tree, or an existing page (`fromPageId`, which takes its title and icon unless given). With `spaceId` it belongs to that space (editor rights there); without, it is workspace-wide (workspace admins). Text may hold `{{date}}`, `{{author}}` and `{{title}}`, filled when a page is made from it. Returns the template without content.',
    input: TemplateCreateBody,
    output: Template,
    annotations: WRITE,
    handler: (ctx, a) => createTemplate(ctx, a),
  }),
  defineTool({
    name: 'template_update',
    title: 'Update a template',
    category,
    description: 'Change the title, icon, description or content (`markdown` or `content`) of a template; only the given fields change. Returns the template.',
    input: TemplateIdParams.extend(TemplateUpdateBody.shape),
    output: Template,
    annotations: UPDATE,
    handler: (ctx, { templateId, ...body }) => updateTemplate(ctx, templateId, body),
  }),
  defineTool({
    name: 'template_delete',
    title: 'Delete a template',
    category,
    description: 'Delete a template; pages made from it stay. Returns `{ id, deleted: true }`.',
    input: TemplateIdParams.extend(TemplateWorkspaceQuery.shape),
    output: DeletedRecord,
    annotations: DELETE,
    handler: (ctx, a) => deleteTemplate(ctx, a.templateId, a.workspaceId),
  }),
  defineTool({
    name: 'page_create_from_template',
    title: 'Create a page from a template',
    category,
    description:
      'Create a page in `spaceId` (editor rights) from a template, optionally under `parentId`, with `{{date}}` (`date` as YYYY-MM-DD, else today in UTC), `{{author}}` (your name) and `{{title}}` (the new page’s `title`, which defaults to the template’s) filled in. Returns the page (id, title, …) without content; read it with `page_get`.',
    input: TemplateIdParams.extend(PageFromTemplateBody.shape),
    output: Page,
    annotations: WRITE,
    handler: (ctx, { templateId, ...body }) => createPageFromTemplate(ctx, templateId, body),
  }),
];
