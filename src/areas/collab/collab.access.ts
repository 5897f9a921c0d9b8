import type { IncomingHttpHeaders } from 'node:http';
import { fastifyCookie } from '@fastify/cookie';
import type { Actor, Ctx } from '../../context.js';
import type { Presence } from '../../editor/presence.js';
import { forbidden, unauthorized } from '../../errors.js';
import { requireSessionToken, sessionCookieFrom } from '../../http/session-cookie.js';
import type { Authenticator } from '../auth/auth.service.js';
import { requirePageAccess } from '../pages/pages.policy.js';
import { type Role, roleAtLeast } from '../workspaces/workspaces.policy.js';

/** The provider `token` that says "my browser session cookie is the credential". */
export const COOKIE_TOKEN = 'cookie';

/** Who a co-editing connection acts for, and what they may do with its page. */
export interface CollabContext {
  actor: Actor;
  /** The credential the connection opened with, checked again with its access (a deleted API key closes it). */
  credential: string;
  role: Role;
  /** Who the connection shows as to the others (set at connect, from the account: never what the client says). */
  presence?: Presence;
}

/** Whether a browser's `Origin` names the host it connected to (a foreign page must not ride the session cookie). */
export function sameOriginUpgrade(headers: Headers | IncomingHttpHeaders, trustProxy: boolean): boolean {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : (headers[name] as string | undefined)) ?? undefined;
  const origin = get('origin');
  if (!origin) return true; // not a browser: nothing ambient to abuse
  const host = (trustProxy ? get('x-forwarded-host')?.split(',')[0]?.trim() : undefined) ?? get('host');
  try {
    return !!host && new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * The credential of a connection: the provider's token (a session JWT or an API key), or for `token: "cookie"` the
 * browser's session cookie (`__Host-kb_session` or `kb_session`), accepted from this service's own origin only.
 */
export function credentialOf(token: string, headers: Headers, trustProxy: boolean): string {
  if (token !== COOKIE_TOKEN) {
    if (!token) throw unauthorized('Send a session token or an API key as the token, or "cookie" from the web app');
    return token;
  }
  if (!sameOriginUpgrade(headers, trustProxy))
    throw forbidden('Cross-origin co-editing refused: the session cookie only works from this service’s own pages', { reason: 'cross_origin' });
  const value = sessionCookieFrom(fastifyCookie.parse(headers.get('cookie') ?? ''));
  if (!value) throw unauthorized('No session cookie: sign in first');
  return requireSessionToken(value);
}

/**
 * The caller's role on the page, checked as every read is (404 unknown or hidden, 410 trashed, 403 no membership);
 * a read-only API key reads at most, whatever the user's role.
 */
export async function pageRoleOf(ctx: Ctx, pageId: string): Promise<Role> {
  const { role } = await requirePageAccess(ctx, pageId, 'viewer');
  return ctx.actor?.readOnly ? 'viewer' : role;
}

/** Connects: who the credential names, and their role on the page (editors write; viewers read only). */
export async function admitConnection(authenticator: Authenticator, ctxFor: (actor: Actor) => Ctx, pageId: string, credential: string): Promise<CollabContext> {
  const actor = await authenticator.authenticate(credential);
  const role = await pageRoleOf(ctxFor(actor), pageId);
  return { actor, credential, role };
}

export const mayWrite = (role: Role) => roleAtLeast(role, 'editor');
