import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRole } from '../db/schema.js';
import { hasRight } from '../domain/users/role-settings.js';
import type { ProjectManagerRight, RoleSettings } from '../domain/users/role-settings.js';
import { errors } from '../errors/index.js';
import type { ApiError } from '../errors/index.js';

/**
 * Who may call a route. Every route of the API surfaces declares one in `config.access`; a
 * route without it makes the app refuse to start, so nothing is reachable by accident. The
 * shared access matrix (test/access-matrix.test.ts) reads these declarations and calls every
 * route with every kind of caller.
 *
 * - `public`: no token needed (login, health, documentation, SCIM discovery);
 * - `roles`: the caller's role must be listed (omitted = any role);
 * - `right`: project managers must also hold this right (ADMIN holds every right);
 * - `humansOnly`: bot users of service accounts are refused (they cannot manage human users).
 *
 * - `record`: the route addresses a record (a project, a job, a project template) named by its path
 *   parameters, and needs a permission on it; the module that owns such records enforces it (for
 *   the translation workflow: its kernel, src/modules/translation-workflow/kernel/access/), and the
 *   access matrix tests it for callers related to the record and not.
 */
export interface Access {
  readonly public?: true;
  readonly roles?: readonly UserRole[];
  readonly right?: ProjectManagerRight;
  readonly humansOnly?: boolean;
  readonly record?: RecordRule;
}

/** A route's record-level rule: the record kind, the permission it needs, and the path parameters naming it. */
export interface RecordRule {
  readonly kind: string;
  readonly need: string;
  /** Role of each path parameter (`project`, `job`, `template`) -> its name in the route's path. */
  readonly params: Readonly<Record<string, string>>;
  /** The record may be deleted (in the recycle bin): purging and restoring projects. */
  readonly includeDeleted?: boolean;
  /** A second record the path names, checked after the first (a template applied to a project). */
  readonly also?: RecordRule;
}

export const PUBLIC: Access = { public: true };
/** Any authenticated user of any role except SYS_ADMIN, which has no organization work. */
export const AUTHENTICATED: Access = { roles: ['ADMIN', 'PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER'] };
/** Every role, SYS_ADMIN included: for operations on the caller's own account (whoAmI, profile). */
export const ANY_ROLE: Access = { roles: ['SYS_ADMIN', 'ADMIN', 'PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER'] };
export const roles = (...allowed: UserRole[]): Access => ({ roles: allowed });

export type CredentialKind = 'login' | 'session' | 'api_token' | 'jwt';

/** The authenticated caller of a request. Ids are strings on both databases. */
export interface Caller {
  readonly userId: string;
  readonly userUid: string;
  readonly userName: string;
  readonly organizationId: string;
  readonly role: UserRole;
  readonly isBot: boolean;
  readonly settings: RoleSettings | null;
  /** What the request presented: a login token, a browser session, a personal API token or a JWT. */
  readonly credential: { readonly kind: CredentialKind; readonly id: string };
  /** Scopes a JWT grants on this product (`read`, `write`); null when the credential is unrestricted. */
  readonly scopes: readonly string[] | null;
  /** The ADMIN acting as this user through "login as another user". */
  readonly impersonatorId: string | null;
  /** Sessions only: SHA-256 of the CSRF token that unsafe requests must echo. */
  readonly csrfTokenHash: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** Finds the caller a request's credentials stand for; null when it presents none that are valid. */
export type Authenticator = (request: FastifyRequest) => Promise<Caller | null>;

/** The caller of a request whose route already passed the access check. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw errors.AuthUnauthorized();
  return request.caller;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-csrf-token';

function csrfMatches(request: FastifyRequest, expectedHash: string | null): boolean {
  const given = request.headers[CSRF_HEADER];
  if (typeof given !== 'string' || !expectedHash) return false;
  const actual = createHash('sha256').update(given).digest();
  const expected = Buffer.from(expectedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The 403 a cookie-authenticated unsafe request gets without its session's CSRF token, or null. */
export function csrfRejection(request: FastifyRequest, caller: Caller): ApiError | null {
  if (caller.credential.kind !== 'session' || SAFE_METHODS.has(request.method) || csrfMatches(request, caller.csrfTokenHash)) return null;
  return errors.CsrfTokenInvalid({ header: CSRF_HEADER });
}

/** Whether `caller` satisfies `access` (roles, rights, bots); the matrix test uses the same rule. */
export function allows(access: Access, caller: Caller): boolean {
  if (access.public) return true;
  if (access.roles && !access.roles.includes(caller.role)) return false;
  if (access.right && caller.role === 'PROJECT_MANAGER' && !hasRight(caller.role, caller.settings, access.right)) return false;
  if (access.humansOnly && caller.isBot) return false;
  return true;
}

export function installAccessControl(app: FastifyInstance, authenticate: Authenticator, guardedPrefixes: string[]): void {
  app.decorateRequest('caller', null);

  app.addHook('onRoute', (route) => {
    const guarded = guardedPrefixes.some((prefix) => route.url.startsWith(prefix));
    if (guarded && !route.config?.access) {
      throw new Error(`route ${[route.method].flat().join(',')} ${route.url} declares no access rule (config.access)`);
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || access.public) return;
    const caller = await authenticate(request);
    if (!caller) throw errors.AuthUnauthorized();
    request.caller = caller;
    const unsafe = !SAFE_METHODS.has(request.method);
    // A browser session's cookie is sent by the browser on its own; the CSRF header proves the
    // request was made by the page that logged in.
    const csrf = csrfRejection(request, caller);
    if (csrf) throw csrf;
    if (caller.scopes && !caller.scopes.includes(unsafe ? 'write' : 'read')) {
      throw errors.InsufficientScope({ scope: unsafe ? 'write' : 'read' });
    }
    if (!allows(access, caller)) throw errors.AccessDenied();
  });
}
