import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { Deleted } from '../../schema.js';
import {
  PageFromTemplateBody,
  PageFromTemplateResult,
  TemplateCreateBody,
  TemplateIdParams,
  TemplateListQuery,
  TemplateListResult,
  TemplateReadQuery,
  TemplateResult,
  TemplateUpdateBody,
  TemplateWithContentResult,
  TemplateWorkspaceQuery,
} from './templates.schema.js';
import { createPageFromTemplate, createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from './templates.service.js';

/** Page templates under `/api/v1/templates` (and the `/api` alias), enveloped like pages. */
export const templatesRoutes: AreaRoutes = (app, deps) => {
  const tags = ['templates'];
  const security = BEARER;
  app.get(
    '/templates',
    {
      schema: {
        tags,
        security,
        summary: 'Templates the caller can read, by title, without content; `spaceId` for those usable in one space (its own and the workspace-wide ones)',
        querystring: TemplateListQuery,
        response: { 200: TemplateListResult },
      },
    },
    async (req) => listTemplates(ctxOf(req, deps), req.query),
  );
  app.get(
    '/templates/:templateId',
    {
      schema: {
        tags,
        security,
        summary: 'A template with its content (and Markdown with format=markdown)',
        params: TemplateIdParams,
        querystring: TemplateReadQuery,
        response: { 200: TemplateWithContentResult },
      },
    },
    async (req) => ({ data: await getTemplate(ctxOf(req, deps), req.params.templateId, req.query) }),
  );
  app.post(
    '/templates',
    {
      schema: {
        tags,
        security,
        summary: 'Make a template from `content`, `markdown` or a page (`fromPageId`); in a space (editor) or workspace-wide (admin)',
        body: TemplateCreateBody,
        response: { 201: TemplateResult },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await createTemplate(ctxOf(req, deps), req.body) }),
  );
  app.patch(
    '/templates/:templateId',
    {
      schema: {
        tags,
        security,
        summary: 'Change the given fields of a template (space editor, or workspace admin for a workspace-wide one)',
        params: TemplateIdParams,
        body: TemplateUpdateBody,
        response: { 200: TemplateResult },
      },
    },
    async (req) => ({ data: await updateTemplate(ctxOf(req, deps), req.params.templateId, req.body) }),
  );
  app.delete(
    '/templates/:templateId',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a template; pages made from it stay (space editor, or workspace admin for a workspace-wide one)',
        params: TemplateIdParams,
        querystring: TemplateWorkspaceQuery,
        response: { 200: Deleted },
      },
    },
    async (req) => ({ data: await deleteTemplate(ctxOf(req, deps), req.params.templateId, req.query.workspaceId) }),
  );
  app.post(
    '/templates/:templateId/pages',
    {
      schema: {
        tags,
        security,
        summary: 'Create a page from a template, `{{date}}`, `{{author}}` and `{{title}}` filled in (editor in the target space); returns it without content',
        params: TemplateIdParams,
        body: PageFromTemplateBody,
        response: { 201: PageFromTemplateResult },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await createPageFromTemplate(ctxOf(req, deps), req.params.templateId, req.body) }),
  );
};
