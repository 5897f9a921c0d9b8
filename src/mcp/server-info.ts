import { readFileSync } from 'node:fs';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

/** Who this server is, for `initialize` on both the JSON endpoints and the standard transport. */
export const SERVER_INFO = { name: pkg.name, title: 'Knowledge base and task manager', version: pkg.version };
export const PROTOCOL_VERSION = LATEST_PROTOCOL_VERSION;
export const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false, subscribe: false } };
