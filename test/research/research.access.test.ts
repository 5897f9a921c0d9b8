import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/jobs/worker.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { indexNow, knowledgeSearch } from '../knowledge/helpers.js';
import { createJob, makePage, makeSpace, researchUrl, researchWorker, waitForJob } from './helpers.js';

// A report may quote only what every reader of its space can read; a job is read by the readers of its space.
let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser; // a member who cannot read the Board space
let alice: TestUser; // a member of the Board space
let handbook: string;
let board: string;
let worker: Worker;

const SECRET = 'BLUEFIN';

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ({ admin, editor } = w);
  ws = w.workspace.id;
  alice = await createUser(t, 'Alice');
  await addMember(t, ws, admin, alice, 'editor');
  handbook = await makeSpace(t, ws, admin, 'Handbook');
  await makePage(
    t,
    ws,
    admin,
    handbook,
    'Release process',
    'Every release of the billing service goes through a canary. A rollback restores the previous billing release.',
  );
  board = await makeSpace(t, ws, admin, 'Board', 'private');
  await grant(board, alice, 'editor');
  await makePage(
    t,
    ws,
    admin,
    board,
    'Billing release merger',
    `The billing release plan is tied to the merger with ${SECRET}. The billing release waits for the ${SECRET} signature.`,
  );
  worker = researchWorker(t);
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

async function grant(spaceId: string, user: TestUser, role: 'viewer' | 'editor' | 'admin') {
  const res = await t.request({
    method: 'POST',
    url: `/api/v1/spaces/${spaceId}/members`,
    token: admin.token,
    query: { workspaceId: ws },
    body: { workspaceId: ws, userIds: [user.id], role },
  });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

const report = (id: string, user: TestUser) => t.request({ url: researchUrl(ws, `/${id}/report`), token: user.token });

async function runAs(user: TestUser, body: Record<string, unknown>) {
  const job = await createJob(t, ws, user, { topic: 'billing release', sources: ['docs'], ...body });
  const done = await waitForJob(t, ws, user, job.id);
  expect(done.status).toBe('completed');
  const r = await report(job.id, user);
  expect(r.status).toBe(200);
  return { id: job.id, report: r.body, pageId: done.pageId as string };
}

/** Everything a member can see of the job: its status view, report, page, the list, and both searches. */
async function visibleTo(user: TestUser, job: { id: string; pageId: string }) {
  const [view, rep, page, list, search] = await Promise.all([
    t.request({ url: researchUrl(ws, `/${job.id}`), token: user.token }),
    report(job.id, user),
    t.request({ url: `/api/v1/pages/${job.pageId}`, token: user.token, query: { format: 'markdown' } }),
    t.request({ url: researchUrl(ws), token: user.token }),
    t.request({ url: '/api/v1/search', token: user.token, query: { workspaceId: ws, query: SECRET } }),
  ]);
  return { view, rep, page, list, search };
}

describe('research and private spaces', () => {
  it('a member who cannot read a private space never gets its text through their own research', async () => {
    const job = await runAs(editor, {});
    expect(JSON.stringify(job.report)).not.toContain(SECRET);
    expect(job.report.sources.map((s: { title: string }) => s.title)).toEqual(['Release process']);
    const page = await t.request({ url: `/api/v1/pages/${job.pageId}`, token: editor.token, query: { format: 'markdown' } });
    expect(page.body.data.markdown).not.toContain(SECRET);
  });

  it('by default a report goes to the creator’s private space: it may quote what they read, and no one else sees it', async () => {
    const job = await runAs(alice, {});
    // Alice and the workspace admins are the only readers of "Research (Alice)", and both can read the Board.
    expect(job.report.content).toContain(SECRET);
    const seen = await visibleTo(editor, job);
    expect(seen.view.status).toBe(404);
    expect(seen.view.body.error.code).toBe('NOT_FOUND');
    expect(seen.rep.status).toBe(404);
    expect(seen.page.status).toBe(404);
    expect(seen.list.body.jobs.map((j: { id: string }) => j.id)).not.toContain(job.id);
    expect(JSON.stringify(seen.search.body)).not.toContain(SECRET);
    await indexNow(t);
    const knowledge = await knowledgeSearch(t, editor, ws, `billing release ${SECRET}`);
    expect(knowledge.status).toBe(200);
    expect(JSON.stringify(knowledge.body)).not.toContain(SECRET);
    // The MCP tools answer the same.
    const tool = await t.request({
      method: 'POST',
      url: '/api/mcp-standard/call_tool',
      token: editor.token,
      body: { name: 'research_report', arguments: { workspaceId: ws, jobId: job.id } },
    });
    expect(JSON.stringify(tool.body)).not.toContain(SECRET);
    expect(JSON.stringify(tool.body)).toContain('NOT_FOUND');
    // Admins read every space, so the job too.
    expect((await report(job.id, admin)).status).toBe(200);
  });

  it('a report saved in a space others read quotes nothing they could not read, and they may read it', async () => {
    const job = await runAs(alice, { targetSpaceId: handbook });
    expect(JSON.stringify(job.report)).not.toContain(SECRET);
    expect(job.report.sources.map((s: { title: string }) => s.title)).toEqual(['Release process']);
    const seen = await visibleTo(editor, job);
    expect(seen.view.status).toBe(200);
    expect(seen.rep.status).toBe(200);
    expect(seen.page.status).toBe(200);
    expect(seen.page.body.data.markdown).not.toContain(SECRET);
    expect(seen.list.body.jobs.map((j: { id: string }) => j.id)).toContain(job.id);
    expect(JSON.stringify(seen.search.body)).not.toContain(SECRET);
    await indexNow(t);
    expect(JSON.stringify((await knowledgeSearch(t, editor, ws, `billing release ${SECRET}`)).body)).not.toContain(SECRET);
  });

  it('into a private space: quotes a private space only when every reader of the target reads it too', async () => {
    const team = await makeSpace(t, ws, admin, 'Team', 'private');
    await grant(team, alice, 'editor');
    await grant(team, editor, 'viewer');
    const shared = await runAs(alice, { targetSpaceId: team });
    expect(JSON.stringify(shared.report)).not.toContain(SECRET);
    const seen = await visibleTo(editor, shared);
    expect(seen.rep.status).toBe(200);
    expect(seen.page.body.data.markdown).not.toContain(SECRET);

    const leads = await makeSpace(t, ws, admin, 'Leads', 'private');
    await grant(leads, alice, 'editor');
    const own = await runAs(alice, { targetSpaceId: leads });
    expect(own.report.content).toContain(SECRET);
    expect((await visibleTo(editor, own)).rep.status).toBe(404);
  });

  it('a job in a space the caller cannot read cannot be cancelled by them either', async () => {
    const leads = await makeSpace(t, ws, admin, 'Leads two', 'private');
    await grant(leads, alice, 'editor');
    const job = await createJob(t, ws, alice, { topic: 'billing release', sources: ['docs'], targetSpaceId: leads });
    const cancel = await t.request({ method: 'POST', url: researchUrl(ws, `/${job.id}/cancel`), token: editor.token });
    expect(cancel.status).toBe(404);
    expect(cancel.body.error.code).toBe('NOT_FOUND');
    await waitForJob(t, ws, alice, job.id);
  });
});
