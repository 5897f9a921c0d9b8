import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { callTool } from '../knowledge/helpers.js';
import { newPage } from '../pages/helpers.js';
import { createGroup, createSpace } from '../spaces/helpers.js';

/*
 * Issue 29: a move or a trash carries a whole subtree. A restricted page inside it that the actor cannot open must not
 * be hidden from its own grantees (moved under a restriction that leaves them out) or sent to the purge behind their
 * back; and a move may not stack a restriction over a restricted page that shuts out that page's own grantees.
 *
 * Three space editors: Ana acts; Ben owns a restricted page; Cy is granted on it.
 */

let t: TestApp;
let ws: string;
let space: string;
let admin: TestUser;
let ana: TestUser;
let ben: TestUser;
let cy: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [admin, ana, ben, cy] = await Promise.all(['Admin', 'Ana', 'Ben', 'Cy'].map((n) => createUser(t, n)));
  ws = (await createWorkspace(t, admin)).id;
  for (const u of [ana, ben, cy]) await addMember(t, ws, admin, u, 'editor');
  space = (await createSpace(t, admin, ws, { name: 'Team', visibility: 'public' })).id;
});
afterAll(() => t.close());

type Grant = { userId?: string; groupId?: string; role: 'viewer' | 'editor' };
const restrict = async (u: TestUser, pageId: string, grants: Grant[]) => {
  const res = await t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}/restriction`, token: u.token, body: { grants } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const move = (u: TestUser, pageId: string, parentId: string | null) =>
  t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}`, token: u.token, body: { parentId } });
const trash = (u: TestUser, pageId: string) => t.request({ method: 'DELETE', url: `/api/v1/pages/${pageId}`, token: u.token });
const read = (u: TestUser, pageId: string) => t.request({ url: `/api/v1/pages/${pageId}`, token: u.token });
const trashList = async (u: TestUser) =>
  (await t.request({ url: '/api/v1/trash', token: u.token, query: { workspaceId: ws, spaceId: space, limit: '100' } })).body.data.map(
    (p: { id: string }) => p.id,
  );
/** Who the page's access list names (asked as the workspace admin, who may always read it). */
const people = async (pageId: string) =>
  (await t.request({ url: `/api/v1/pages/${pageId}/access`, token: admin.token })).body.data.people.map((p: { user: { name: string } }) => p.user.name).sort();

/** The issue's tree: an open parent of Ben's with Ben's restricted page under it (Ben and Cy granted), and Ana's private page. */
async function issueTree() {
  const parent = await newPage(t, ben, ws, space, { title: 'Open parent' });
  const restricted = await newPage(t, ben, ws, space, { title: 'Ben’s restricted page', parentId: parent.id });
  await restrict(ben, restricted.id, [
    { userId: ben.id, role: 'editor' },
    { userId: cy.id, role: 'viewer' },
  ]);
  const mine = await newPage(t, ana, ws, space, { title: 'Ana’s private page' });
  await restrict(ana, mine.id, [{ userId: ana.id, role: 'editor' }]);
  return { parent: parent.id, restricted: restricted.id, mine: mine.id };
}

