import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { PUBLIC } from './access.js';
import { ERROR_RESPONSE_SCHEMA, SCIM_ERROR_RESPONSE_SCHEMA, errorResponseObject, errorResponsesOf } from './error-responses.js';

/** `/api2/v1/users/:userUid` as OpenAPI writes it: `/api2/v1/users/{userUid}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * The OpenAPI 3 document is generated from the route schemas (never written by hand) and served
 * at `/api2/openapi.json`; `/docs` is a browsable page over it. Routes served twice (under
 * `/api2` and `/web/api2`) are listed once, under `/api2`. Deprecated operations carry
 * `deprecated: true` from their route schema. Every TMS operation lists its error responses
 * (src/http/error-responses.ts), each referring to the one shared `ErrorResponse` schema (the
 * SCIM operations to `ScimErrorResponse`).
 */
export async function installOpenApi(app: FastifyInstance, version: string): Promise<void> {
  // Filled while the document is generated (transform, per route) and written into it at the end
  // (transformObject), where the component schemas can be referred to.
  const errorResponses = new Map<string, { responses: Map<number, Set<string>>; surface: 'tms' | 'scim' }>();
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'OpenTMS API',
        // The description: "the interface description carries the version label `Latest`"; the
        // versions live in the paths. The build's own version is named in the description.
        version: 'Latest',
        description:
          'A self-hosted Translation Management Service whose interface is wire-compatible with the Phrase TMS ' +
          '(Memsource) API. Operations keep the published operation ids; OpenTMS extensions are tagged "OpenTMS". ' +
          `This is OpenTMS ${version}.`,
      },
      components: {
        securitySchemes: {
          ApiToken: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'A token from POST /api2/v3/auth/login, sent as `Authorization: ApiToken <token>`.',
          },
        },
      },
      security: [{ ApiToken: [] }],
    },
    transform: ({ schema, url, route }) => {
      const hidden = url.startsWith('/web/') || url.startsWith('/docs');
      const isPublic = route.config?.access !== undefined && 'public' in route.config.access;
      const transformed = { ...(schema ?? {}), ...(hidden ? { hide: true } : {}), ...(isPublic ? { security: [] } : {}) };
      if (!hidden && url.startsWith('/api2/v')) {
        const surface = url.startsWith('/api2/v1/scim/') ? 'scim' : 'tms';
        for (const method of [route.method].flat()) {
          errorResponses.set(`${method.toLowerCase()} ${openApiPath(url)}`, { responses: errorResponsesOf(route), surface });
        }
      }
      return { schema: transformed as typeof schema, url };
    },
    transformObject: (document) => {
      // Always OpenAPI 3 here (the `openapi` option above); Swagger 2 documents are left as they are.
      if (!('openapiObject' in document)) return document.swaggerObject;
      const { openapiObject } = document;
      openapiObject.components = {
        ...openapiObject.components,
        schemas: {
          ...openapiObject.components?.schemas,
          ErrorResponse: ERROR_RESPONSE_SCHEMA,
          ScimErrorResponse: SCIM_ERROR_RESPONSE_SCHEMA,
          // The schemas are plain `as const` JSON Schema; the OpenAPI types want mutable arrays.
        } as never,
      };
      for (const [path, item] of Object.entries(openapiObject.paths ?? {})) {
        for (const [method, operation] of Object.entries(item as Record<string, { responses?: Record<string, unknown> }>)) {
          const declared = errorResponses.get(`${method} ${path}`);
          if (!declared || !operation.responses) continue;
          for (const [status, codes] of declared.responses) {
            // A response the route's own schema declares stays as the route wrote it.
            operation.responses[String(status)] ??= errorResponseObject(status, codes, declared.surface);
          }
        }
      }
      return openapiObject;
    },
  });

  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/api2/openapi.json' } as never });

  app.get('/api2/openapi.json', { config: { access: PUBLIC }, schema: { hide: true } }, async () => app.swagger());
}
