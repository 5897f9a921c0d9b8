import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_IDS } from '../../src/http/openapi-operations.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, createWorkspace } from '../helpers/factories.js';
import { createTask } from '../tasks/helpers.js';

/**
 * The OpenAPI document as a client generator reads it: an operationId on every operation, declared tags, `null` in
 * nullable enums (a strict validator checks the real answers against it), the error answers each operation can give,
 * the redirects, and the security of the metrics endpoint.
 */

type Operation = {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Array<{ in: string }>;
  requestBody?: unknown;
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
};
type Doc = {
  tags?: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

let t: TestApp;
let doc: Doc;
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, path, op })));

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: 'metrics-token-for-the-openapi-test' });
  doc = (await t.request({ url: '/api/openapi.json' })).body;
});
afterAll(() => t.close());

describe('OpenAPI document', () => {
  it('names every operation once, in the domain’s words, and every name in the table is a real operation', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(150);
    const missing = ops.filter((o) => !o.op.operationId).map((o) => o.key);
    expect(missing, 'add these to src/http/openapi-operations.ts').toEqual([]);
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z]*(\.[a-z][a-zA-Z]*)+$/);
    expect(Object.keys(OPERATION_IDS).filter((key) => !ops.some((o) => o.key === key))).toEqual([]);
    expect(doc.paths['/api/v1/tasks/{taskId}/complete'].post.operationId).toBe('tasks.complete');
    expect(doc.paths['/api/v1/pages/{pageId}'].get.operationId).toBe('pages.get');
  });

  it('declares every tag an operation uses, with a description', () => {
    const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
    for (const { key, op } of operations()) for (const tag of op.tags ?? []) expect(declared.get(tag), `${key}: ${tag}`).toBeTruthy();
  });

  it('documents the error answers in the error shape: 401 where credentials are needed, 404 for ids, 422 for input', () => {
    for (const { key, path, op } of operations()) {
      if (op.security?.length) expect(op.responses['401'], key).toBeDefined();
      if (path.includes('{')) expect(op.responses['404'], key).toBeDefined();
      if (op.requestBody) expect(op.responses['422'], key).toBeDefined();
    }
    const get = doc.paths['/api/v1/pages/{pageId}'].get.responses;
    expect(get['404'].content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(doc.components.schemas.Error).toMatchObject({ required: ['error'] });
  });

  it('documents the single sign-on redirects and the metrics token', () => {
    expect(doc.paths['/api/v1/auth/oidc/start'].get.responses['302']).toMatchObject({ headers: { Location: expect.any(Object) } });
    expect(doc.paths['/api/v1/auth/oidc/callback'].get.responses['302']).toBeDefined();
    expect(doc.paths['/api/metrics'].get.security).toEqual([{ metricsToken: [] }]);
    expect(doc.components.securitySchemes.metricsToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('validates a real answer with a null enum (a task without priority) against its schema in a strict validator', async () => {
    const owner = await createUser(t, 'Owner');
    const ws = await createWorkspace(t, owner, 'Acme');
    await createTask(t, owner, ws.id, { title: 'No priority yet' });
    const res = await t.request({ url: '/api/v1/tasks', token: owner.token, query: { workspaceId: ws.id } });
    expect(res.status).toBe(200);
    expect(res.body.data.some((task: { priority: unknown }) => task.priority === null)).toBe(true);
    const ajv = new Ajv({ strict: false, allErrors: true });
    formats.default(ajv);
    const validate = ajv.compile(doc.paths['/api/v1/tasks'].get.responses['200'].content!['application/json'].schema as object);
    expect(validate(res.body), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });
});
