import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createWorkspace, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createSpace } from '../spaces/helpers.js';

/**
 * Ranking beyond a bag of distinct words: a word the query repeats weighs more (query term frequency), and the words
 * the best results share lift other results that use them (pseudo-relevance feedback), drawn only from documents the
 * caller may read.
 */
let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
const ids: Record<string, string> = {};

async function page(key: string, spaceId: string, title: string, markdown: string, workspaceId = ws) {
  const res = await t.request({ method: 'POST', url: '/api/v1/pages', token: admin.token, body: { workspaceId, spaceId, title, markdown } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  ids[key] = res.body.data.id;
}

/** `n` pages of the same text: `${key}1` … titled `${title} 1` …. */
async function copies(n: number, key: string, spaceId: string, title: string, markdown: string) {
  for (let i = 1; i <= n; i++) await page(`${key}${i}`, spaceId, `${title} ${i}`, markdown);
}

async function ranked(user: TestUser, query: string, workspaceId = ws): Promise<string[]> {
  const res = await t.request({ url: '/api/v1/search', token: user.token, query: { workspaceId, query, limit: '20' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((r: { id: string }) => Object.entries(ids).find(([, v]) => v === r.id)?.[0] ?? r.id);
}

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ws = w.workspace.id;
  admin = w.admin;
  editor = w.editor;
  const notes = (await createSpace(t, admin, ws, { name: 'Notes' })).id;
  const platform = (await createSpace(t, admin, ws, { name: 'Platform' })).id;
  // The editor is not a member of this private space.
  const facilities = (await createSpace(t, admin, ws, { name: 'Facilities', visibility: 'private' })).id;

  await page('backupFirst', notes, 'Notes one', 'Backup backup restore.');
  await page('restoreFirst', notes, 'Notes two', 'Restore restore backup.');
  await page('unrelated', notes, 'Lunch', 'Pizza on Fridays.');

  await copies(
    4,
    'runbook',
    platform,
    'Rotation runbook',
    'Rotate the signing keys every quarter. Publish the new signing key in the JWKS document with a fresh kid; verifiers cache the JWKS and look keys up by kid.',
  );
  await page(
    'verification',
    platform,
    'Token verification',
    'Verifiers fetch the JWKS document and select the key by its kid. An unknown kid refreshes the cached JWKS.',
  );
  await page('officeKeys', platform, 'Office', 'Spare keys for the office are at reception. Lost keys: tell reception, keys are replaced within a day.');
  await copies(
    5,
    'facilities',
    facilities,
    'Front desk',
    'Rotate the spare office keys at reception; signing the reception log is required for keys. Spare keys, office keys, reception keys.',
  );
}, 120_000);
afterAll(() => t.close());

describe('query term frequency', () => {
  it('ranks the document about the word the query repeats first', async () => {
    expect((await ranked(editor, 'backup backup restore')).slice(0, 2)).toEqual(['backupFirst', 'restoreFirst']);
    expect((await ranked(editor, 'restore restore backup')).slice(0, 2)).toEqual(['restoreFirst', 'backupFirst']);
  });
});

describe('pseudo-relevance feedback', () => {
  it('lifts a result that shares the best results’ vocabulary above one that only repeats a query word', async () => {
    const order = await ranked(editor, 'rotate signing keys');
    expect(order.slice(0, 4).sort()).toEqual(['runbook1', 'runbook2', 'runbook3', 'runbook4']);
    // "Office" has the query's "keys" three times, "Token verification" once; but the runbooks speak of JWKS and kid.
    expect(order.indexOf('verification')).toBeGreaterThan(-1);
    expect(order.indexOf('verification')).toBeLessThan(order.indexOf('officeKeys'));
    expect(order).not.toContain('facilities1');
  });

  it('draws its words only from documents the caller may read', async () => {
    // The admin also reads the private Facilities pages: the best results then speak of reception and office keys.
    const adminOrder = await ranked(admin, 'rotate signing keys');
    expect(adminOrder).toContain('facilities1');
    expect(adminOrder.indexOf('officeKeys')).toBeLessThan(adminOrder.indexOf('verification'));
    // The editor's ranking is not moved by them.
    const editorOrder = await ranked(editor, 'rotate signing keys');
    expect(editorOrder.indexOf('verification')).toBeLessThan(editorOrder.indexOf('officeKeys'));
  });

  it('takes no words from a document of more than 5,000 distinct words', async () => {
    // In a workspace of its own, so the other tests' statistics stay as they are.
    const other = (await createWorkspace(t, admin)).id;
    const space = (await createSpace(t, admin, other, { name: 'Ops' })).id;
    await page('withAlpha', space, 'Ops one', 'Rotate signing keys. Alphanote.', other);
    await page('withBeta', space, 'Ops two', 'Rotate signing keys. Betanote.', other);
    // A feedback document (there are only three) that is a tenth "alphanote"; but a glossary of 6,000 other words too.
    const glossary = Array.from({ length: 6000 }, (_, i) => `gl${i.toString(36)}q`).join(' ');
    await page('glossary', space, 'Signing keys glossary', `${'Rotate signing keys. '.repeat(1000)}${'Alphanote. '.repeat(1000)}${glossary}`, other);
    const order = await ranked(admin, 'rotate signing keys', other);
    // Fed only by the two short pages, the rarer "betanote" (one page against two) weighs more; the glossary's
    // "alphanote" would put withAlpha first.
    expect(order.filter((k) => k !== 'glossary')).toEqual(['withBeta', 'withAlpha']);
  });
});
