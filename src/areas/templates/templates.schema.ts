import { z } from 'zod';
import { envelope, Id, Limit, ListMeta, PageNumber, QueryBoolean } from '../../schema.js';
import { Content, Format, Icon, Markdown, Page, Position, Title } from '../pages/pages.schema.js';

const TemplateTitle = z.string().trim().min(1).max(500).describe('Template name (1–500 characters, like a page title)');
const Description = z.string().trim().max(1000).describe('What the template is for (up to 1000 characters)');
/** The caller's calendar date, so `{{date}}` is their today rather than the server's. */
export const LocalDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'must be a real date')
  .describe('The value of `{{date}}` (YYYY-MM-DD): the caller’s today in their own time zone. Absent: today in UTC');

export const Template = z.object({
  id: z.string(),
  workspaceId: z.string(),
  spaceId: z.string().nullable().describe('The space the template belongs to; null for a workspace-wide template'),
  title: z.string(),
  icon: z.string().nullable(),
  description: z.string().nullable(),
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const TemplateWithContent = Template.extend({
  content: Content,
  markdown: z.string().optional().describe('With `format=markdown` only'),
});

export const TemplateIdParams = z.object({ templateId: Id });

export const TemplateListQuery = z.object({
  workspaceId: Id,
  spaceId: Id.optional().describe('The templates usable in this space: its own and the workspace-wide ones. Absent: every template the caller can read'),
  limit: Limit(50),
  page: PageNumber,
});

export const TemplateReadQuery = z.object({
  workspaceId: Id.optional().describe('Optional: the template’s workspace is taken from the template itself; when given it must match'),
  format: Format.default('json'),
  fill: QueryBoolean.optional().describe(
    'With `true`: the content (and Markdown) with `{{date}}`, `{{author}}` (the caller’s name) and `{{title}}` filled, as a page made from it would hold them; for inserting a template into an existing page',
  ),
  title: Title.optional().describe('With `fill`: the value of `{{title}}` (the page it goes into); absent: empty'),
  date: LocalDate.optional(),
});

export const TemplateCreateBody = z.object({
  workspaceId: Id,
  spaceId: Id.nullable().optional().describe('A space the caller can edit in; absent or null for a workspace-wide template (workspace admins only)'),
  title: TemplateTitle.optional().describe('Required unless `fromPageId` is given (then the page’s title is the default)'),
  icon: Icon.nullable().optional(),
  description: Description.nullable().optional(),
  content: Content.optional().describe('The template body as a ProseMirror document; or `markdown`, or `fromPageId`'),
  markdown: Markdown.optional(),
  fromPageId: Id.optional().describe('Copy the content (and by default the title and icon) of this page, which the caller must be able to read'),
});

export const TemplateUpdateBody = z.object({
  workspaceId: Id.optional().describe('Optional: taken from the template itself; when given it must match'),
  title: TemplateTitle.optional(),
  icon: Icon.nullable().optional().describe('null clears it'),
  description: Description.nullable().optional().describe('null clears it'),
  content: Content.optional(),
  markdown: Markdown.optional(),
});

export const TemplateWorkspaceQuery = z.object({ workspaceId: Id.optional().describe('Optional: taken from the template itself; when given it must match') });

export const PageFromTemplateBody = z.object({
  workspaceId: Id.optional().describe('Optional: taken from the template itself; when given it must match'),
  spaceId: Id.describe('The space to create the page in (editor rights needed)'),
  parentId: Id.nullable().optional().describe('A page of that space to nest the new page under; absent or null for a root page'),
  title: Title.optional().describe('The new page’s title, also the value of `{{title}}`. Absent: the template’s title with its placeholders filled'),
  date: LocalDate.optional(),
  position: Position.optional(),
  afterId: Id.optional().describe('Place right after this sibling'),
  beforeId: Id.optional().describe('Place right before this sibling'),
});

export const TemplateResult = envelope(Template);
export const TemplateWithContentResult = envelope(TemplateWithContent);
export const TemplateListResult = z.object({ data: z.array(Template), meta: ListMeta });
export const PageFromTemplateResult = envelope(Page);
