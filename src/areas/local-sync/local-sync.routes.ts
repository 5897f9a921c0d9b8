import type { ZodType, z } from 'zod';
import type { Ctx } from '../../context.js';
import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { listConflicts, previewConflict, resolveConflict } from './local-sync.conflicts.service.js';
import { getFile, history, listFiles, updateFile } from './local-sync.files.service.js';
import { pushBatch } from './local-sync.push.service.js';
import * as S from './local-sync.schema.js';
import { createSource, deltas, heartbeat, listSources, registerConnector, setPaused } from './local-sync.service.js';

/**
 * Local sync: every operation is a POST under /api/local-sync (no version segment); bodies and answers are bare
 * JSON (see docs/local-sync.md). The workspace comes from the body's workspaceId or the x-workspace-id header.
 */
export const localSyncRoutes: AreaRoutes = (app, deps) => {
  const tags = ['local-sync'];
  const security = BEARER;
  const post = <B extends ZodType>(
    url: string,
    summary: string,
    body: B,
    result: ZodType,
    run: (ctx: Ctx, body: z.infer<B>) => Promise<unknown>,
    status = 200,
  ) =>
    app.post(`/local-sync${url}`, { schema: { tags, security, summary, body, response: { [status]: result } } }, async (req, reply) =>
      reply.status(status).send(await run(ctxOf(req, deps), req.body as z.infer<B>)),
    );

  post('/connectors/register', 'Register a connector instance (any member)', S.RegisterBody, S.Connector, registerConnector, 201);
  post('/connectors/heartbeat', 'Mark a connector alive (silent 5 minutes: offline)', S.ConnectorBody, S.Connector, heartbeat);
  post('/sources', 'Create a source (editor); a taken name is 409 with details.sourceId', S.SourceCreateBody, S.Source, createSource, 201);
  post('/sources/list', 'Sources of the workspace', S.EmptyBody, S.SourceList, listSources);
  post('/sources/pause', 'Pause a source: writes refused (403 source_paused), no events', S.SourceBody, S.Source, (ctx, b) => setPaused(ctx, b, true));
  post('/sources/resume', 'Resume a paused source', S.SourceBody, S.Source, (ctx, b) => setPaused(ctx, b, false));
  post('/sources/files', 'Files of a source, by path, paged', S.FilesBody, S.FileList, listFiles);
  post('/sources/file', 'A file with its content (or one version of it, by contentHash)', S.FileBody, S.FileContent, getFile);
  post('/sources/file/update', 'Service-side edit: status ok, or conflict when baseHash is stale', S.FileUpdateBody, S.UpdateResult, updateFile);
  post('/sources/push-batch', 'Push up to 500 upserts and deletes, each applied or refused on its own', S.PushBody, S.PushResult, pushBatch);
  post('/sources/deltas', 'Events after a cursor, in order', S.DeltasBody, S.DeltasResult, deltas);
  post('/sources/conflicts', 'Open conflicts of a source', S.SourceBody, S.ConflictList, listConflicts);
  post('/sources/conflicts/preview', 'Three-way line view of a conflict and the proposed merge', S.ConflictBody, S.Preview, previewConflict);
  post('/sources/conflicts/resolve', 'Resolve a conflict: keep_local, keep_service or manual_merge', S.ResolveBody, S.ResolveResult, resolveConflict);
  post('/sources/history', 'Versions of a file, newest first', S.HistoryBody, S.HistoryResult, history);
};
