import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

export { addSpaceMembers, createSpace } from '../spaces/helpers.js';

export const doc = (...texts: string[]) => ({
  type: 'doc',
  content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

export interface PageOut {
  id: string;
  parentId: string | null;
  title: string;
  position: string;
  spaceId: string;
  workspaceId: string;
}

/** Creates a page over HTTP and returns `data`; throws unless 201. */
export async function newPage(
  t: TestApp,
  user: TestUser,
  workspaceId: string,
  spaceId: string,
  body: {
    title?: string;
    parentId?: string | null;
    content?: unknown;
    markdown?: string;
    position?: string;
    afterId?: string;
    beforeId?: string;
    icon?: string;
  } = {},
): Promise<PageOut> {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: user.token,
    body: { workspaceId, spaceId, title: 'Page', ...(body.markdown === undefined && body.content === undefined ? { content: doc('hello') } : {}), ...body },
  });
  if (res.status !== 201) throw new Error(`page failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Titles of the direct children (or `null`: roots) in list order, all pages of one request of 100. */
export async function childTitles(t: TestApp, user: TestUser, workspaceId: string, spaceId: string, parentId: string | 'null'): Promise<string[]> {
  const res = await t.request({ url: '/api/v1/pages', token: user.token, query: { workspaceId, spaceId, parentId, limit: '100' } });
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.map((p: PageOut) => p.title);
}
