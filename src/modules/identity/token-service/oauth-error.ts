/**
 * Errors of the token endpoint, in the form RFC 6749 (section 5.2) prescribes rather than the TMS
 * error body: `{"error": "...", "error_description": "..."}`. OAuth client libraries read `error`.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  /** RFC 8707, section 2: a `resource` the client may not get a token for. */
  | 'invalid_target'
  | 'server_error';

export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly statusCode: number;
  /** Set for invalid_client when the client tried HTTP Basic (RFC 6749: then 401 with WWW-Authenticate). */
  readonly headers: Record<string, string>;

  constructor(error: OAuthErrorCode, description: string, statusCode?: number) {
    super(description);
    this.error = error;
    // RFC 6749, section 5.2: 400, except invalid_client, which may (and with Basic must) be 401.
    this.statusCode = statusCode ?? (error === 'invalid_client' ? 401 : error === 'server_error' ? 500 : 400);
    this.headers = error === 'invalid_client' ? { 'www-authenticate': 'Basic realm="opentms"' } : {};
  }

  get body() {
    return { error: this.error, error_description: this.message };
  }
}

export const invalidRequest = (description: string) => new OAuthError('invalid_request', description);
