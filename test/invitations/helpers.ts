import { expect } from 'vitest';
import type { Response, TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

/** The token of an invitation link (`…/invite/<token>`). */
export const tokenOf = (url: string) => url.slice(url.lastIndexOf('/invite/') + '/invite/'.length);

/** Invites `email` as `admin` and expects a 201; answers the body's data. */
export async function invite(t: TestApp, admin: TestUser, workspaceId: string, email: string, role = 'editor') {
  const res = await t.request({ method: 'POST', url: `/api/v1/workspaces/${workspaceId}/invitations`, token: admin.token, body: { email, role } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { invitation: { id: string; email: string; role: string }; url: string; mailed: boolean; mailError?: string };
}

export function expectError(res: Response, status: number, code: string, details: Record<string, unknown> = {}) {
  expect(res.body?.error?.code, JSON.stringify(res.body)).toBe(code);
  expect(res.status).toBe(status);
  expect(res.body.error.details).toEqual(expect.objectContaining(details));
}
