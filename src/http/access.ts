import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRole } from '../db/schema.js';
import { forbidden, unauthenticated } from './errors.js';

/**
 * Who may call a route. Every route under the API surfaces must declare one in
 * `config.access`; a route without it makes the app refuse to start, so nothing is ever
 * reachable by accident.
 *
 * - `public`: no token needed (login, health, documentation);
 * - `authenticated`: any valid token of an active user;
 * - `roles`: a valid token whose user has one of the roles.
 */
export type Access = { readonly public: true } | { readonly authenticated: true } | { readonly roles: readonly UserRole[] };

export const PUBLIC: Access = { public: true };
export const AUTHENTICATED: Access = { authenticated: true };
export const roles = (...allowed: UserRole[]): Access => ({ roles: allowed });

/** The authenticated caller of a request. Ids are strings on both databases. */
export interface Caller {
  readonly userId: string;
  readonly userUid: string;
  readonly organizationId: string;
  readonly role: UserRole;
  /** The presented token's row, so that logout can revoke exactly that token. */
  readonly tokenId: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export type TokenResolver = (token: string) => Promise<Caller | null>;

/** The token a request presents: `Authorization: ApiToken <t>` or the legacy `?token=<t>`. */
export function presentedToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.trim() !== '') {
    const match = /^ApiToken\s+(\S+)\s*$/i.exec(header.trim());
    return match ? match[1]! : null;
  }
  const query = request.query as Record<string, unknown> | undefined;
  const token = query?.token;
  return typeof token === 'string' && token !== '' ? token : null;
}

/** The caller of a request whose route already passed the access check. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthenticated();
  return request.caller;
}

export function installAccessControl(app: FastifyInstance, resolveToken: TokenResolver, guardedPrefixes: string[]): void {
  app.decorateRequest('caller', null);

  app.addHook('onRoute', (route) => {
    const guarded = guardedPrefixes.some((prefix) => route.url.startsWith(prefix));
    if (guarded && !route.config?.access) {
      throw new Error(`route ${[route.method].flat().join(',')} ${route.url} declares no access rule (config.access)`);
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || 'public' in access) return;
    const token = presentedToken(request);
    if (!token) throw unauthenticated();
    const caller = await resolveToken(token);
    if (!caller) throw unauthenticated('The token is not valid: it is unknown, expired or revoked.');
    request.caller = caller;
    if ('roles' in access && !access.roles.includes(caller.role)) throw forbidden();
  });
}
