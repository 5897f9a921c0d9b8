import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { ServiceEnv } from '../../context.js';

/**
 * A webhook's signing secret: `whsec_` + base64 of 32 random bytes (the Standard Webhooks form). The signer needs it
 * in clear, so it cannot be hashed like an API key: it is kept encrypted with AES-256-GCM under a key derived from the
 * service's signing secret, the webhook's id bound in as associated data (a ciphertext copied to another row fails).
 * It is answered once, when made (create, rotate).
 */

const KEY_LABEL = 'kb webhook secrets v1';
const VERSION = 'v1';

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function encryptSecret(env: Pick<ServiceEnv, 'tokens'>, webhookId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', env.tokens.deriveKey(KEY_LABEL), iv);
  cipher.setAAD(Buffer.from(webhookId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
}

export function decryptSecret(env: Pick<ServiceEnv, 'tokens'>, webhookId: string, stored: string): string {
  const [version, body] = stored.split(':');
  if (version !== VERSION || !body) throw new Error('unknown webhook secret format');
  const raw = Buffer.from(body, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', env.tokens.deriveKey(KEY_LABEL), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(webhookId));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** Text from an endpoint, made safe to show: the secret (whole, or its base64 part) and anything shaped like one masked. */
export function maskSecrets(text: string, secret: string): string {
  const bare = secret.replace(/^whsec_/, '');
  return text
    .split(secret)
    .join('whsec_***')
    .split(bare)
    .join('***')
    .replace(/whsec_[A-Za-z0-9+/=]{8,}/g, 'whsec_***');
}
