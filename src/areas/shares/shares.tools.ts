import { DELETE, defineTool, ItemList, listOf, READ, WRITE } from '../../mcp/tool.js';
import { ShareCreateBody, ShareCreated, ShareListItem, SharePageParams, ShareParams, ShareRevokeResult, WorkspaceSharesParams } from './shares.schema.js';
import { listWorkspaceShares, publishPage, revokeShare } from './shares.service.js';

const category = 'page';

export const shareTools = [
  defineTool({
    name: 'share_create',
    title: 'Publish a page',
    category,
    description:
      'Publish a page (optionally with its subtree) through a public link anyone can read without signing in (editor; the workspace must allow public pages). ' +
      'Returns `{ share, url }`: `url` is shown only when a link is made; publishing a published page updates its settings and returns `url: null`, ' +
      'and `newLink: true` replaces the link (the old one stops working).',
    input: SharePageParams.extend(ShareCreateBody.shape),
    output: ShareCreated,
    annotations: WRITE,
    handler: async (ctx, { pageId, ...body }) => (await publishPage(ctx, pageId, body)).result,
  }),
  defineTool({
    name: 'share_list',
    title: 'List public shares',
    category,
    description: 'Every published page of a workspace (admin): page, who published it, when, and its settings. Returns `{ items, total }`.',
    input: WorkspaceSharesParams,
    output: ItemList(ShareListItem),
    annotations: READ,
    handler: async (ctx, a) => listOf(await listWorkspaceShares(ctx, a.workspaceId)),
  }),
  defineTool({
    name: 'share_revoke',
    title: 'Revoke a public share',
    category,
    description: 'Revoke a share by its id: its link stops working at once (page editor or workspace admin). Returns `{ id, revoked: true }`.',
    input: ShareParams,
    output: ShareRevokeResult.shape.data,
    annotations: DELETE,
    handler: (ctx, a) => revokeShare(ctx, a.shareId),
  }),
];
