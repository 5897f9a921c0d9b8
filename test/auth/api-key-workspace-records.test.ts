import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type TestUser, verifyEmail } from '../helpers/factories.js';
import { allowPublicPages, publish, tokenOf, visit } from '../shares/helpers.js';
import { createPage, createSpace } from '../spaces/helpers.js';

/**
 * Issue 29: records reached by their own id (a share, an export, an import, a service-level bug report) decide access
 * from the record, not from a workspace in the request. A key scoped to workspace Alpha must get, on Beta's records,
 * exactly what a user who is not Beta's member gets, even though its user administers Beta; and nothing changes.
 */

const SERVICE_ADMIN = 'root-scoped@example.com';
let t: TestApp;
let member: TestUser; // editor in Alpha, admin of Beta, a service admin of bug reports
let stranger: TestUser; // in neither
let alpha: { id: string };
let beta: { id: string };
let betaSpace: string;
let betaPage: string;
let scopedKey: string;

const asKey = (req: { method?: 'GET' | 'POST' | 'DELETE'; url: string; body?: unknown }) => t.request({ ...req, token: scopedKey });
/** An MCP tool called with the scoped key: its HTTP status. */
const toolStatus = async (name: string, args: Record<string, unknown>) =>
  (await asKey({ method: 'POST', url: '/api/mcp-standard/call_tool', body: { name, arguments: args } })).status;

/** A record the user starts in Beta with their own token (202 accepted): its id. */
async function startedInBeta(url: string, body: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url, token: member.token, body: { workspaceId: beta.id, spaceId: betaSpace, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data.id as string;
}

/** The same request as the scoped key and as a stranger: the same status and code (404 for a record found by id). */
async function refusedLikeAStranger(req: { method?: 'GET' | 'POST' | 'DELETE'; url: string; body?: unknown }, status = 404) {
  const scoped = await asKey(req);
  const baseline = await t.request({ ...req, token: stranger.token });
  expect(scoped.status, `${req.url} ${JSON.stringify(scoped.body)}`).toBe(status);
  expect(baseline.status, `${req.url} ${JSON.stringify(baseline.body)}`).toBe(status);
  expect(scoped.body.error.code).toBe(baseline.body.error.code);
  return scoped;
}

beforeAll(async () => {
  t = await createTestApp({ BUG_REPORT_ADMINS: SERVICE_ADMIN });
  const signup = await t.request({ method: 'POST', url: '/api/v1/auth/signup', body: { email: SERVICE_ADMIN, password: 'correct-horse', name: 'Member' } });
  expect(signup.status).toBe(201);
  member = { id: signup.body.data.user.id, email: SERVICE_ADMIN, name: 'Member', token: signup.body.data.token };
  await verifyEmail(t, member);
  const owner = await createUser(t, 'Owner');
  stranger = await createUser(t, 'Stranger');
  alpha = await createWorkspace(t, owner, 'Alpha');
  await addMember(t, alpha.id, owner, member, 'editor');
  beta = await createWorkspace(t, member, 'Beta');
  await allowPublicPages(t, member, beta.id, true);
  betaSpace = (await createSpace(t, member, beta.id, { name: 'Beta docs' })).id;
  betaPage = (await createPage(t, member, beta.id, betaSpace, 'Beta welcome')).id;
  const key = await t.request({ method: 'POST', url: '/api/v1/api-keys', token: member.token, body: { name: 'alpha-bot', workspaceId: alpha.id } });
  expect(key.status).toBe(201);
  scopedKey = key.body.data.key;
});
afterAll(() => t.close());

describe('a key scoped to Alpha, on records of Beta (which its user administers)', () => {
  it('cannot revoke a public share of Beta: 404 like a stranger, and the link still works', async () => {
    const published = await publish(t, member, betaPage);
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const shareId = published.body.data.share.id as string;
    await refusedLikeAStranger({ method: 'DELETE', url: `/api/v1/shares/${shareId}` });
    // Over MCP too.
    expect(await toolStatus('share_revoke', { shareId })).toBe(404);
    // Nothing changed: the share is active and its link serves the page.
    const share = await t.request({ url: `/api/v1/pages/${betaPage}/share`, token: member.token });
    expect(share.body.data).toMatchObject({ id: shareId });
    expect((await visit(t, tokenOf(published.body.data.url))).status).toBe(200);
    // The user's own token still revokes it.
    expect((await t.request({ method: 'DELETE', url: `/api/v1/shares/${shareId}`, token: member.token })).status).toBe(200);
  });

  it('cannot read an export of Beta (status or zip): 404 like someone else’s', async () => {
    const id = await startedInBeta('/api/v1/exports', {});
    await refusedLikeAStranger({ url: `/api/v1/exports/${id}` });
    await refusedLikeAStranger({ url: `/api/v1/exports/${id}/download` });
    expect(await toolStatus('export_get', { exportId: id })).toBe(404);
    // Its user still reads it.
    expect((await t.request({ url: `/api/v1/exports/${id}`, token: member.token })).body.data).toMatchObject({ id, status: 'queued' });
  });

  it('cannot read an import into Beta: 404 like someone else’s', async () => {
    const id = await startedInBeta('/api/v1/imports', { filename: 'Notes.md', data: Buffer.from('Private *notes*').toString('base64') });
    await refusedLikeAStranger({ url: `/api/v1/imports/${id}` });
    expect(await toolStatus('import_get', { importId: id })).toBe(404);
    expect((await t.request({ url: `/api/v1/imports/${id}`, token: member.token })).body.data).toMatchObject({ id, filename: 'Notes.md' });
  });

  it('is no service admin of bug reports: service-level reports are 403 to it, as to any user not named in BUG_REPORT_ADMINS', async () => {
    const report = { source: 'auto:agent', errorMessage: 'lost' };
    const filed = await t.request({ method: 'POST', url: '/api/bug-reports/auto', token: stranger.token, body: report });
    expect(filed.status).toBe(201);
    const bugReportId = filed.body.data.id as string;
    for (const op of ['get', 'update', 'delete']) {
      const body = { bugReportId, ...(op === 'update' ? { status: 'closed' } : {}) };
      const scoped = await asKey({ method: 'POST', url: `/api/bug-reports/${op}`, body });
      const baseline = await t.request({ method: 'POST', url: `/api/bug-reports/${op}`, token: stranger.token, body });
      expect(scoped.status, op).toBe(403);
      expect(baseline.status, op).toBe(403);
    }
    // Unchanged, and still there for the service admin's own token.
    const read = await t.request({ method: 'POST', url: '/api/bug-reports/get', token: member.token, body: { bugReportId } });
    expect(read.body.data).toMatchObject({ id: bugReportId, workspaceId: null, status: 'open' });
  });
});
