import { createHash, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AppError, unauthorized } from '../../errors.js';

/** Signs and checks session JWTs (HS256). */
export class TokenIssuer {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** A key for another purpose (`label` names it, e.g. "kb csrf v1"), derived from the signing secret so no second secret needs keeping. */
  deriveKey(label: string): Buffer {
    return createHmac('sha256', this.key).update(label).digest();
  }

  /** A session JWT for `userId`, carrying the session's id as the `sid` claim. */
  async issue(userId: string, sessionId: string, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + this.ttlSeconds;
    const token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /**
   * The user and session of a valid token; 401 TOKEN_EXPIRED when expired, 401 UNAUTHORIZED otherwise (a token
   * without `sid`, from before sessions were revocable, included: its holder signs in once more).
   */
  async verify(token: string): Promise<{ userId: string; sessionId: string }> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (!payload.sub) throw unauthorized('Token has no subject');
      if (typeof payload.sid !== 'string' || !payload.sid) throw unauthorized('Token has no session: sign in again');
      return { userId: payload.sub, sessionId: payload.sid };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new AppError('TOKEN_EXPIRED', 'Token has expired; log in again');
      if (err instanceof AppError) throw err;
      throw unauthorized('Invalid token');
    }
  }
}

/** JWT_SECRET when set; otherwise a random secret kept under DATA_DIR so restarts keep sessions. */
export function loadJwtSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}

export const API_KEY_PREFIX = 'kb_';

export function newApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** API keys carry 256 random bits, so a fast hash is as safe as a slow one and keeps auth cheap. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A one-time link token (256 random bits, URL-safe); store only `hashApiKey(token)`. */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

export function looksLikeJwt(token: string): boolean {
  return token.split('.').length === 3;
}
