import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import type { DocJson } from '../../db/tables/pages.js';
import { AppError, missingRequired, notFound, validation } from '../../errors.js';
import { newId } from '../../ids.js';
import { documentToMarkdownOffThread } from '../../workers/offload.js';
import { resolveBody } from '../pages/pages.content.js';
import { checkPageAccess } from '../pages/pages.policy.js';
import { pagesRepo } from '../pages/pages.repo.js';
import { createPage } from '../pages/pages.service.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { visibleToActor } from '../tasks/tasks.policy.js';
import { usersRepo } from '../users/users.repo.js';
import { requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { fillDocument, fillText } from './templates.placeholders.js';
import { requireTemplateAccess, requireTemplateTarget } from './templates.policy.js';
import { presentTemplate, presentTemplateWithContent } from './templates.present.js';
import { type TemplatePatch, templatesRepo } from './templates.repo.js';
import type { PageFromTemplateBody, TemplateCreateBody, TemplateListQuery, TemplateReadQuery, TemplateUpdateBody } from './templates.schema.js';

const MAX_TITLE = 500;

async function templateOrThrow(ctx: Ctx, workspaceId: string, templateId: string) {
  const row = await templatesRepo.findWithContent(ctx.db, workspaceId, templateId);
  if (!row) throw notFound('Template', templateId);
  return row;
}

/** The templates the caller can read, by title: every one, or those usable in `spaceId` (its own and the workspace-wide ones). */
export async function listTemplates(ctx: Ctx, q: z.infer<typeof TemplateListQuery>) {
  await requireWorkspaceRole(ctx, q.workspaceId, 'viewer');
  if (q.spaceId) await requireSpaceRole(ctx, q.workspaceId, q.spaceId, 'viewer');
  const { rows, total } = await templatesRepo.list(
    ctx.db,
    q.workspaceId,
    visibleToActor(ctx, 't.spaceId', q.workspaceId),
    { spaceId: q.spaceId },
    q.limit,
    (q.page - 1) * q.limit,
  );
  return { data: rows.map(presentTemplate), meta: { page: q.page, limit: q.limit, total } };
}

export async function getTemplate(ctx: Ctx, templateId: string, opts: z.infer<typeof TemplateReadQuery>) {
  const scope = await requireTemplateAccess(ctx, templateId, 'read', opts);
  const stored = await templateOrThrow(ctx, scope.workspaceId, templateId);
  const row = opts.fill ? { ...stored, content: fillDocument(stored.content, await placeholderValues(ctx, opts.date, opts.title ?? '')) } : stored;
  const markdown = opts.format === 'markdown' ? await documentToMarkdownOffThread(ctx.env.config, row.content) : undefined;
  return presentTemplateWithContent(row, markdown);
}

/** What the placeholders take for the caller: `date` (their today, else today in UTC), their name, and `title`. */
async function placeholderValues(ctx: Ctx, date: string | undefined, title: string) {
  const user = await usersRepo.findById(ctx.db, requireActor(ctx).userId);
  return { date: date ?? ctx.now().toISOString().slice(0, 10), author: user?.name ?? '', title };
}

/**
 * The content (and default title and icon) of the page a template is made from: any page of the workspace the caller
 * can read. A page they cannot read (unknown, in a space hidden from them, or restricted and closed to them) is
 * `NOT_FOUND` naming `fromPageId`, whatever the reason, so the refusal reveals nothing.
 */
async function sourcePage(ctx: Ctx, workspaceId: string, pageId: string) {
  const row = await pagesRepo.findWithContentById(ctx.db, pageId, requireActor(ctx).userId);
  try {
    const { page } = await checkPageAccess(ctx, pageId, row, 'viewer', { workspaceId });
    return page;
  } catch (err) {
    if (err instanceof AppError && (err.code === 'NOT_FOUND' || err.code === 'FORBIDDEN'))
      throw new AppError('NOT_FOUND', 'Page not found', { resource: 'Page', id: pageId, field: 'fromPageId' });
    throw err;
  }
}

export async function createTemplate(ctx: Ctx, input: z.infer<typeof TemplateCreateBody>) {
  const actor = requireActor(ctx);
  const { workspaceId } = input;
  const spaceId = input.spaceId ?? null;
  await requireTemplateTarget(ctx, workspaceId, spaceId);
  let content: DocJson;
  let title = input.title;
  let icon = input.icon;
  if (input.fromPageId !== undefined) {
    if (input.content !== undefined || input.markdown !== undefined) throw validation('fromPageId', 'conflict', 'Send one of content, markdown or fromPageId');
    const page = await sourcePage(ctx, workspaceId, input.fromPageId);
    content = page.content;
    title ??= page.title;
    if (icon === undefined) icon = page.icon;
  } else {
    content = (await resolveBody(ctx, input, true))!.json;
  }
  if (!title) throw missingRequired('title', 'title is required (unless fromPageId names a page to take it from)');
  const id = newId();
  await templatesRepo.insert(
    ctx.db,
    {
      id,
      workspaceId,
      spaceId,
      title: title.slice(0, MAX_TITLE),
      icon: icon ?? null,
      description: input.description ?? null,
      content,
      createdBy: actor.userId,
    },
    ctx.now(),
  );
  return presentTemplate(await templateOrThrow(ctx, workspaceId, id));
}

export async function updateTemplate(ctx: Ctx, templateId: string, input: z.infer<typeof TemplateUpdateBody>) {
  const actor = requireActor(ctx);
  const { workspaceId } = await requireTemplateAccess(ctx, templateId, 'manage', { workspaceId: input.workspaceId });
  const body = await resolveBody(ctx, input, false);
  const patch: TemplatePatch = {};
  if (input.title !== undefined) patch.title = input.title;
  if (input.icon !== undefined) patch.icon = input.icon;
  if (input.description !== undefined) patch.description = input.description;
  if (body) patch.content = body.json;
  if (Object.keys(patch).length > 0) await templatesRepo.update(ctx.db, workspaceId, templateId, patch, actor.userId, ctx.now());
  return presentTemplate(await templateOrThrow(ctx, workspaceId, templateId));
}

export async function deleteTemplate(ctx: Ctx, templateId: string, workspaceId?: string) {
  const scope = await requireTemplateAccess(ctx, templateId, 'manage', { workspaceId });
  await templatesRepo.delete(ctx.db, scope.workspaceId, templateId);
  return { id: templateId, deleted: true as const };
}

/**
 * A new page from a template, through the pages service's own create (validation, history, events, search text and the
 * parent's restrictions all apply): the template's content and icon with `{{date}}` (the caller's `date`, else today
 * in UTC), `{{author}}` (the caller's name) and `{{title}}` (the new page's title) filled in its text, code excepted.
 * The title defaults to the template's, its `{{date}}` and `{{author}}` filled (`{{title}}` there is dropped).
 */
export async function createPageFromTemplate(ctx: Ctx, templateId: string, input: z.infer<typeof PageFromTemplateBody>) {
  const scope = await requireTemplateAccess(ctx, templateId, 'read', { workspaceId: input.workspaceId });
  const template = await templateOrThrow(ctx, scope.workspaceId, templateId);
  const { date, author } = await placeholderValues(ctx, input.date, '');
  const title = (input.title ?? fillText(template.title, { date, author, title: '' }).trim()).slice(0, MAX_TITLE) || 'Untitled';
  return createPage(ctx, {
    workspaceId: scope.workspaceId,
    spaceId: input.spaceId,
    parentId: input.parentId,
    title,
    icon: template.icon,
    content: fillDocument(template.content, { date, author, title }),
    position: input.position,
    afterId: input.afterId,
    beforeId: input.beforeId,
  });
}
