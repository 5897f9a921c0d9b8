import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { requester, TEST_JWT_SECRET, useTestDatabase } from '../helpers/app.js';

/** LOG_FORMAT: JSON lines by default (test/foundation/logging.test.ts checks their request ids), pretty lines on request. */
const db = useTestDatabase();
const apps: FastifyInstance[] = [];

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

async function appWith(format: 'json' | 'pretty', stream: Writable) {
  const config = loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'kb-log-')), JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'info', LOG_FORMAT: format });
  const app = await buildApp({ config, database: db.database, logger: { stream } });
  await app.ready();
  apps.push(app);
  return requester(app);
}

afterAll(async () => {
  for (const app of apps) await app.close();
});

describe('LOG_FORMAT', () => {
  it('json (the default): one object a line, each carrying the request id', async () => {
    const { lines, stream } = capture();
    const request = await appWith('json', stream);
    const res = await request({ url: '/api/health', headers: { 'x-request-id': 'json-line-1' } });
    expect(res.status).toBe(200);
    const own = lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === 'json-line-1');
    expect(own.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('pretty: readable lines, not JSON, still naming the request id, with credentials still redacted', async () => {
    const { lines, stream } = capture();
    const request = await appWith('pretty', stream);
    const res = await request({ url: '/api/v1/users/me', headers: { 'x-request-id': 'pretty-line-1', authorization: 'Bearer secret-bearer-value' } });
    expect(res.status).toBe(401);
    await new Promise((r) => setTimeout(r, 50));
    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).toThrow();
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: incoming request\n\s+reqId: "pretty-line-1"/m);
    expect(text).toMatch(/INFO: request completed\n\s+reqId: "pretty-line-1"/);
    expect(text).not.toContain('secret-bearer-value');
  });
});
