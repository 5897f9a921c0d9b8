import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createApiKey, createUser, createWorkspace, workspaceWithRoles } from '../helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('workspaces', () => {
  it('creates a workspace, makes the creator admin, and lists it with role and memberCount', async () => {
    const ann = await createUser(t, 'Ann');
    const key = await createApiKey(t, ann);
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      token: key,
      body: { name: 'Acme', hostname: 'Acme-HQ', description: 'Our place' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Acme',
      hostname: 'acme-hq',
      description: 'Our place',
      memberCount: 1,
      settings: { defaultRole: 'editor', allowPublicPages: false },
    });
    const list = await t.request({ url: '/api/workspaces', token: key });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ id: created.body.data.id, role: 'admin', memberCount: 1 })]);
  });

  it('refuses a taken hostname with 409 and a bad one with 422', async () => {
    const ann = await createUser(t, 'Ann');
    const ws = await createWorkspace(t, ann);
    const taken = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      token: ann.token,
      body: { name: 'Again', hostname: ws.hostname.toUpperCase() },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'hostname' } });
    const bad = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: ann.token, body: { name: 'Bad', hostname: 'no_underscores' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'hostname' } });
  });

  it('merges settings key by key and only admins update', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const url = `/api/v1/workspaces/${workspace.id}`;
    const first = await t.request({ method: 'PUT', url, token: admin.token, body: { settings: { allowPublicPages: true } } });
    expect(first.status).toBe(200);
    const second = await t.request({ method: 'PUT', url, token: admin.token, body: { name: 'Renamed', settings: { defaultRole: 'viewer' } } });
    expect(second.body.data).toMatchObject({ name: 'Renamed', settings: { defaultRole: 'viewer', allowPublicPages: true } });
    const denied = await t.request({ method: 'PUT', url, token: editor.token, body: { name: 'Nope' } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    expect((await t.request({ url, token: admin.token })).body.data.name).toBe('Renamed');
  });
});

