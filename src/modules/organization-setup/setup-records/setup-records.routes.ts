import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { namedRecordRoutes } from './named-record-kit.js';
import { NAMED_RECORD_KINDS } from './named-record-kinds.js';

/** Clients, business units, cost centers, domains and subdomains: one kit, five kinds. */
export function setupRecordsRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    for (const kind of NAMED_RECORD_KINDS) await app.register(namedRecordRoutes(deps, kind));
  };
}
