/**
 * The token service family: errors of `POST /idm/oauth/token` take the form RFC 6749 (section
 * 5.2) prescribes rather than the TMS body, `{"error": "...", "error_description": "..."}`, since
 * OAuth client libraries read `error`. The description is phrased where the error is raised
 * (it names the parameter at fault). Raise them with `oauthErrors.<code>(description)`.
 */
interface OAuthErrorDefinition {
  readonly status: 400 | 401 | 500;
  readonly headers?: Readonly<Record<string, string>>;
}

export const OAUTH_ERRORS = {
  /** A missing, repeated or unsupported parameter, a body that is not a form, or any refusal of the HTTP layer (which keeps its own status: 413, 415, 429). */
  invalid_request: { status: 400 },
  /** Client authentication failed or is missing; RFC 6749: 401 with WWW-Authenticate, as a client may have tried HTTP Basic. */
  invalid_client: { status: 401, headers: { 'www-authenticate': 'Basic realm="opentms"' } },
  /** The subject_token of a token exchange is not a live API token of a usable user. */
  invalid_grant: { status: 400 },
  /** A grant_type other than token exchange and client credentials. */
  unsupported_grant_type: { status: 400 },
  /** Requested scopes of which none is granted for any targeted product. */
  invalid_scope: { status: 400 },
  /** RFC 8707, section 2: a `resource` the service account is not configured for. */
  invalid_target: { status: 400 },
  /** Anything unexpected; logged, never explained. */
  server_error: { status: 500 },
} as const satisfies Record<string, OAuthErrorDefinition>;

export type OAuthErrorCode = keyof typeof OAUTH_ERRORS;

export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly statusCode: number;
  readonly headers: Record<string, string>;

  /**
   * `httpStatus` is for invalid_request only: a request the HTTP layer refused (a body over the
   * limit, a rate limit) keeps that status, with the RFC 6749 body.
   */
  constructor(error: OAuthErrorCode, description: string, httpStatus?: number) {
    super(description);
    const definition: OAuthErrorDefinition = OAUTH_ERRORS[error];
    this.error = error;
    this.statusCode = error === 'invalid_request' && httpStatus !== undefined ? httpStatus : definition.status;
    this.headers = { ...definition.headers };
  }

  get body() {
    return { error: this.error, error_description: this.message };
  }
}

/** One function per code: `throw oauthErrors.invalid_grant('The subject_token is not ...')`. */
export const oauthErrors = Object.freeze(
  Object.fromEntries(
    Object.keys(OAUTH_ERRORS).map((code) => [code, (description: string) => new OAuthError(code as OAuthErrorCode, description)]),
  ),
) as { readonly [C in OAuthErrorCode]: (description: string) => OAuthError };

/** A token request the HTTP layer refused (a body over the limit, a rate limit): invalid_request with the refusal's own status. */
export function oauthRefusal(httpStatus: number, description: string): OAuthError {
  return new OAuthError('invalid_request', description, httpStatus);
}