describe('a move or trash carrying pages the actor cannot open', () => {
  it('the issue’s move: refused with 403 carries_pages_you_cannot_open; the grantees still open the page, its access list still names them', async () => {
    const tree = await issueTree();
    const res = await move(ana, tree.parent, tree.mine);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'carries_pages_you_cannot_open', pageId: tree.parent, count: 1 } });
    // Nothing moved; nobody lost the page.
    expect((await read(ana, tree.parent)).body.data.parentId).toBeNull();
    expect((await read(ben, tree.restricted)).status).toBe(200);
    expect((await read(cy, tree.restricted)).status).toBe(200);
    expect(await people(tree.restricted)).toEqual(['Ben', 'Cy']);
    // The same over MCP.
    const tool = await callTool(t, ana, 'page_move', { pageId: tree.parent, parentId: tree.mine });
    expect(tool.status).toBe(403);
    expect(tool.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'carries_pages_you_cannot_open' } });
    expect((await read(cy, tree.restricted)).status).toBe(200);
    // Trashing her private page, the issue's last step, takes nothing of Ben's with it.
    expect((await trash(ana, tree.mine)).status).toBe(200);
    expect((await read(cy, tree.restricted)).status).toBe(200);
    expect(await trashList(ben)).not.toContain(tree.restricted);
    // Moving it where no restriction applies changes nobody's access, yet still carries a page Ana cannot open.
    const other = await newPage(t, ana, ws, space, { title: 'Somewhere open' });
    expect((await move(ana, tree.parent, other.id)).status).toBe(403);
    // Ben, who opens everything in it, may move it (under a page that restricts nobody out).
    expect((await move(ben, tree.parent, other.id)).status).toBe(200);
    expect((await read(cy, tree.restricted)).status).toBe(200);
  });

  it('trashing a subtree with a page the actor cannot open is refused; the page stays live for its grantees', async () => {
    const tree = await issueTree();
    const res = await trash(ana, tree.parent);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error.details).toMatchObject({ reason: 'carries_pages_you_cannot_open', pageId: tree.parent, count: 1 });
    expect((await read(ana, tree.parent)).status).toBe(200);
    expect((await read(cy, tree.restricted)).status).toBe(200);
    expect(await trashList(ben)).not.toContain(tree.restricted);
    const tool = await callTool(t, ana, 'page_delete', { pageId: tree.parent });
    expect(tool.status).toBe(403);
    expect((await read(ben, tree.parent)).status).toBe(200);
    // Her own private page goes to the trash as before; Ben, who opens the whole subtree, may trash his.
    expect((await trash(ana, tree.mine)).status).toBe(200);
    expect((await trash(ben, tree.parent)).status).toBe(200);
    expect(await trashList(cy)).toContain(tree.parent);
    // Recovering brings the restricted page back with its parent, to its grantees too (nothing is stacked on it).
    const recovered = await t.request({ method: 'POST', url: `/api/v1/pages/${tree.parent}/recover`, token: ana.token, body: {} });
    expect(recovered.status, JSON.stringify(recovered.body)).toBe(200);
    expect((await read(cy, tree.restricted)).status).toBe(200);
    expect(await people(tree.restricted)).toEqual(['Ben', 'Cy']);
  });
});

describe('a move that would stack a restriction over a restricted page’s own grantees', () => {
  it('is refused with 403 would_lock_out_grantees naming the page; granting them on the new restriction lets it through', async () => {
    // Ana opens everything here: a page of hers with Ben's restricted page (Ana, Ben and Cy granted) under it.
    const mover = await newPage(t, ana, ws, space, { title: 'Mover' });
    const restricted = await newPage(t, ben, ws, space, { title: 'Shared notes', parentId: mover.id });
    await restrict(ben, restricted.id, [
      { userId: ana.id, role: 'editor' },
      { userId: ben.id, role: 'editor' },
      { userId: cy.id, role: 'viewer' },
    ]);
    // Ana's room is restricted to Ana and Ben: moving there would shut Cy out of the notes she was granted.
    const room = await newPage(t, ana, ws, space, { title: 'Room' });
    await restrict(ana, room.id, [
      { userId: ana.id, role: 'editor' },
      { userId: ben.id, role: 'viewer' },
    ]);
    const res = await move(ana, mover.id, room.id);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'FORBIDDEN',
      details: { reason: 'would_lock_out_grantees', pageId: mover.id, parentId: room.id, pageIds: [restricted.id], userIds: [cy.id] },
    });
    expect((await read(cy, restricted.id)).status).toBe(200);
    expect(await people(restricted.id)).toEqual(['Ana', 'Ben', 'Cy']);

    // Granting Cy on the room (here through a group) lets the move through, and Cy keeps the notes.
    const group = await createGroup(t, admin, ws, 'Readers', [cy.id]);
    await restrict(ana, room.id, [
      { userId: ana.id, role: 'editor' },
      { userId: ben.id, role: 'viewer' },
      { groupId: group, role: 'viewer' },
    ]);
    expect((await move(ana, mover.id, room.id)).status).toBe(200);
    expect((await read(cy, restricted.id)).status).toBe(200);
    expect(await people(restricted.id)).toEqual(['Ana', 'Ben', 'Cy']);
  });

  it('moving an unrestricted page under a restriction still narrows it as before (only a restricted page’s own grantees are protected)', async () => {
    const plain = await newPage(t, ben, ws, space, { title: 'Plain' });
    const room = await newPage(t, ana, ws, space, { title: 'Ana’s room' });
    await restrict(ana, room.id, [{ userId: ana.id, role: 'editor' }]);
    expect((await move(ana, plain.id, room.id)).status).toBe(200);
    expect((await read(ben, plain.id)).status).toBe(404);
    expect((await read(ana, plain.id)).status).toBe(200);
  });
});
