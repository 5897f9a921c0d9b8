import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/jobs/worker.js';
import { type CollabClient, connect as collabConnect } from '../collab/helpers.js';
import { exportWorker, startExport, unzip, waitForExport } from '../exports/helpers.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { listenOnLoopback, mcpClients, toolErrorOf } from '../helpers/mcp.js';
import { callTool, indexNow, knowledgeSearch } from '../knowledge/helpers.js';
import { setupSource, syncClient } from '../local-sync/helpers.js';
import { doc, newPage } from '../pages/helpers.js';
import { createJob, researchUrl, researchWorker, waitForJob } from '../research/helpers.js';
import { addSpaceMembers, createGroup, createSpace } from '../spaces/helpers.js';
import { grantsOf, restrict } from './helpers.js';

/*
 * The role matrix of page-level permissions (issue 15): one restricted page R (with a child RC, an attachment, a
 * comment and history) beside an open page O, read through every path by five users. Each `it` is one read path
 * with the whole matrix inside it; a failure names the user and the path.
 */

type Who = 'workspace admin' | 'space editor' | 'granted viewer' | 'group editor' | 'outsider';
/** What each user may do with R and RC: nothing (hidden), read, or edit. */
const ACCESS: Record<Who, 'hidden' | 'viewer' | 'editor'> = {
  'workspace admin': 'hidden',
  'space editor': 'hidden',
  'granted viewer': 'viewer',
  'group editor': 'editor',
  outsider: 'hidden',
};
const WHO = Object.keys(ACCESS) as Who[];
const sees = (who: Who) => ACCESS[who] !== 'hidden';

/** Words only R, RC and their attachment hold (nothing else in the workspace has them). */
const R_TITLE = 'Quokka ledger';
const R_WORD = 'zanzibarite';
const RC_TITLE = 'Quokka appendix';
const RC_WORD = 'xylographia';
/** Words R and O share, so a search or a research topic finds both when both are open. */
const SHARED = 'lighthouse maintenance schedule';

let t: TestApp;
let base: string;
let ws: string;
let space: string;
const users = {} as Record<Who, TestUser>;
const ids = {} as { parent: string; open: string; r: string; rc: string; attachment: string; comment: string; history: string[]; group: string };
const mcpConnections = mcpClients();
const collabClients: CollabClient[] = [];
const workers: Worker[] = [];

/** A status that means "closed to you": 404 for members; an outsider is refused at the workspace (403) or not found. */
function expectHidden(who: Who, status: number, what: string) {
  if (who === 'outsider') expect.soft([403, 404], `${who}: ${what} answered ${status}`).toContain(status);
  else expect.soft(status, `${who}: ${what} must be 404 (closed pages are invisible)`).toBe(404);
}

/** Whether a response body mentions R or RC at all (id, title or words). */
const mentionsRestricted = (body: unknown) => {
  const text = JSON.stringify(body ?? '');
  return [ids.r, ids.rc, R_WORD, RC_WORD, R_TITLE, RC_TITLE].some((s) => text.includes(s));
};

const mcp = (user: TestUser) => mcpConnections.connect(base, user.token, 'matrix');

