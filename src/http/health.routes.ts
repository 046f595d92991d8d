import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.js';
import { PUBLIC } from './access.js';

const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  database: Type.Object({ dialect: Type.String(), ok: Type.Boolean(), latencyMs: Type.Number() }),
});

/** `GET /health`: liveness plus one database round trip; 503 when the database does not answer. */
export function healthRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/health',
      {
        config: { access: PUBLIC },
        logLevel: 'warn',
        schema: { tags: ['OpenTMS'], summary: 'Health check', response: { 200: HealthResponse, 503: HealthResponse } },
      },
      async (_request, reply) => {
        const started = performance.now();
        let ok = true;
        try {
          await deps.database.ping();
        } catch {
          ok = false;
        }
        const body = {
          status: ok ? ('ok' as const) : ('unavailable' as const),
          database: { dialect: deps.database.dialect, ok, latencyMs: Math.round((performance.now() - started) * 100) / 100 },
        };
        return reply.code(ok ? 200 : 503).send(body);
      },
    );
  };
}
