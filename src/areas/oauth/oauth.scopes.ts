/**
 * What an app may be granted, mapped onto the limits API keys already have: `read` alone is a read-only key, `write`
 * a read-write one, `admin` also lets the person's admin role act (without it, a token acts at most as an editor:
 * members, spaces' settings, webhooks, the audit log stay out of reach). Every token reaches one workspace.
 */
export const OAUTH_SCOPES = ['read', 'write', 'admin'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

export const isOAuthScope = (s: string): s is OAuthScope => (OAUTH_SCOPES as readonly string[]).includes(s);

/** The granted scopes out of a space-separated list: unknown ones dropped, `write` and `admin` imply `read`. */
export function grantedScopes(requested: string): OAuthScope[] {
  const asked = new Set(requested.split(/\s+/).filter(isOAuthScope));
  if (asked.size) asked.add('read');
  return OAUTH_SCOPES.filter((s) => asked.has(s));
}

/** The paths of kb's API a token is good for; each has its protected-resource metadata at `/.well-known/oauth-protected-resource<path>`. */
export const RESOURCE_PATHS = ['', '/api/mcp', '/api/v1', '/mcp-standard'] as const;

/**
 * kb's API as an OAuth protected resource. The resource indicators an app may ask a token for (RFC 8707) are the
 * service's own address and the paths above (with or without a trailing slash); a token for any of them is good on
 * all of them (they are one API). Anything else is `invalid_target`.
 */
export function protectedResources(issuer: string) {
  const accepted = new Set(RESOURCE_PATHS.flatMap((p) => [`${issuer}${p}`, `${issuer}${p}/`]));
  return {
    default: `${issuer}/api/mcp`,
    accepts: (indicator: string) => accepted.has(indicator),
  };
}

/** The protected-resource metadata path for a request path (RFC 9728): the most specific of RESOURCE_PATHS it falls under. */
export function resourcePathOf(url: string): string {
  const path = url.split('?')[0];
  return RESOURCE_PATHS.filter((p) => p && (path === p || path.startsWith(`${p}/`)))[0] ?? '';
}
