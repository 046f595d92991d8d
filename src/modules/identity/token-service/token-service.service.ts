import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { PRODUCTS, PRODUCT_UIDS, narrowGrant, spaceSeparated } from '../../../domain/auth/products.js';
import { findLiveApiToken, looksLikeApiToken, touchApiToken } from '../credentials/index.js';
import { verifyClientSecret } from '../service-accounts/index.js';
import { findServiceAccountByClientId, productsOf } from '../service-accounts/index.js';
import { findUserById } from '../users/index.js';
import type { UserRow } from '../users/index.js';
import { issueAccessToken } from './access-tokens.js';
import { oauthErrors } from '../../../errors/index.js';
import { organizationUid } from './token-sources.repository.js';

/**
 * The two grants of `POST /idm/oauth/token` (description, "Authentication"): RFC 8693 token
 * exchange of a personal API token, and OAuth 2.0 client credentials of a service account.
 */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const CLIENT_CREDENTIALS_GRANT = 'client_credentials';
export const API_TOKEN_TYPE = 'urn:service:params:oauth:token-type:api_token';
export const ACCESS_TOKEN_TYPE_URN = 'urn:ietf:params:oauth:token-type:access_token';

/** RFC 8693 parameters the description says are not supported. */
const UNSUPPORTED_EXCHANGE_PARAMETERS = ['actor_token', 'actor_token_type', 'audience', 'resource', 'scope'];

/** The form of a token request, each parameter at most once (the parser refuses repeats). */
export type TokenForm = ReadonlyMap<string, string>;

/** RFC 6749, section 3.2: "Parameters sent without a value MUST be treated as if they were omitted." */
function param(form: TokenForm, name: string): string | undefined {
  const value = form.get(name);
  return value === undefined || value === '' ? undefined : value;
}

function usable(user: UserRow | undefined): user is UserRow {
  return !!user && bool(user.active) && !user.deletedAt;
}

export type TokenResponse = Record<string, string | number>;

export async function tokenRequest(deps: AppDeps, form: TokenForm, authorization: string | undefined): Promise<TokenResponse> {
  const grantType = param(form, 'grant_type');
  if (!grantType) throw oauthErrors.invalid_request('The parameter "grant_type" is required.');
  if (grantType === TOKEN_EXCHANGE_GRANT) return tokenExchange(deps, form);
  if (grantType === CLIENT_CREDENTIALS_GRANT) return clientCredentials(deps, form, authorization);
  throw oauthErrors.unsupported_grant_type(
    `The grant type "${grantType}" is not supported; use "${TOKEN_EXCHANGE_GRANT}" or "${CLIENT_CREDENTIALS_GRANT}".`,
  );
}

/** Every scope of every product: an exchanged token acts with the user's own rights everywhere. */
const ALL_SCOPES = PRODUCT_UIDS.flatMap((product) => PRODUCTS[product].scopes.map((scope) => `${product}:${scope}`)).join(' ');