beforeAll(async () => {
  t = await createTestApp({ COLLAB_ACCESS_RECHECK_MS: 100 } as never);
  base = await listenOnLoopback(t);
  for (const who of WHO) users[who] = await createUser(t, who.replace(/\W/g, ''));
  const admin = users['workspace admin'];
  ws = (await createWorkspace(t, admin)).id;
  for (const who of ['space editor', 'granted viewer', 'group editor'] as const) await addMember(t, ws, admin, users[who], 'editor');
  // A private space: every non-admin member's role in it is the one given here.
  space = (await createSpace(t, admin, ws, { name: 'Vault', visibility: 'private' })).id;
  await addSpaceMembers(t, admin, ws, space, { userIds: [users['space editor'].id], role: 'editor' });
  await addSpaceMembers(t, admin, ws, space, { userIds: [users['granted viewer'].id], role: 'viewer' });
  ids.group = await createGroup(t, admin, ws, 'Design', [users['group editor'].id]);
  await addSpaceMembers(t, admin, ws, space, { groupIds: [ids.group], role: 'editor' });

  ids.parent = (await newPage(t, admin, ws, space, { title: 'Harbour guide', content: doc('Where the harbour guides live.') })).id;
  ids.open = (await newPage(t, admin, ws, space, { title: 'Open harbour notes', parentId: ids.parent, content: doc(`The ${SHARED} runs every spring.`) })).id;
  ids.r = (await newPage(t, admin, ws, space, { title: R_TITLE, parentId: ids.parent, content: doc(`The ${SHARED} hides the ${R_WORD} vault code.`) })).id;
  ids.rc = (await newPage(t, admin, ws, space, { title: RC_TITLE, parentId: ids.r, content: doc(`Appendix on ${RC_WORD} and the vault.`) })).id;
  // Two more versions of R.
  for (const text of [`Second draft: the ${SHARED} hides the ${R_WORD} vault code.`, `Third draft: ${R_WORD} codes of the ${SHARED}.`]) {
    const res = await t.request({ method: 'PUT', url: `/api/v1/pages/${ids.r}`, token: admin.token, body: { content: doc(text) } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const comment = await t.request({
    method: 'POST',
    url: '/api/v1/comments',
    token: admin.token,
    body: { workspaceId: ws, pageId: ids.r, text: `Check the ${R_WORD} figures` },
  });
  expect(comment.status, JSON.stringify(comment.body)).toBe(201);
  ids.comment = comment.body.data.id;
  const attachment = await t.request({
    method: 'POST',
    url: '/api/v1/attachments',
    token: admin.token,
    body: {
      workspaceId: ws,
      pageId: ids.r,
      filename: 'quokka-ledger.txt',
      contentType: 'text/plain',
      data: Buffer.from(`${R_WORD} ledger`).toString('base64'),
    },
  });
  expect(attachment.status, JSON.stringify(attachment.body)).toBe(201);
  ids.attachment = attachment.body.data.id;
  const history = await t.request({ url: `/api/v1/pages/${ids.r}/history`, token: admin.token });
  ids.history = history.body.data.map((h: { id: string }) => h.id);
  expect(ids.history.length).toBeGreaterThanOrEqual(2);
  await indexNow(t);

  // R restricted by a workspace admin who does not grant themselves: the viewer as viewer, the group as editor.
  await restrict(t, admin, ids.r, [
    { userId: users['granted viewer'].id, role: 'viewer' },
    { groupId: ids.group, role: 'editor' },
  ]);
  expect((await grantsOf(t, admin, ids.r)).map((g) => [g.type, g.id, g.role])).toEqual(
    expect.arrayContaining([
      ['user', users['granted viewer'].id, 'viewer'],
      ['group', ids.group, 'editor'],
    ]),
  );
}, 60_000);

afterAll(async () => {
  for (const c of collabClients) c.destroy();
  await mcpConnections.close();
  await Promise.all(workers.map((w) => w.stop()));
  await t?.close();
});

const get = (user: TestUser, url: string, query?: Record<string, string>) => t.request({ url, token: user.token, query });

describe('page-level permissions: every read path, every role', () => {
  it('page get: R and its child RC open to the granted only; O open to every member', async () => {
    for (const who of WHO) {
      const user = users[who];
      for (const [name, id] of [
        ['R', ids.r],
        ['RC', ids.rc],
      ] as const) {
        const res = await get(user, `/api/v1/pages/${id}`, { format: 'markdown' });
        if (sees(who)) {
          expect.soft(res.status, `${who}: GET ${name}`).toBe(200);
          expect.soft(res.body.data?.markdown ?? '', `${who}: ${name}'s body`).toContain(name === 'R' ? R_WORD : RC_WORD);
        } else expectHidden(who, res.status, `GET ${name}`);
      }
      const open = await get(user, `/api/v1/pages/${ids.open}`);
      expect.soft(open.status, `${who}: GET O`).toBe(who === 'outsider' ? 403 : 200);
    }
  });

  it('page list, tree and childCount of R’s parent count only open pages', async () => {
    for (const who of WHO) {
      const user = users[who];
      const full = await get(user, '/api/v1/pages', { workspaceId: ws, spaceId: space, limit: '100' });
      const tree = await get(user, '/api/v1/pages', { workspaceId: ws, spaceId: space, view: 'tree', limit: '100' });
      const roots = await get(user, '/api/v1/pages', { workspaceId: ws, spaceId: space, parentId: 'null', limit: '100' });
      if (who === 'outsider') {
        for (const res of [full, tree, roots]) expectHidden(who, res.status, 'GET /pages');
        continue;
      }
      for (const [name, res] of [
        ['list', full],
        ['tree', tree],
      ] as const) {
        expect.soft(res.status, `${who}: ${name}`).toBe(200);
        const listed = (res.body.data ?? []).map((p: { id: string }) => p.id);
        expect.soft(listed, `${who}: ${name} lists O`).toContain(ids.open);
        expect.soft(listed.includes(ids.r) && listed.includes(ids.rc), `${who}: ${name} lists R and RC`).toBe(sees(who));
        expect.soft(mentionsRestricted(res.body), `${who}: ${name} mentions R or RC`).toBe(sees(who));
      }
      const parent = (roots.body.data ?? []).find((p: { id: string }) => p.id === ids.parent);
      expect.soft(parent?.childCount, `${who}: childCount of R's parent`).toBe(sees(who) ? 2 : 1);
      const parentRead = await get(user, `/api/v1/pages/${ids.parent}`);
      expect.soft(parentRead.body.data?.childCount, `${who}: childCount of R's parent (page read)`).toBe(sees(who) ? 2 : 1);
    }
  });

  it('search and suggest', async () => {
    for (const who of WHO) {
      const user = users[who];
      const found = await get(user, '/api/v1/search', { workspaceId: ws, query: R_WORD });
      const shared = await get(user, '/api/v1/search', { workspaceId: ws, query: SHARED });
      const suggested = await get(user, '/api/v1/search/suggest', { workspaceId: ws, query: R_WORD.slice(0, 6) });
      const titles = await get(user, '/api/v1/search/suggest', { workspaceId: ws, query: 'Quokka' });
      if (who === 'outsider') {
        for (const res of [found, shared, suggested, titles]) expectHidden(who, res.status, 'search');
        continue;
      }
      for (const [name, res] of [
        ['search', found],
        ['search (shared words)', shared],
        ['suggest (body word)', suggested],
        ['suggest (title)', titles],
      ] as const) {
        expect.soft(res.status, `${who}: ${name}`).toBe(200);
        expect.soft(mentionsRestricted(res.body), `${who}: ${name} shows R or RC`).toBe(sees(who));
      }
      expect.soft(JSON.stringify(shared.body), `${who}: search finds O`).toContain(ids.open);
    }
  });

  it('knowledge search (REST and MCP) and memory', async () => {
    await indexNow(t);
    for (const who of WHO) {
      const user = users[who];
      const rest = await knowledgeSearch(t, user, ws, `${SHARED} ${R_WORD}`, { mode: 'lexical' });
      const tool = await callTool(t, user, 'knowledge.search', { workspaceId: ws, query: `${RC_WORD} vault`, mode: 'lexical' });
      const memory = await callTool(t, user, 'memory_query', { workspaceId: ws, query: R_WORD, mode: 'lexical' });
      if (who === 'outsider') {
        expectHidden(who, rest.status, 'knowledge search');
        expect.soft(mentionsRestricted(tool.body), `${who}: knowledge.search tool`).toBe(false);
        continue;
      }
      expect.soft(rest.status, `${who}: knowledge search`).toBe(200);
      const pages = (rest.body.results ?? rest.body.data?.results ?? []).map((r: { pageId?: string }) => r.pageId);
      expect.soft(pages, `${who}: knowledge search finds O`).toContain(ids.open);
      expect.soft(pages.includes(ids.r), `${who}: knowledge search finds R`).toBe(sees(who));
      expect.soft(mentionsRestricted(rest.body), `${who}: knowledge search mentions R or RC`).toBe(sees(who));
      expect.soft(JSON.stringify(tool.body).includes(ids.rc), `${who}: knowledge.search tool finds RC`).toBe(sees(who));
      // Memories are notes of their own: pages never feed them, so R cannot surface there for anyone.
      expect.soft(memory.status, `${who}: memory_query`).toBe(200);
      expect.soft(mentionsRestricted(memory.body), `${who}: memory_query mentions R`).toBe(false);
    }
  });

  it('MCP tools and resources through the official SDK client', async () => {
    for (const who of WHO) {
      const client = await mcp(users[who]);
      const read = await client.callTool({ name: 'page_get', arguments: { workspaceId: ws, pageId: ids.r } });
      const found = await client.callTool({ name: 'search_query', arguments: { workspaceId: ws, query: R_WORD } });
      const list = await client.callTool({ name: 'page_list', arguments: { workspaceId: ws, spaceId: space, limit: 100 } });
      const { resources } = await client.listResources();
      const uris = resources.map((r) => r.uri);
      if (sees(who)) {
        expect.soft(read.isError, `${who}: page_get R`).toBe(false);
        expect.soft(JSON.stringify(found.structuredContent), `${who}: search_query finds R`).toContain(ids.r);
        expect.soft(JSON.stringify(list.structuredContent), `${who}: page_list lists RC`).toContain(ids.rc);
        expect.soft(uris, `${who}: resources/list`).toContain(`kb://pages/${ids.r}`);
        const res = await client.readResource({ uri: `kb://pages/${ids.r}` });
        expect.soft(JSON.stringify(res.contents), `${who}: resources/read R`).toContain(R_WORD);
      } else {
        expect.soft(read.isError, `${who}: page_get R is an error`).toBe(true);
        if (who !== 'outsider') expect.soft(toolErrorOf(read), `${who}: page_get R`).toMatchObject({ code: 'NOT_FOUND' });
        expect.soft(mentionsRestricted(found.structuredContent), `${who}: search_query shows R`).toBe(false);
        expect.soft(mentionsRestricted(list.structuredContent), `${who}: page_list shows R or RC`).toBe(false);
        expect.soft(uris, `${who}: resources/list`).not.toContain(`kb://pages/${ids.r}`);
        expect.soft(uris, `${who}: resources/list`).not.toContain(`kb://pages/${ids.rc}`);
        // A member is told the resource does not exist (-32602, NOT_FOUND); an outsider is refused at the workspace first.
        const refusal = client.readResource({ uri: `kb://pages/${ids.r}` });
        if (who === 'outsider') await expect.soft(refusal, `${who}: resources/read R`).rejects.toThrow();
        else await expect.soft(refusal, `${who}: resources/read R`).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('NOT_FOUND') });
      }
    }
  });

  it('comments, attachment download and history', async () => {
    for (const who of WHO) {
      const user = users[who];
      const comments = await get(user, '/api/v1/comments', { workspaceId: ws, pageId: ids.r });
      const comment = await get(user, `/api/v1/comments/${ids.comment}`);
      const attachments = await get(user, '/api/v1/attachments', { workspaceId: ws, pageId: ids.r });
      const download = await get(user, `/api/v1/attachments/${ids.attachment}/download`);
      const history = await get(user, `/api/v1/pages/${ids.r}/history`);
      const version = await get(user, `/api/v1/pages/${ids.r}/history/${ids.history.at(-1)}`);
      const paths = {
        'comments list': comments,
        'comment get': comment,
        'attachments list': attachments,
        'attachment download': download,
        'history list': history,
        'history get': version,
      };
      for (const [name, res] of Object.entries(paths)) {
        if (sees(who)) expect.soft(res.status, `${who}: ${name}`).toBe(200);
        else expectHidden(who, res.status, name);
      }
      if (sees(who)) {
        expect.soft(JSON.stringify(comments.body), `${who}: the comment`).toContain(ids.comment);
        expect.soft(download.raw.body, `${who}: the attachment's bytes`).toBe(`${R_WORD} ledger`);
        expect.soft(history.body.data?.length, `${who}: history entries`).toBe(ids.history.length);
      }
    }
  });

  it('export of the space leaves R, RC and R’s attachment out for those they are closed to', async () => {
    workers.push(exportWorker(t));
    for (const who of WHO) {
      const user = users[who];
      const body = { workspaceId: ws, format: 'markdown', includeAttachments: true };
      if (who === 'outsider') {
        const res = await t.request({ method: 'POST', url: '/api/v1/exports', token: user.token, body: { ...body, spaceId: space } });
        expectHidden(who, res.status, 'export');
        continue;
      }
      // The space, and R's parent with its subtree: the same pages either way.
      for (const [name, source] of [
        ['space export', { spaceId: space }],
        ['export of R’s parent', { pageId: ids.parent }],
      ] as const) {
        const started = await startExport(t, user, { ...body, ...source });
        const done = await waitForExport(t, user, started.id);
        expect.soft(done.status, `${who}: ${name} ${JSON.stringify(done)}`).toBe('succeeded');
        const zip = await t.request({ url: `/api/v1/exports/${started.id}/download`, token: user.token });
        const files = await unzip(zip.raw.rawPayload);
        const all = [...files.entries()].map(([path, bytes]) => `${path}\n${bytes.toString('utf8')}`).join('\n');
        expect.soft(all, `${who}: the ${name} holds O`).toContain('The lighthouse maintenance schedule runs every spring');
        for (const word of [R_WORD, RC_WORD, 'quokka-ledger.txt', 'Quokka'])
          expect.soft(all.includes(word), `${who}: the ${name} holds "${word}"`).toBe(sees(who));
      }
    }
    // Exporting R itself is refused like reading it.
    const direct = await t.request({ method: 'POST', url: '/api/v1/exports', token: users['space editor'].token, body: { workspaceId: ws, pageId: ids.r } });
    expectHidden('space editor', direct.status, 'export of R');
  }, 120_000);

  it('research: a report on workspace pages cites O and never R (a report is read by all its space’s readers)', async () => {
    workers.push(researchWorker(t));
    const runs = await Promise.all(
      (['workspace admin', 'space editor', 'granted viewer', 'group editor'] as const).map(async (who) => {
        const user = users[who];
        const job = await createJob(t, ws, user, { topic: SHARED, sources: ['docs'] });
        const done = await waitForJob(t, ws, user, job.id);
        const report = await t.request({ url: researchUrl(ws, `/${job.id}/report`), token: user.token });
        return { who, done, report };
      }),
    );
    for (const { who, done, report } of runs) {
      expect.soft(done.status, `${who}: research job`).toBe('completed');
      expect.soft(report.status, `${who}: research report`).toBe(200);
      const sources = (report.body.sources ?? []).map((s: { title: string }) => s.title);
      expect.soft(sources, `${who}: the report cites O`).toContain('Open harbour notes');
      expect.soft(mentionsRestricted(report.body), `${who}: the report cites or quotes R`).toBe(false);
    }
    const outsider = await t.request({ method: 'POST', url: researchUrl(ws), token: users.outsider.token, body: { topic: SHARED, sources: ['docs'] } });
    expectHidden('outsider', outsider.status, 'research');
  }, 120_000);

  it('local sync carries files, never pages: a pull holds nothing of R', async () => {
    for (const who of WHO) {
      const sync = syncClient(t, users[who], ws);
      if (who === 'outsider') {
        const res = await sync('sources/list', {});
        expectHidden(who, res.status, 'local sync');
        continue;
      }
      const list = await sync('sources/list', {});
      expect.soft(list.status, `${who}: sources/list`).toBe(200);
      const { sourceId } = await setupSource(sync);
      const pull = await sync('sources/deltas', { sourceId, cursor: null, limit: 1000, includeContent: true });
      expect.soft(pull.status, `${who}: deltas`).toBe(200);
      expect.soft(mentionsRestricted(pull.body), `${who}: deltas mention R`).toBe(false);
    }
  });

  it('co-editing: connect refused where R is closed; the granted viewer reads only, the group editor writes', async () => {
    for (const who of WHO) {
      const client = collabConnect(base, ids.r, users[who].token);
      collabClients.push(client);
      const outcome = await Promise.race([client.authenticated.then((scope) => ({ scope })), client.refused.then((reason) => ({ reason }))]);
      if (ACCESS[who] === 'hidden') expect.soft(outcome, `${who}: co-editing R`).toEqual({ reason: who === 'outsider' ? 'FORBIDDEN' : 'NOT_FOUND' });
      else expect.soft(outcome, `${who}: co-editing R`).toEqual({ scope: ACCESS[who] === 'viewer' ? 'readonly' : 'read-write' });
      client.destroy();
    }
  });

  it('co-editing: an open connection is closed when a restriction shuts its user out, and a viewer grant makes it read-only', async () => {
    const admin = users['workspace admin'];
    const editor = users['space editor'];
    const live = await newPage(t, admin, ws, space, { title: 'Live notes', content: doc('Open for now') });
    const first = collabConnect(base, live.id, editor.token);
    collabClients.push(first);
    expect(await first.authenticated).toBe('read-write');
    await first.synced;
    // Granted as viewer only: the space editor acts as a viewer on the page, so the connection comes back read-only.
    await restrict(t, admin, live.id, [{ userId: editor.id, role: 'viewer' }]);
    expect((await first.closed).reason).toBe('access-changed');
    first.destroy();
    const second = collabConnect(base, live.id, editor.token);
    collabClients.push(second);
    expect(await second.authenticated).toBe('readonly');
    await second.synced;
    // Shut out entirely: the next recheck closes the connection and the reconnect is refused as if the page were gone.
    await restrict(t, admin, live.id, [{ userId: users['granted viewer'].id, role: 'editor' }]);
    expect((await second.closed).reason).toBe('access-changed');
    second.destroy();
    const third = collabConnect(base, live.id, editor.token);
    collabClients.push(third);
    expect(await third.refused).toBe('NOT_FOUND');
    third.destroy();
  });

  it('trash: RC trashed by the group editor is listed only to those R is open to', async () => {
    const del = await t.request({ method: 'DELETE', url: `/api/v1/pages/${ids.rc}`, token: users['group editor'].token });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    for (const who of WHO) {
      const res = await get(users[who], '/api/v1/trash', { workspaceId: ws, limit: '100' });
      const inSpace = await get(users[who], '/api/v1/trash', { workspaceId: ws, spaceId: space, limit: '100' });
      if (who === 'outsider') {
        expectHidden(who, res.status, 'trash');
        continue;
      }
      for (const [name, r] of [
        ['trash', res],
        ['trash of the space', inSpace],
      ] as const) {
        expect.soft(r.status, `${who}: ${name}`).toBe(200);
        const listed = (r.body.data ?? []).map((p: { id: string }) => p.id);
        expect.soft(listed.includes(ids.rc), `${who}: ${name} lists RC`).toBe(sees(who));
      }
      const trashed = await get(users[who], `/api/v1/pages/${ids.rc}`);
      if (sees(who)) expect.soft(trashed.status, `${who}: GET trashed RC`).toBe(410);
      else expectHidden(who, trashed.status, 'GET trashed RC');
    }
  });
});
