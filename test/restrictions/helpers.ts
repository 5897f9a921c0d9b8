import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

export type Grant = { userId?: string; groupId?: string; role: 'viewer' | 'editor' };

/** Restricts a page (or replaces its grants) through `PUT /v1/pages/:pageId/restriction` as `actor`; throws unless 200. */
export async function restrict(t: TestApp, actor: TestUser, pageId: string, grants: Grant[]) {
  const res = await t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}/restriction`, token: actor.token, body: { grants } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** The grants of a page's own restriction, as `GET /v1/pages/:pageId/access` shows them to `actor`. */
export async function grantsOf(t: TestApp, actor: TestUser, pageId: string): Promise<Array<{ type: 'user' | 'group'; id: string; role: string }>> {
  const res = await t.request({ url: `/api/v1/pages/${pageId}/access`, token: actor.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.restriction?.grants ?? [];
}
