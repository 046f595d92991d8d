import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { parseRoleSettings } from '../../../domain/users/role-settings.js';
import type { Caller, CredentialKind } from '../../../http/access.js';
import { findLiveApiToken, looksLikeApiToken, touchApiToken } from '../credentials/index.js';
import { verifyAccessToken } from '../token-service/index.js';
import { findUserById, findUserByIdAnyOrganization } from '../users/index.js';
import type { UserRow } from '../users/index.js';
import { API_TOKEN_TOUCH_MS, findLiveLoginToken } from '../credentials/index.js';
import type { CredentialCache } from './credential-cache.js';

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

/** A verified credential: the caller, when the credential stops being valid, and (API tokens) the row to touch. */
interface Verified {
  readonly caller: Caller;
  readonly expiresAt: number | null;
  readonly apiToken?: { readonly id: string; readonly lastUsedAt: string | null };
}

const expiry = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/**
 * Resolves any presented credential to the caller it stands for, or null. Verified credentials are
 * kept in `cache` (credential-cache.ts) until anything they stand for changes; a personal API
 * token's `lastUsedAt` is still written about once a minute while it is served from the cache.
 */
export function createAuthenticator(deps: AppDeps, cache: CredentialCache | null = null) {
  const db = deps.database.db;

  async function verify(presented: PresentedCredential, now: Date): Promise<Verified | null> {
    if (presented.source === 'cookie') {
      const session = await findLiveLoginToken(db, presented.token, 'session', now);
      if (!session) return null;
      const user = await findUserById(db, session.organizationId, session.userId);
      if (!usable(user, session.createdAt)) return null;
      return {
        caller: toCaller(user, { kind: 'session', id: session.id }, { csrfTokenHash: session.csrfTokenHash }),
        expiresAt: expiry(session.expiresAt),
      };
    }

    const token = presented.token;
    if (JWT_SHAPE.test(token)) {
      const verified = await verifyAccessToken(deps, token);
      if (!verified) return null;
      const user = await findUserByIdAnyOrganization(db, verified.userId);
      if (!usable(user, null)) return null;
      return {
        caller: toCaller(user, { kind: 'jwt', id: verified.credentialId }, { scopes: verified.scopes }),
        expiresAt: verified.expiresAt,
      };
    }

    if (looksLikeApiToken(token)) {
      const row = await findLiveApiToken(db, token, now);
      if (!row) return null;
      const user = await findUserById(db, row.organizationId, row.userId);
      if (!usable(user, null)) return null;
      await touchApiToken(db, row, now);
      return {
        caller: toCaller(user, { kind: 'api_token', id: row.id }),
        expiresAt: expiry(row.expiresAt),
        apiToken: { id: row.id, lastUsedAt: now.toISOString() },
      };
    }

    const login = await findLiveLoginToken(db, token, 'login', now);
    if (!login) return null;
    const user = await findUserById(db, login.organizationId, login.userId);
    if (!usable(user, login.createdAt)) return null;
    return {
      caller: toCaller(
        user,
        { kind: 'login', id: login.id },
        { impersonatorId: login.impersonatorId === null ? null : login.impersonatorId },
      ),
      expiresAt: expiry(login.expiresAt),
    };
  }

  return async (request: FastifyRequest): Promise<Caller | null> => {
    const presented = presentedCredential(request);
    if (!presented) return null;
    const now = deps.clock();
    if (!cache) return (await verify(presented, now))?.caller ?? null;

    const key = `${presented.source === 'cookie' ? 'session' : 'token'}:${presented.token}`;
    const cached = cache.get(key, now.getTime());
    if (cached) {
      if (cached.touched && now.getTime() - cached.touched.at >= API_TOKEN_TOUCH_MS) {
        const previous = new Date(cached.touched.at).toISOString();
        cached.touched.at = now.getTime();
        await touchApiToken(db, { id: cached.touched.tokenId, lastUsedAt: previous }, now);
      }
      return cached.caller;
    }
    const generation = cache.generation;
    const verified = await verify(presented, now);
    if (!verified) return null;
    cache.set(
      key,
      { caller: verified.caller, ...(verified.apiToken ? { touched: { tokenId: verified.apiToken.id, at: now.getTime() } } : {}) },
      generation,
      now.getTime(),
      verified.expiresAt,
    );
    return verified.caller;
  };
}
