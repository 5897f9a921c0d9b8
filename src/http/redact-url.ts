import type { FastifyRequest } from 'fastify';

/**
 * A request's URL as the logs keep it: the secrets some URLs carry replaced by `[redacted]`. A password-reset,
 * invitation or share link is a credential in itself (whoever reads it from a log could use it), and so are OAuth
 * codes and tokens sent in a query string.
 */
export const REDACTED = '[redacted]';

/** Path segments that are secrets: the one after each prefix (the web app's links and the API routes behind them). */
const SECRET_SEGMENTS = [
  /^(\/reset-password\/)[^/?#]+/,
  /^(\/invite\/)[^/?#]+/,
  /^(\/s\/)[^/?#]+/,
  /^((?:\/api)?(?:\/v1)?\/invitations\/)[^/?#]+/,
  /^((?:\/api)?(?:\/v1)?\/public\/shares\/)[^/?#]+/,
];

/** Query parameters that are secrets, whatever the route (compared without case). */
const SECRET_PARAMS = new Set([
  'token',
  'key',
  'api_key',
  'apikey',
  'code',
  'state',
  'access_token',
  'id_token',
  'refresh_token',
  'password',
  'secret',
  'signature',
  'sig',
]);

function paramName(pair: string): string {
  const name = pair.split('=', 1)[0];
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  let path = queryAt < 0 ? url : url.slice(0, queryAt);
  for (const segment of SECRET_SEGMENTS) path = path.replace(segment, `$1${REDACTED}`);
  if (queryAt < 0) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => (SECRET_PARAMS.has(paramName(pair)) && pair.includes('=') ? `${pair.split('=', 1)[0]}=${REDACTED}` : pair))
    .join('&');
  return `${path}?${query}`;
}

/** Fastify's own request serializer (method, url, host, address, port), with the URL redacted. */
export function loggedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
