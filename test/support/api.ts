import { newUid } from '../../src/db/ids.js';
import type { TestApp } from '../harness.js';

/** Request headers, e.g. `apiToken(token)` from test/factories.ts. */
export type Headers = Record<string, string>;
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A caller of the API under `base` (default `/api2/v1/`): `api('GET', 'clients', headers)`.
 * The JSON body is sent only when given; responses go through the harness's contract check.
 */
export function apiCaller(t: TestApp, base = '/api2/v1/') {
  return (method: Method, url: string, headers: Headers, payload?: unknown) =>
    t.inject({ method, url: `${base}${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

/** A name no other test uses: `prefix` plus 8 random characters. */
export const uniqueName = (prefix: string) => `${prefix} ${newUid().slice(0, 8)}`;
