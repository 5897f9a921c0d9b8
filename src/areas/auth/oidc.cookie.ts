import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SignInChecks } from './oidc.client.js';
import type { TokenIssuer } from './tokens.js';

/**
 * One sign-in attempt, kept by the browser between `/oidc/start` and `/oidc/callback` in a short-lived cookie instead
 * of a server table: any instance can finish what another started. The cookie is sealed with AES-256-GCM under a key
 * derived from the JWT secret, so its secrets (the PKCE verifier, the nonce) are unreadable and its content unforgeable.
 */
export interface SignInAttempt extends SignInChecks {
  /** Where to go once signed in: a path on this site. */
  returnTo: string;
  /** When the attempt began (ms since the epoch). */
  createdAt: number;
}

export const ATTEMPT_COOKIE = 'kb_oidc';
export const ATTEMPT_TTL_S = 600;
const KEY_LABEL = 'kb oidc v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keys = new WeakMap<TokenIssuer, Buffer>();
function keyOf(tokens: TokenIssuer): Buffer {
  let key = keys.get(tokens);
  if (!key) {
    key = tokens.deriveKey(KEY_LABEL);
    keys.set(tokens, key);
  }
  return key;
}

export function sealAttempt(tokens: TokenIssuer, attempt: SignInAttempt): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(tokens), iv);
  cipher.setAAD(Buffer.from(KEY_LABEL));
  const body = Buffer.concat([cipher.update(JSON.stringify(attempt), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The attempt a cookie holds, or null when it is absent, tampered with, from another key, or older than ten minutes. */
export function openAttempt(tokens: TokenIssuer, sealed: string | undefined, now: Date): SignInAttempt | null {
  if (!sealed) return null;
  try {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return null;
    const decipher = createDecipheriv('aes-256-gcm', keyOf(tokens), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(KEY_LABEL));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    const attempt = JSON.parse(text) as SignInAttempt;
    const age = now.getTime() - attempt.createdAt;
    if (!(age >= 0 && age <= ATTEMPT_TTL_S * 1000)) return null;
    return attempt;
  } catch {
    return null;
  }
}

/** Browsers drop tabs and newlines inside a URL, so `/\t/evil.com` would become `//evil.com`. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A path on this site to return to: one leading `/`, never `//` or `/\` (which browsers read as another host), else `/`. */
export function safeReturnTo(value: string | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (CONTROL.test(value) || value.length > 2000) return '/';
  return value;
}
