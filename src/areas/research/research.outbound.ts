import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../config.js';

/**
 * Outbound requests a user can steer (repository clones, web pages found by a search) go only to public
 * addresses, unless RESEARCH_ALLOW_PRIVATE_NETWORK says otherwise: no loopback, private, link-local (cloud
 * metadata), multicast or reserved address. Names are resolved and every address checked; HTTP connects to the
 * address that was checked (no second lookup a DNS rebinding could answer differently).
 */

export class BlockedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, a loopback or private address`);
  }
}

/** True for a globally routable unicast address. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/**
 * Which addresses outbound requests may reach: public ones always; every address with
 * RESEARCH_ALLOW_PRIVATE_NETWORK; else only the private ranges listed in RESEARCH_ALLOWED_NETWORKS.
 */
export interface AddressRule {
  allowPrivate: boolean;
  networks: [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

export function addressRuleOf(config: Pick<Config, 'RESEARCH_ALLOW_PRIVATE_NETWORK' | 'RESEARCH_ALLOWED_NETWORKS'>): AddressRule {
  const networks = config.RESEARCH_ALLOWED_NETWORKS.split(',')
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => ipaddr.parseCIDR(c));
  return { allowPrivate: config.RESEARCH_ALLOW_PRIVATE_NETWORK, networks };
}

export function isPermitted(address: string, rule: AddressRule): boolean {
  if (rule.allowPrivate || isPublicAddress(address)) return true;
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return rule.networks.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
}

function stripBrackets(host: string) {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Resolves `host` and checks every address; returns them. Throws BlockedAddressError for a refused one. */
export async function resolvePermitted(rawHost: string, rule: AddressRule): Promise<string[]> {
  const host = stripBrackets(rawHost);
  const addresses = isIP(host) ? [host] : (await lookupAll(host)).map((a) => a.address);
  for (const a of addresses) if (!isPermitted(a, rule)) throw new BlockedAddressError(host, a);
  return addresses;
}

function lookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
}

/** A `lookup` for http(s).request that refuses non-permitted addresses at connect time. */
function guardedLookup(rule: AddressRule): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => !isPermitted(a.address, rule));
      if (bad) return callback(new BlockedAddressError(hostname, bad.address), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

export interface FetchOptions {
  addresses: AddressRule;
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  maxRedirects?: number;
}

export interface FetchedPage {
  url: string;
  status: number;
  contentType: string;
  body: string;
  truncated: boolean;
}

/**
 * GET `url` over http(s) with the address rules, a timeout for the whole exchange, a size cap (the body is cut
 * there and marked truncated) and at most a few redirects, each checked again.
 */
export async function guardedGet(url: string, opts: FetchOptions): Promise<FetchedPage> {
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') throw new Error(`unsupported protocol ${current.protocol}`);
    if (isIP(stripBrackets(current.hostname))) await resolvePermitted(current.hostname, opts.addresses);
    const res = await getOnce(current, opts);
    if (res.redirect) {
      if (hop >= (opts.maxRedirects ?? 3)) throw new Error('too many redirects');
      current = new URL(res.redirect, current);
      continue;
    }
    return { ...res.page, url: current.toString() };
  }
}

function getOnce(url: URL, opts: FetchOptions): Promise<{ redirect?: string; page: Omit<FetchedPage, 'url'> }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'GET',
        lookup: guardedLookup(opts.addresses),
        headers: { 'user-agent': 'kb-research/1.0', accept: 'text/html,text/plain,application/xhtml+xml;q=0.9,*/*;q=0.1', ...opts.headers },
        signal: opts.signal,
        timeout: opts.timeoutMs,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          resolve({ redirect: res.headers.location, page: { status, contentType: '', body: '', truncated: false } });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (truncated) return;
          const room = opts.maxBytes - size;
          if (chunk.length >= room) {
            chunks.push(chunk.subarray(0, room));
            size += room;
            truncated = true;
            res.destroy();
            finish();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve({ page: { status, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8'), truncated } });
        };
        res.on('end', finish);
        res.on('error', (err) => (truncated ? finish() : reject(err)));
      },
    );
    // `timeout` above is for an idle socket; this bounds the whole exchange.
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('timeout', () => req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`)));
    req.end();
  });
}