async function tokenExchange(deps: AppDeps, form: TokenForm): Promise<TokenResponse> {
  for (const name of UNSUPPORTED_EXCHANGE_PARAMETERS) {
    if (param(form, name) !== undefined) throw oauthErrors.invalid_request(`The parameter "${name}" is not supported.`);
  }
  const subjectToken = param(form, 'subject_token');
  if (!subjectToken) throw oauthErrors.invalid_request('The parameter "subject_token" is required.');
  const subjectType = param(form, 'subject_token_type');
  if (subjectType !== undefined && subjectType !== API_TOKEN_TYPE) {
    throw oauthErrors.invalid_request(`The subject_token_type "${subjectType}" is not supported; use "${API_TOKEN_TYPE}".`);
  }
  const requestedType = param(form, 'requested_token_type');
  if (requestedType !== undefined && requestedType !== ACCESS_TOKEN_TYPE_URN) {
    throw oauthErrors.invalid_request(`The requested_token_type "${requestedType}" is not supported; use "${ACCESS_TOKEN_TYPE_URN}".`);
  }

  const db = deps.database.db;
  const now = deps.clock();
  const row = looksLikeApiToken(subjectToken) ? await findLiveApiToken(db, subjectToken, now) : undefined;
  const user = row && (await findUserById(db, row.organizationId, row.userId));
  if (!row || !usable(user)) throw oauthErrors.invalid_grant('The subject_token is not a valid API token (unknown, revoked or expired).');
  await touchApiToken(db, row, now);

  const { token, expiresIn } = await issueAccessToken(deps, {
    subject: user.uid,
    organizationUid: await organizationUid(db, user.organizationId),
    audience: PRODUCT_UIDS,
    scope: ALL_SCOPES,
    source: { kind: 'api_token', id: row.id },
    notAfter: row.expiresAt ? new Date(row.expiresAt) : null,
  });
  return { access_token: token, issued_token_type: ACCESS_TOKEN_TYPE_URN, token_type: 'Bearer', expires_in: expiresIn };
}

/** `client_id:client_secret` of `Authorization: Basic`, each form-urlencoded first (RFC 6749, section 2.3.1). */
function basicCredentials(authorization: string | undefined): { clientId: string; clientSecret: string } | null {
  const match = authorization === undefined ? null : /^Basic\s+(\S+)\s*$/i.exec(authorization.trim());
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw oauthErrors.invalid_client('The Basic credentials are malformed.');
    }
  };
  if (colon < 0) throw oauthErrors.invalid_client('The Basic credentials are malformed.');
  return { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)) };
}

/**
 * The client's credentials: in the form, or as HTTP Basic, never both (RFC 6749, section 2.3:
 * "MUST NOT use more than one authentication method in each request"). A `client_id` in the form
 * beside Basic is tolerated when it names the same client, as several client libraries send it.
 */
function clientCredentialsOf(form: TokenForm, authorization: string | undefined): { clientId: string; clientSecret: string } {
  const basic = basicCredentials(authorization);
  const formId = param(form, 'client_id');
  const formSecret = param(form, 'client_secret');
  if (basic) {
    if (formSecret !== undefined || (formId !== undefined && formId !== basic.clientId)) {
      throw oauthErrors.invalid_request('Send the client credentials either in the form or as HTTP Basic authentication, not both.');
    }
    return basic;
  }
  if (formId === undefined || formSecret === undefined) {
    throw oauthErrors.invalid_client('Client authentication is missing: send client_id and client_secret.');
  }
  return { clientId: formId, clientSecret: formSecret };
}

async function clientCredentials(deps: AppDeps, form: TokenForm, authorization: string | undefined): Promise<TokenResponse> {
  const { clientId, clientSecret } = clientCredentialsOf(form, authorization);
  const db = deps.database.db;
  const account = await findServiceAccountByClientId(db, clientId);
  const secretOk = verifyClientSecret(clientSecret, account?.clientSecretHash ?? '');
  const botUser = account && secretOk ? await findUserById(db, account.organizationId, account.botUserId) : undefined;
  if (!account || !secretOk || !usable(botUser)) throw oauthErrors.invalid_client('Client authentication failed.');

  const resource = param(form, 'resource');
  const scope = param(form, 'scope');
  const narrowed = narrowGrant(productsOf(account), resource ? spaceSeparated(resource) : null, scope ? spaceSeparated(scope) : null);
  if (!narrowed.ok) throw oauthErrors[narrowed.error.error](narrowed.error.description);

  const grantedScope = narrowed.value.scopes.join(' ');
  const { token, expiresIn } = await issueAccessToken(deps, {
    subject: botUser.uid,
    organizationUid: await organizationUid(db, account.organizationId),
    audience: narrowed.value.audience,
    scope: grantedScope,
    source: { kind: 'service_account', id: account.id },
    clientId: account.clientId,
  });
  return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: grantedScope };
}
