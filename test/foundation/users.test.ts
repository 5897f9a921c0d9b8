import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type TestUser, workspaceWithRoles } from '../helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Signs up with a chosen name and email (the factory makes its own email). */
async function signup(name: string, email: string): Promise<TestUser> {
  const res = await t.request({ method: 'POST', url: '/api/v1/auth/signup', body: { email, password: 'correct-horse', name } });
  expect(res.status).toBe(201);
  return { id: res.body.data.user.id, email: res.body.data.user.email, name, token: res.body.data.token };
}

describe('GET /v1/users', () => {
  let admin: TestUser;
  let ws: { id: string };
  const tag = randomUUID().slice(0, 6);
  const people: Record<string, TestUser> = {};

  beforeAll(async () => {
    admin = await signup('Zed Admin', `zed-${tag}@example.com`);
    ws = await createWorkspace(t, admin);
    const specs: [string, string, string, 'editor' | 'viewer'][] = [
      ['alice', 'Alice Smith', `alice-${tag}@corp.example`, 'editor'],
      ['bob', 'Bob Jones', `bjones-${tag}@corp.example`, 'viewer'],
      ['pct', '100% Pure', `pct-${tag}@corp.example`, 'viewer'],
      ['under', 'snake_case', `snake-${tag}@corp.example`, 'viewer'],
      ['plain', 'snakeXcase', `plain-${tag}@corp.example`, 'viewer'],
    ];
    for (const [key, name, email, role] of specs) {
      people[key] = await signup(name, email);
      await addMember(t, ws.id, admin, people[key], role);
    }
    // Someone matching every query but in no shared workspace.
    await signup('Alice Outsider', `alice-out-${tag}@corp.example`);
  });

  const search = (query?: string, token = admin.token) =>
    t.request({ url: '/api/v1/users', token, query: { workspaceId: ws.id, ...(query === undefined ? {} : { query }) } });
  const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((u) => u.name);

  it('lists the workspace’s members with their role, sorted by name', async () => {
    const res = await search();
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['100% Pure', 'Alice Smith', 'Bob Jones', 'snake_case', 'snakeXcase', 'Zed Admin'].sort((a, b) => (a < b ? -1 : 1)));
    const alice = res.body.data.find((u: { id: string }) => u.id === people.alice.id);
    expect(alice).toEqual({
      id: people.alice.id,
      email: people.alice.email,
      name: 'Alice Smith',
      avatarUrl: null,
      role: 'editor',
      createdAt: expect.any(String),
    });
    expect(res.body.data.find((u: { id: string }) => u.id === admin.id).role).toBe('admin');
    expect(names(res)).not.toContain('Alice Outsider');
  });

  it('searches by name or email, case-insensitively', async () => {
    expect(names(await search('ALICE'))).toEqual(['Alice Smith']);
    expect(names(await search('bjones'))).toEqual(['Bob Jones']);
    expect(names(await search(`CORP.EXAMPLE`))).toHaveLength(5);
    expect(names(await search('smith'))).toEqual(['Alice Smith']);
    expect(names(await search('nobody-matches-this'))).toEqual([]);
    expect(names(await search('   '))).toHaveLength(6);
  });

  it('treats % and _ literally', async () => {
    expect(names(await search('%'))).toEqual(['100% Pure']);
    expect(names(await search('0% p'))).toEqual(['100% Pure']);
    expect(names(await search('_'))).toEqual(['snake_case']);
    expect(names(await search('snake_'))).toEqual(['snake_case']);
    expect(names(await search('\\'))).toEqual([]);
  });

  it('honours limit, and refuses a bad limit, a missing workspaceId or an over-long query with 400', async () => {
    const two = await t.request({ url: '/api/v1/users', token: admin.token, query: { workspaceId: ws.id, limit: '2' } });
    expect(two.body.data).toHaveLength(2);
    for (const query of [
      { workspaceId: ws.id, limit: '0' },
      { workspaceId: ws.id, limit: 'ten' },
      { workspaceId: ws.id, query: 'q'.repeat(201) },
    ] as Record<string, string>[]) {
      const res = await t.request({ url: '/api/v1/users', token: admin.token, query });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_PARAMETER');
    }
    const missing = await t.request({ url: '/api/v1/users', token: admin.token });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'workspaceId' } });
  });

  it('refuses a non-member with 403 and an unknown workspace with 404', async () => {
    const stranger = await createUser(t, 'Stranger');
    const res = await search(undefined, stranger.token);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    const unknown = await t.request({ url: '/api/v1/users', token: admin.token, query: { workspaceId: 'nope' } });
    expect(unknown.status).toBe(404);
  });
});

