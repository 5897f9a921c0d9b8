import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, type TestUser, workspaceWithRoles } from '../helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Who = 'viewer' | 'editor' | 'outsider' | 'admin';
interface Setup {
  workspace: { id: string };
  target: TestUser;
  newcomer: TestUser;
}

/**
 * Each workspace action × each role. A target member (viewer) and a newcomer (not a member) give the member actions
 * something to act on; the admin goes last so a refused attempt always meets the untouched state.
 */
const ACTIONS: Record<string, { call: (s: Setup) => { method: 'GET' | 'PUT' | 'POST' | 'DELETE'; url: string; body?: unknown }; expect: Record<Who, number> }> =
  {
    'get workspace': {
      call: (s) => ({ method: 'GET', url: `/api/v1/workspaces/${s.workspace.id}` }),
      expect: { viewer: 200, editor: 200, outsider: 403, admin: 200 },
    },
    'update workspace': {
      call: (s) => ({ method: 'PUT', url: `/api/v1/workspaces/${s.workspace.id}`, body: { name: 'Renamed' } }),
      expect: { viewer: 403, editor: 403, outsider: 403, admin: 200 },
    },
    'list members': {
      call: (s) => ({ method: 'GET', url: `/api/v1/workspaces/${s.workspace.id}/members` }),
      expect: { viewer: 200, editor: 200, outsider: 403, admin: 200 },
    },
    'search users': {
      call: (s) => ({ method: 'GET', url: `/api/v1/users?workspaceId=${s.workspace.id}` }),
      expect: { viewer: 200, editor: 200, outsider: 403, admin: 200 },
    },
    'add member (invites)': {
      call: (s) => ({ method: 'POST', url: `/api/v1/workspaces/${s.workspace.id}/members`, body: { userId: s.newcomer.id, role: 'viewer' } }),
      expect: { viewer: 403, editor: 403, outsider: 403, admin: 202 },
    },
    'change role': {
      call: (s) => ({ method: 'PUT', url: `/api/v1/workspaces/${s.workspace.id}/members/${s.target.id}`, body: { role: 'editor' } }),
      expect: { viewer: 403, editor: 403, outsider: 403, admin: 200 },
    },
    'remove member': {
      call: (s) => ({ method: 'DELETE', url: `/api/v1/workspaces/${s.workspace.id}/members/${s.target.id}` }),
      expect: { viewer: 403, editor: 403, outsider: 403, admin: 200 },
    },
  };

async function state(workspaceId: string, admin: TestUser) {
  const ws = await t.request({ url: `/api/v1/workspaces/${workspaceId}`, token: admin.token });
  const members = await t.request({ url: `/api/v1/workspaces/${workspaceId}/members`, token: admin.token });
  return { name: ws.body.data.name, members: members.body.data.map((m: { id: string; role: string }) => `${m.id}:${m.role}`).sort() };
}

describe('role matrix', () => {
  for (const [action, { call, expect: expected }] of Object.entries(ACTIONS)) {
    it(`${action}: viewer ${expected.viewer}, editor ${expected.editor}, non-member ${expected.outsider}, admin ${expected.admin}`, async () => {
      const roles = await workspaceWithRoles(t);
      const [target, newcomer] = await Promise.all([createUser(t, 'Target'), createUser(t, 'Newcomer')]);
      await addMember(t, roles.workspace.id, roles.admin, target, 'viewer');
      const setup: Setup = { workspace: roles.workspace, target, newcomer };
      const before = await state(roles.workspace.id, roles.admin);
      for (const who of ['viewer', 'editor', 'outsider', 'admin'] as const) {
        const res = await t.request({ ...call(setup), token: roles[who].token });
        expect({ who, status: res.status }).toEqual({ who, status: expected[who] });
        if (res.status === 403) expect(res.body.error.code).toBe('FORBIDDEN');
        if (who !== 'admin' && expected[who] >= 400) expect(await state(roles.workspace.id, roles.admin)).toEqual(before);
      }
    });
  }
});
