import type { z } from 'zod';
import { type Actor, type Ctx, requireActor } from '../../context.js';
import type { Db } from '../../db/index.js';
import { isUniqueViolation } from '../../db/index.js';
import { AppError, alreadyExists, forbidden, notFound, unauthorized, validation } from '../../errors.js';
import { newId } from '../../ids.js';
import { presentUser } from '../users/users.present.js';
import { usersRepo } from '../users/users.repo.js';
import { apiKeysRepo } from './auth.repo.js';
import type { ApiKeyCreateBody, LoginBody, SignupBody } from './auth.schema.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { API_KEY_PREFIX, hashApiKey, looksLikeJwt, newApiKey, type TokenIssuer } from './tokens.js';

export async function createUser(db: Db, input: { email: string; name: string; password: string | null }) {
  try {
    return await usersRepo.insert(db, {
      id: newId(),
      email: input.email,
      name: input.name,
      passwordHash: input.password === null ? null : await hashPassword(input.password),
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists('An account with this email already exists', 'email');
    throw err;
  }
}

export async function signup(ctx: Ctx, input: z.infer<typeof SignupBody>) {
  const user = await createUser(ctx.db, input);
  const { token } = await ctx.env.tokens.issue(user.id, ctx.now());
  return { user: presentUser(user), token };
}

export async function login(ctx: Ctx, input: z.infer<typeof LoginBody>) {
  const user = await usersRepo.findByEmail(ctx.db, input.email);
  // Verify even for an unknown email so timing does not reveal which emails have accounts.
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) throw unauthorized('Email or password is incorrect');
  const { token, expiresAt } = await ctx.env.tokens.issue(user.id, ctx.now());
  return { user: presentUser(user), token, expiresAt: expiresAt.toISOString() };
}
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/**
 * Key management needs a session (a JWT): a leaked API key must not be able to mint keys that outlive its own
 * revocation, nor list or revoke the others.
 */
function requireSession(ctx: Ctx): Actor {
  const actor = requireActor(ctx);
  if (actor.via !== 'jwt')
    throw forbidden('API keys cannot manage API keys; sign in and use the session token (JWT) from /auth/login', { reason: 'session_required' });
  return actor;
}

/** Creates a key for the caller (or, from the `kb key create` command, for `ownerId`), within the per-user cap. */
export async function createApiKey(ctx: Ctx, input: z.input<typeof ApiKeyCreateBody>, ownerId = requireSession(ctx).userId) {
  const key = newApiKey();
  const max = ctx.env.config.MAX_API_KEYS_PER_USER;
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= ctx.now()) throw validation('expiresAt', 'in_the_past', 'expiresAt must be in the future');
  const row = await ctx.db.transaction().execute(async (trx) => {
    if ((await apiKeysRepo.lockAndCountActive(trx, ownerId)) >= max)
      throw new AppError('VALIDATION_ERROR', `A user may hold at most ${max} active API keys; revoke one first`, {
        field: 'name',
        reason: 'too_many_keys',
        limit: max,
      });
    return apiKeysRepo.insert(trx, {
      id: newId(),
      userId: ownerId,
      name: input.name,
      keyHash: hashApiKey(key),
      keyPrefix: key.slice(0, API_KEY_PREFIX.length + 6),
      access: input.access ?? 'read-write',
      expiresAt,
    });
  });
  return { id: row.id, name: row.name, key, access: row.access, expiresAt: row.expiresAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() };
}

export async function listApiKeys(ctx: Ctx) {
  const actor = requireSession(ctx);
  const rows = await apiKeysRepo.listForUser(ctx.db, actor.userId);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.keyPrefix,
    access: r.access,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  }));
}

export async function revokeApiKey(ctx: Ctx, authenticator: Authenticator, id: string) {
  const actor = requireSession(ctx);
  const row = await apiKeysRepo.revoke(ctx.db, id, actor.userId, ctx.now());
  if (!row) throw notFound('API key', id);
  authenticator.forget(row.keyHash);
  return { id, deleted: true as const };
}

interface CachedKey {
  actor: Actor;
  lastUsedAt: number;
  /** Until when this cache entry holds. */
  expiresAt: number;
  /** When the key itself stops working (ms), or null. */
  keyExpiresAt: number | null;
}

/**
 * Turns a bearer credential into an actor. API keys are looked up by hash and cached briefly so the hot path
 * costs no query; `lastUsedAt` is written at most once a minute per key, after the response.
 */
export class Authenticator {
  private readonly cache = new Map<string, CachedKey>();
  /** Users whose existence was checked recently (JWT callers), until when. */
  private readonly users = new Map<string, number>();
  constructor(
    private readonly db: Db,
    private readonly tokens: TokenIssuer,
    private readonly cacheMs = 10_000,
    private readonly touchEveryMs = 60_000,
  ) {}

  async authenticate(bearer: string, now = Date.now()): Promise<Actor> {
    if (bearer.startsWith(API_KEY_PREFIX)) return this.fromApiKey(bearer, now);
    if (looksLikeJwt(bearer)) return this.fromJwt(bearer, now);
    throw unauthorized('Malformed credential: expected an API key or a JWT');
  }

  /** A valid token of an account that no longer exists (a reset database keeps its JWT secret) is refused, not a 404 or 500 later. */
  private async fromJwt(token: string, now: number): Promise<Actor> {
    const userId = await this.tokens.verify(token);
    const knownUntil = this.users.get(userId);
    if (knownUntil === undefined || knownUntil < now) {
      if (!(await usersRepo.findById(this.db, userId))) {
        this.users.delete(userId);
        throw unauthorized('The account of this token does not exist');
      }
      if (this.users.size > 10_000) this.users.clear();
      this.users.set(userId, now + this.cacheMs);
    }
    return { userId, via: 'jwt', apiKeyId: null };
  }

  forget(keyHash: string) {
    this.cache.delete(keyHash);
  }

  private async fromApiKey(key: string, now: number): Promise<Actor> {
    const keyHash = hashApiKey(key);
    let entry = this.cache.get(keyHash);
    if (!entry || entry.expiresAt < now) {
      const row = await apiKeysRepo.findActiveByHash(this.db, keyHash);
      if (!row) {
        this.cache.delete(keyHash);
        throw unauthorized('Unknown or revoked API key');
      }
      entry = {
        actor: { userId: row.userId, via: 'api_key', apiKeyId: row.id, ...(row.access === 'read-only' ? { readOnly: true } : {}) },
        lastUsedAt: row.lastUsedAt?.getTime() ?? 0,
        expiresAt: now + this.cacheMs,
        keyExpiresAt: row.expiresAt?.getTime() ?? null,
      };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(keyHash, entry);
    }
    if (entry.keyExpiresAt !== null && entry.keyExpiresAt <= now) throw new AppError('TOKEN_EXPIRED', 'This API key has expired; create a new one');
    if (now - entry.lastUsedAt >= this.touchEveryMs) {
      entry.lastUsedAt = now;
      const id = entry.actor.apiKeyId as string;
      apiKeysRepo.touch(this.db, id, new Date(now)).catch(() => {
        entry.lastUsedAt = 0; // try again next time
      });
    }
    return entry.actor;
  }
}