describe('GET /v1/users/:userId', () => {
  it('shows yourself and anyone sharing a workspace (with their role when the workspace is named); others are 404', async () => {
    const { workspace, admin, editor, outsider } = await workspaceWithRoles(t);
    const self = await t.request({ url: `/api/v1/users/${admin.id}`, token: admin.token });
    expect(self.status).toBe(200);
    expect(self.body.data).toMatchObject({ id: admin.id, email: admin.email, role: null });
    const colleague = await t.request({ url: `/api/v1/users/${editor.id}`, token: admin.token });
    expect(colleague.status).toBe(200);
    expect(colleague.body.data).toMatchObject({ id: editor.id, name: 'Editor', role: null });
    const withRole = await t.request({ url: `/api/v1/users/${editor.id}`, token: admin.token, query: { workspaceId: workspace.id } });
    expect(withRole.body.data.role).toBe('editor');
    const viaHeader = await t.request({ url: `/api/v1/users/${editor.id}`, token: admin.token, headers: { 'x-workspace-id': workspace.id } });
    expect(viaHeader.body.data.role).toBe('editor');
    const hidden = await t.request({ url: `/api/v1/users/${outsider.id}`, token: admin.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('NOT_FOUND');
    const unknown = await t.request({ url: '/api/v1/users/no-such-user', token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(hidden.body.error.message.replace(outsider.id, 'no-such-user'));
  });

  it('refuses to show a role in a workspace the caller is not a member of: 403, or 404 for no such workspace', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const other = await workspaceWithRoles(t);
    // The editor belongs to `workspace` only; `other.workspace` is foreign to them, though `other.admin` shares nothing with them.
    await addMember(t, workspace.id, admin, other.admin, 'viewer');
    const foreign = await t.request({ url: `/api/v1/users/${other.admin.id}`, token: editor.token, query: { workspaceId: other.workspace.id } });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      error: { code: 'FORBIDDEN', message: expect.any(String), details: expect.objectContaining({ workspaceId: other.workspace.id }) },
    });
    const viaHeader = await t.request({ url: `/api/v1/users/${other.admin.id}`, token: editor.token, headers: { 'x-workspace-id': other.workspace.id } });
    expect(viaHeader.status).toBe(403);
    const me = await t.request({ url: '/api/v1/users/me', token: editor.token, headers: { 'x-workspace-id': other.workspace.id } });
    expect(me.status).toBe(403);
    const none = await t.request({ url: `/api/v1/users/${other.admin.id}`, token: editor.token, query: { workspaceId: 'no-such-workspace' } });
    expect(none.status).toBe(404);
    // In a shared workspace the role shows as before.
    const shared = await t.request({ url: `/api/v1/users/${other.admin.id}`, token: editor.token, query: { workspaceId: workspace.id } });
    expect(shared.body.data).toMatchObject({ id: other.admin.id, role: 'viewer' });

    // The MCP tools answer the same way.
    const call = (name: string, args: object) =>
      t.request({ method: 'POST', url: '/api/mcp-standard/call_tool', token: editor.token, body: { name, arguments: args } });
    const tool = await call('user_get', { userId: other.admin.id, workspaceId: other.workspace.id });
    expect(tool.status).toBe(403);
    expect(JSON.stringify(tool.body)).not.toContain('"admin"');
    expect((await call('user_me', { workspaceId: other.workspace.id })).status).toBe(403);
    const own = await call('user_me', { workspaceId: workspace.id });
    expect(own.status).toBe(200);
    expect(own.body.structuredContent).toMatchObject({ id: editor.id, role: 'editor' });
  });

  it('GET /users/me carries the role in the workspace named by x-workspace-id', async () => {
    const { workspace, viewer } = await workspaceWithRoles(t);
    const me = await t.request({ url: '/api/v1/users/me', token: viewer.token, headers: { 'x-workspace-id': workspace.id } });
    expect(me.body.data).toMatchObject({ id: viewer.id, role: 'viewer' });
    expect((await t.request({ url: '/api/v1/users/me', token: viewer.token })).body.data.role).toBeNull();
  });
});

describe('PUT /v1/users/:userId', () => {
  it('updates your own name and avatar, and clears the avatar with null', async () => {
    const ann = await createUser(t, 'Ann');
    const url = `/api/v1/users/${ann.id}`;
    const res = await t.request({
      method: 'PUT',
      url,
      token: ann.token,
      body: { name: 'Ann B.', avatarUrl: 'https://img.example/a.png', email: 'hijack@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: ann.id, name: 'Ann B.', avatarUrl: 'https://img.example/a.png', email: ann.email });
    expect((await t.request({ url: '/api/v1/users/me', token: ann.token })).body.data).toMatchObject({
      name: 'Ann B.',
      avatarUrl: 'https://img.example/a.png',
    });
    const cleared = await t.request({ method: 'PUT', url, token: ann.token, body: { avatarUrl: null } });
    expect(cleared.body.data).toMatchObject({ name: 'Ann B.', avatarUrl: null });
    const badUrl = await t.request({ method: 'PUT', url, token: ann.token, body: { avatarUrl: 'not a url' } });
    expect(badUrl.status).toBe(422);
    expect(badUrl.body.error.details.field).toBe('avatarUrl');
    for (const avatarUrl of [
      'java\tscript:alert(1)',
      'javascript:alert(1)',
      ' javascript:alert(1)',
      '\u0001javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'https://img.example/a\nb.png',
      'ftp://img.example/a.png',
    ]) {
      const unsafe = await t.request({ method: 'PUT', url, token: ann.token, body: { avatarUrl } });
      expect(unsafe.status, avatarUrl).toBe(422);
      expect(unsafe.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'avatarUrl' } });
    }
    const padded = await t.request({ method: 'PUT', url, token: ann.token, body: { avatarUrl: '  http://img.example/b.png\n' } });
    expect(padded.body.data.avatarUrl).toBe('http://img.example/b.png');
    const badName = await t.request({ method: 'PUT', url, token: ann.token, body: { name: 42 } });
    expect(badName.status).toBe(422);
  });

  it('refuses to update someone else: 403 for a colleague, 404 for a stranger', async () => {
    const { admin, editor, outsider } = await workspaceWithRoles(t);
    const colleague = await t.request({ method: 'PUT', url: `/api/v1/users/${editor.id}`, token: admin.token, body: { name: 'Hacked' } });
    expect(colleague.status).toBe(403);
    expect(colleague.body.error.code).toBe('FORBIDDEN');
    const stranger = await t.request({ method: 'PUT', url: `/api/v1/users/${outsider.id}`, token: admin.token, body: { name: 'Hacked' } });
    expect(stranger.status).toBe(404);
    expect((await t.request({ url: '/api/v1/users/me', token: editor.token })).body.data.name).toBe('Editor');
    expect((await t.request({ url: '/api/v1/users/me', token: outsider.token })).body.data.name).toBe('Outsider');
  });
});
