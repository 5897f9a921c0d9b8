import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { generateApi } from 'swagger-typescript-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Clients generated from the OpenAPI document by two generators (openapi-typescript's types and
 * swagger-typescript-api's fetch client) compile under `strict`, and code written against them reads in the
 * domain's words: `api.tasks.tasksComplete(id, …)`, `operations['pages.get']`, a task's `priority` that may be null.
 */

const run = promisify(execFile);
const TSC = path.resolve('node_modules/typescript/bin/tsc');

const USE = `
import type { operations, paths } from './schema';
import { Api } from './api';

const api = new Api({ baseUrl: 'http://localhost:3000' });
export const complete = (taskId: string) => api.tasks.tasksComplete(taskId, {});
export const read = (pageId: string) => api.pages.pagesGet(pageId, {});
type PageAnswer = operations['pages.get']['responses'][200]['content']['application/json'];
export const titleOf = (answer: PageAnswer): string => answer.data.title;
type Task = paths['/api/v1/tasks']['get']['responses'][200]['content']['application/json']['data'][number];
export const untriaged: Task['priority'] = null;
type NotFound = operations['pages.get']['responses'][404]['content']['application/json'];
export const codeOf = (e: NotFound): string => e.error.code;
`;

let t: TestApp;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(path.join(tmpdir(), 'kb-clients-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

describe('generated API clients', () => {
  it('compile under strict with code that uses them by operation name', async () => {
    const spec = t.app.swagger();
    writeFileSync(path.join(dir, 'schema.ts'), astToString(await openapiTS(spec as Parameters<typeof openapiTS>[0])));
    await generateApi({ spec: spec as never, output: dir, fileName: 'api.ts', httpClientType: 'fetch', moduleNameFirstTag: true, silent: true });
    writeFileSync(path.join(dir, 'use.ts'), USE);
    const args = ['--strict', '--noEmit', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--lib', 'es2022,dom', '--skipLibCheck'];
    const compiled = await run(process.execPath, [TSC, ...args, 'schema.ts', 'api.ts', 'use.ts'], { cwd: dir }).then(
      () => '',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(compiled).toBe('');
  }, 120_000);
});
