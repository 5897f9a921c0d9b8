import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Config } from '../../config.js';
import { type AddressRule, BlockedAddressError, resolvePermitted } from '../research/research.outbound.js';

/**
 * Sending one delivery. An endpoint must be a public address unless WEBHOOK_ALLOW_PRIVATE_NETWORK is on: its name is
 * resolved and every address checked when it is registered and again before every delivery (DNS may have changed),
 * and the request connects to the address that was checked, never to a second lookup a rebinding server could answer
 * differently. Redirects are not followed (a 3xx is a failure), the whole exchange has a time limit, and at most
 * WEBHOOK_MAX_RESPONSE_BYTES of the answer are read.
 */

export function webhookAddressRule(config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE_NETWORK'>): AddressRule {
  return { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORK, networks: [] };
}

/** Why a URL cannot be an endpoint (`invalid_url`, `unsupported_scheme`, `credentials_in_url`), or null when its form is fine. */
export function urlFormProblem(raw: string): { reason: string; message: string } | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { reason: 'invalid_url', message: 'url must be an absolute http(s) URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { reason: 'unsupported_scheme', message: 'url must use http or https' };
  if (url.username || url.password) return { reason: 'credentials_in_url', message: 'url must not carry a user name or password' };
  return null;
}

/** The address a delivery to `url` connects to; throws BlockedAddressError for a refused one, a DNS error for an unknown name. */
export async function pinnedAddress(url: URL, rule: AddressRule): Promise<string> {
  const addresses = await resolvePermitted(url.hostname, rule);
  return addresses[0];
}

export interface SendOptions {
  timeoutMs: number;
  maxBytes: number;
  headers: Record<string, string>;
}

export interface SendOutcome {
  /** The answer's status; null when none came (refused address, connection error, time-out). */
  status: number | null;
  body: string;
  durationMs: number;
  error: string | null;
}

/** Resolves and checks `url`'s host, then POSTs `body` to the address checked. Never throws: a failure is an outcome. */
export async function sendDelivery(rawUrl: string, rule: AddressRule, body: string, opts: SendOptions): Promise<SendOutcome> {
  const started = Date.now();
  const failed = (error: string): SendOutcome => ({ status: null, body: '', durationMs: Date.now() - started, error });
  let url: URL;
  let address: string;
  try {
    url = new URL(rawUrl);
    address = await pinnedAddress(url, rule);
  } catch (err) {
    if (err instanceof BlockedAddressError) return failed(`private_address: ${err.message}`);
    return failed(`address lookup failed: ${(err as Error).message}`);
  }
  try {
    const answer = await postPinned(url, address, body, opts);
    return { ...answer, durationMs: Date.now() - started, error: null };
  } catch (err) {
    return failed((err as Error).message);
  }
}

/** A lookup that answers the one checked address, whatever the name. */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address);
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    callback(null, address, family);
  };
}

function postPinned(url: URL, address: string, body: string, opts: SendOptions): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const payload = Buffer.from(body);
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup: pinnedLookup(address),
        // A fresh connection each time: a pooled socket would skip the address check of this delivery.
        agent: false,
        headers: { ...opts.headers, 'content-length': String(payload.length) },
        timeout: opts.timeoutMs,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve({ status, body: Buffer.concat(chunks).toString('utf8') });
        };
        res.on('data', (chunk: Buffer) => {
          if (done) return;
          const room = opts.maxBytes - size;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          size += Math.min(chunk.length, room);
          if (size >= opts.maxBytes) {
            finish();
            res.destroy();
          }
        });
        res.on('end', finish);
        res.on('error', (err) => (done ? undefined : reject(err)));
        res.on('close', finish);
      },
    );
    // `timeout` above is for an idle socket; this bounds the whole exchange.
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('timeout', () => req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`)));
    req.end(payload);
  });
}