describe('workspaces: every endpoint', () => {
  const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

  it('creates with every field and answers the full workspace shape', async () => {
    const ann = await createUser(t, 'Ann');
    const hostname = `full-${Date.now().toString(36)}`;
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      token: ann.token,
      body: { name: '  Full  ', hostname, description: 'D', logoUrl: 'https://cdn.example/logo.png' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        id: expect.any(String),
        name: 'Full',
        hostname,
        logoUrl: 'https://cdn.example/logo.png',
        description: 'D',
        settings: { defaultRole: 'editor', allowPublicPages: false },
        memberCount: 1,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    });
    const read = await t.request({ url: `/api/v1/workspaces/${res.body.data.id}`, token: ann.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    const members = await t.request({ url: `/api/v1/workspaces/${res.body.data.id}/members`, token: ann.token });
    expect(members.body.data).toEqual([{ id: ann.id, email: ann.email, name: 'Ann', avatarUrl: null, role: 'admin', joinedAt: expect.stringMatching(ISO) }]);
  });

  it('validates hostnames as DNS labels', async () => {
    const ann = await createUser(t, 'Ann');
    const ok = ['a', '0', 'a-b', 'x'.repeat(63), 'Mixed-Case9'];
    const bad = ['', '-lead', 'trail-', 'x'.repeat(64), 'dot.ted', 'sp ace', 'ünï', 'under_score'];
    for (const h of ok) {
      const hostname = h.length > 10 ? h : `${h}-${Math.random().toString(36).slice(2, 8)}`;
      const res = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: ann.token, body: { name: 'ok', hostname } });
      expect({ hostname, status: res.status }).toEqual({ hostname, status: 201 });
      expect(res.body.data.hostname).toBe(hostname.toLowerCase());
    }
    for (const hostname of bad) {
      const res = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: ann.token, body: { name: 'bad', hostname } });
      expect({ hostname, status: res.status, code: res.body.error?.code }).toEqual({ hostname, status: 422, code: 'VALIDATION_ERROR' });
      expect(res.body.error.details.field).toBe('hostname');
    }
    const missing = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: ann.token, body: { hostname: 'no-name-given' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'name' } });
    const badLogo = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      token: ann.token,
      body: { name: 'x', hostname: 'bad-logo', logoUrl: 'not a url' },
    });
    expect(badLogo.status).toBe(422);
    expect(badLogo.body.error.details.field).toBe('logoUrl');
    // Only http(s), with no whitespace or control character a browser would drop to make `javascript:` of it.
    for (const logoUrl of [
      'java\tscript:alert(1)',
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:image/svg+xml,<svg/>',
      'https://cdn.example/a\u0000b.png',
    ]) {
      const unsafe = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: ann.token, body: { name: 'x', hostname: 'unsafe-logo', logoUrl } });
      expect(unsafe.status, logoUrl).toBe(422);
      expect(unsafe.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'logoUrl' } });
    }
    const own = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: ann.token, body: { name: 'x', hostname: 'safe-logo' } });
    const update = await t.request({
      method: 'PUT',
      url: `/api/v1/workspaces/${own.body.data.id}`,
      token: ann.token,
      body: { logoUrl: 'java\tscript:alert(1)' },
    });
    expect(update.status).toBe(422);
    expect((await t.request({ url: `/api/v1/workspaces/${own.body.data.id}`, token: ann.token })).body.data.logoUrl).toBeNull();
  });

  it('lists only the caller’s workspaces, each with their own role and the member count', async () => {
    const { workspace, admin, editor, viewer, outsider } = await workspaceWithRoles(t);
    const own = await createWorkspace(t, outsider, 'Outside');
    expect((await t.request({ url: '/api/v1/workspaces', token: (await createUser(t, 'New')).token })).body.data).toEqual([]);
    for (const [user, role] of [
      [admin, 'admin'],
      [editor, 'editor'],
      [viewer, 'viewer'],
    ] as const) {
      const list = await t.request({ url: '/api/v1/workspaces', token: user.token });
      expect(list.body.data).toEqual([expect.objectContaining({ id: workspace.id, role, memberCount: 3 })]);
    }
    const outsiders = await t.request({ url: '/api/v1/workspaces', token: outsider.token });
    expect(outsiders.body.data.map((w: { id: string }) => w.id)).toEqual([own.id]);
  });

  it('updates name, description and logo, clears with null, ignores hostname and bumps updatedAt', async () => {
    const ann = await createUser(t, 'Ann');
    const ws = await createWorkspace(t, ann);
    const url = `/api/v1/workspaces/${ws.id}`;
    const before = (await t.request({ url, token: ann.token })).body.data;
    await new Promise((r) => setTimeout(r, 5));
    const set = await t.request({
      method: 'PUT',
      url,
      token: ann.token,
      body: { description: 'About', logoUrl: 'https://x.example/l.svg', hostname: 'changed-host' },
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ name: 'Acme', description: 'About', logoUrl: 'https://x.example/l.svg', hostname: ws.hostname });
    expect(Date.parse(set.body.data.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(set.body.data.createdAt).toBe(before.createdAt);
    const cleared = await t.request({ method: 'PUT', url, token: ann.token, body: { description: null, logoUrl: null } });
    expect(cleared.body.data).toMatchObject({ description: null, logoUrl: null, name: 'Acme' });
    const noop = await t.request({ method: 'PUT', url, token: ann.token, body: {} });
    expect(noop.status).toBe(200);
    expect(noop.body.data.settings).toEqual({ defaultRole: 'editor', allowPublicPages: false });
    const blank = await t.request({ method: 'PUT', url, token: ann.token, body: { name: '   ' } });
    expect(blank.status).toBe(422);
    expect(blank.body.error.details.field).toBe('name');
    expect((await t.request({ url, token: ann.token })).body.data).toMatchObject({ name: 'Acme', description: null });
  });

  it('answers 404 for an unknown workspace on every endpoint and 403 for a non-member', async () => {
    const { workspace, outsider } = await workspaceWithRoles(t);
    const calls = (id: string) => [
      { method: 'GET' as const, url: `/api/v1/workspaces/${id}` },
      { method: 'PUT' as const, url: `/api/v1/workspaces/${id}`, body: { name: 'x' } },
      { method: 'GET' as const, url: `/api/v1/workspaces/${id}/members` },
      { method: 'POST' as const, url: `/api/v1/workspaces/${id}/members`, body: { userId: outsider.id, role: 'viewer' } },
      { method: 'PUT' as const, url: `/api/v1/workspaces/${id}/members/${outsider.id}`, body: { role: 'viewer' } },
      { method: 'DELETE' as const, url: `/api/v1/workspaces/${id}/members/${outsider.id}` },
      { method: 'GET' as const, url: '/api/v1/users', query: { workspaceId: id } },
    ];
    for (const call of calls('no-such-workspace')) {
      const res = await t.request({ ...call, token: outsider.token });
      expect({ ...call, status: res.status, code: res.body.error?.code }).toEqual({ ...call, status: 404, code: 'NOT_FOUND' });
    }
    for (const call of calls(workspace.id)) {
      const res = await t.request({ ...call, token: outsider.token });
      expect({ ...call, status: res.status, code: res.body.error?.code }).toEqual({ ...call, status: 403, code: 'FORBIDDEN' });
    }
    for (const call of calls(workspace.id)) {
      const res = await t.request(call);
      expect({ ...call, status: res.status }).toEqual({ ...call, status: 401 });
    }
  });
});
