import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { parseRoleSettings } from '../../../domain/users/role-settings.js';
import type { Caller, CredentialKind } from '../../../http/access.js';
import { findLiveApiToken, looksLikeApiToken, touchApiToken } from '../credentials/index.js';
import { verifyAccessToken } from '../token-service/index.js';
import { findUserById, findUserByIdAnyOrganization } from '../users/index.js';
import type { UserRow } from '../users/index.js';
import { findLiveLoginToken } from '../credentials/index.js';

export const SESSION_COOKIE = 'OPENTMS_SESSION';

/** A presented credential, before it is checked. */
export type PresentedCredential = { source: 'header' | 'query'; token: string } | { source: 'cookie'; token: string };

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/** The token in `Authorization: ApiToken <t>` or `Authorization: Bearer <t>`; undefined when absent, null when malformed. */
export function headerToken(request: FastifyRequest): string | null | undefined {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') return undefined;
  const match = /^(ApiToken|Bearer)\s+(\S+)\s*$/i.exec(header.trim());
  return match ? match[2]! : null;
}

export function queryToken(request: FastifyRequest): string | undefined {
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/**
 * What the request presents, in order of precedence: the Authorization header, the legacy
 * `?token=` query parameter, the session cookie. A malformed Authorization header is not
 * skipped over: it gets a 401 even when a cookie is present.
 */
export function presentedCredential(request: FastifyRequest): PresentedCredential | null {
  const fromHeader = headerToken(request);
  if (fromHeader === null) return null;
  if (fromHeader) return { source: 'header', token: fromHeader };
  const fromQuery = queryToken(request);
  if (fromQuery) return { source: 'query', token: fromQuery };
  const fromCookie = cookieValue(request.headers.cookie, SESSION_COOKIE);
  return fromCookie ? { source: 'cookie', token: fromCookie } : null;
}

function usable(user: UserRow | undefined, issuedAt: string | null): user is UserRow {
  if (!user || !bool(user.active) || user.deletedAt) return false;
  // "Invalidate all sessions" refuses every token issued before it.
  return !(issuedAt && user.sessionsInvalidatedAt && issuedAt < user.sessionsInvalidatedAt);
}

function toCaller(
  user: UserRow,
  credential: { kind: CredentialKind; id: string },
  extra: { scopes?: readonly string[] | null; impersonatorId?: string | null; csrfTokenHash?: string | null } = {},
): Caller {
  return {
    userId: user.id,
    userUid: user.uid,
    userName: user.userName,
    organizationId: user.organizationId,
    role: user.role,
    isBot: bool(user.isBot),
    settings: parseRoleSettings(user.role, user.roleSettings),
    credential,
    scopes: extra.scopes ?? null,
    impersonatorId: extra.impersonatorId ?? null,
    csrfTokenHash: extra.csrfTokenHash ?? null,
  };
}

/** Resolves any presented credential to the caller it stands for, or null. */
export function createAuthenticator(deps: AppDeps) {
  const db = deps.database.db;
  return async (request: FastifyRequest): Promise<Caller | null> => {
    const presented = presentedCredential(request);
    if (!presented) return null;
    const now = deps.clock();

    if (presented.source === 'cookie') {
      const session = await findLiveLoginToken(db, presented.token, 'session', now);
      if (!session) return null;
      const user = await findUserById(db, session.organizationId, session.userId);
      if (!usable(user, session.createdAt)) return null;
      return toCaller(user, { kind: 'session', id: session.id }, { csrfTokenHash: session.csrfTokenHash });
    }

    const token = presented.token;
    if (JWT_SHAPE.test(token)) {
      const verified = await verifyAccessToken(deps, token);
      if (!verified) return null;
      const user = await findUserByIdAnyOrganization(db, verified.userId);
      if (!usable(user, null)) return null;
      return toCaller(user, { kind: 'jwt', id: verified.credentialId }, { scopes: verified.scopes });
    }

    if (looksLikeApiToken(token)) {
      const row = await findLiveApiToken(db, token, now);
      if (!row) return null;
      const user = await findUserById(db, row.organizationId, row.userId);
      if (!usable(user, null)) return null;
      await touchApiToken(db, row, now);
      return toCaller(user, { kind: 'api_token', id: row.id });
    }

    const login = await findLiveLoginToken(db, token, 'login', now);
    if (!login) return null;
    const user = await findUserById(db, login.organizationId, login.userId);
    if (!usable(user, login.createdAt)) return null;
    return toCaller(user, { kind: 'login', id: login.id }, { impersonatorId: login.impersonatorId === null ? null : login.impersonatorId });
  };
}
