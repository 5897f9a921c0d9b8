import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

/** Who this server is, for `initialize` on both the JSON endpoints and the standard transport. */
export const SERVER_INFO = { name: pkg.name, title: 'Knowledge base and task manager', version: pkg.version };
/** What the JSON endpoints (`/mcp-standard`, the seed's interface) say they speak: the 2025 revision, unchanged. `/api/mcp` serves 2026-07-28 too. */
export const PROTOCOL_VERSION = '2025-11-25';
export const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false, subscribe: false } };
/** What `/api/mcp` says on 2026-07-28: pages can be followed (`subscriptions/listen` with `resourceSubscriptions`). */
export const MODERN_CAPABILITIES = { ...CAPABILITIES, resources: { ...CAPABILITIES.resources, subscribe: true } };
