import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { OpenAPIV3 } from 'openapi-types';
import { finishDocument } from './openapi-document.js';

/**
 * OpenAPI 3, generated from the zod schemas the routes validate with and finished by openapi-document.ts (operation
 * ids, tags, error answers); JSON at /api/openapi.json, browsable at /api/docs.
 */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Knowledge base and task manager API',
        version: '1.0.0',
        description:
          'One API for people, scripts and AI agents. Every `/api/v1/<resource>` path is also served at `/api/<resource>`. ' +
          'Errors are `{ error: { code, message, details } }`; every response carries `X-Request-Id` and the `X-RateLimit-*` headers.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API key (`kb_…`) or a JWT from /auth/login' },
          metricsToken: { type: 'http', scheme: 'bearer', description: 'The service’s METRICS_TOKEN (for a Prometheus scraper)' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (documents) => ('openapiObject' in documents ? finishDocument(documents.openapiObject as OpenAPIV3.Document) : documents.swaggerObject),
  });
  // The browsable reference is open to all, like the document it shows.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs')) route.config = { ...route.config, public: true };
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true, uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
