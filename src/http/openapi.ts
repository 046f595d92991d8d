import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { PUBLIC } from './access.js';

/**
 * The OpenAPI 3 document is generated from the route schemas (never written by hand) and served
 * at `/api2/openapi.json`; `/docs` is a browsable page over it. Routes served twice (under
 * `/api2` and `/web/api2`) are listed once, under `/api2`. Deprecated operations carry
 * `deprecated: true` from their route schema.
 */
export async function installOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'OpenTMS API',
        version,
        description:
          'A self-hosted Translation Management Service whose interface is wire-compatible with the Phrase TMS ' +
          '(Memsource) API. Operations keep the published operation ids; OpenTMS extensions are tagged "OpenTMS".',
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
      return { schema: transformed as typeof schema, url };
    },
  });

  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/api2/openapi.json' } as never });

  app.get('/api2/openapi.json', { config: { access: PUBLIC }, schema: { hide: true } }, async () => app.swagger());
}
