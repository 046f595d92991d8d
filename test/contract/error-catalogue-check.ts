/**
 * The error catalogue check: the test harness calls it after every `inject`, so every test that
 * provokes an error also checks that
 *  - a TMS error under /api2 (and /web/api2) carries an `errorCode` of the catalogue
 *    (src/errors/catalogue.ts), with the status the catalogue gives that code;
 *  - a SCIM error (under /api2/v1/scim) is a status and scimType the SCIM family or a TMS code
 *    mapped to SCIM can produce;
 *  - a 4xx status is one the OpenAPI document (/api2/openapi.json) lists for the operation.
 *
 * What matches no operation (an unknown path: 404, a known path with another method: 405, a path
 * the router refuses) is not an operation's error, and only its code is checked. 5xx statuses are
 * not listed per operation.
 */
import FindMyWay from 'find-my-way';
import { SCIM_ERRORS, SCIM_TYPE_OF_TMS_CODE, TMS_ERRORS, isErrorCode } from '../../src/errors/index.js';
import type { ErrorCode } from '../../src/errors/index.js';

export interface ObservedError {
  method: string;
  url: string;
  statusCode: number;
  body: string;
}

/** What the check reads of the OpenAPI document: `paths`, each operation's `responses`. */
export interface OpenApiPaths {
  paths?: object;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

interface Operation {
  method: string;
  path: string;
  statuses: ReadonlySet<string>;
}

/** Every (status, scimType) a SCIM route can answer: the SCIM family's own, and the TMS codes as SCIM renders them. */
const SCIM_ANSWERS = new Set([
  ...Object.values(SCIM_ERRORS).map((e) => `${e.status} ${e.scimType ?? '-'}`),
  ...(Object.keys(TMS_ERRORS) as ErrorCode[]).map((code) => `${TMS_ERRORS[code].status} ${SCIM_TYPE_OF_TMS_CODE[code] ?? '-'}`),
]);

function parse(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function createErrorCatalogueCheck(document: OpenApiPaths) {
  // The same limits as the app's router (src/app.ts), so that what it refuses matches nothing here either.
  const router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 500 });
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    if (!path.startsWith('/api2/')) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const responses = (operation as { responses?: Record<string, unknown> }).responses ?? {};
      const store: Operation = { method: method.toUpperCase(), path, statuses: new Set(Object.keys(responses)) };
      const pattern = path.replace(/\{([^}]+)\}/g, ':$1');
      router.on(store.method as FindMyWay.HTTPMethod, pattern, () => undefined, store);
      router.on(store.method as FindMyWay.HTTPMethod, `/web${pattern}`, () => undefined, store);
    }
  }

  function operationOf(method: string, path: string): Operation | undefined {
    try {
      return router.find(method as FindMyWay.HTTPMethod, path)?.store as Operation | undefined;
    } catch {
      return undefined; // a path the router cannot even decode
    }
  }

  return {
    /** Violations, as one-line messages; [] when the response is fine or not an error under /api2. */
    check(response: ObservedError): string[] {
      const method = response.method.toUpperCase();
      const path = response.url.split('?')[0] ?? response.url;
      const status = response.statusCode;
      if (status < 400 || method === 'HEAD' || !/^\/(web\/)?api2\//.test(path)) return [];
      const where = `${method} ${path} ${status}`;
      const problems: string[] = [];
      const body = parse(response.body);
      if (/^\/(web\/)?api2\/v1\/scim\//.test(path)) {
        const scimType = typeof body?.scimType === 'string' ? body.scimType : '-';
        if (!SCIM_ANSWERS.has(`${status} ${scimType}`))
          problems.push(`status ${status} with scimType ${scimType} is no error of the SCIM family (src/errors/scim-errors.ts)`);
      } else {
        const code = body?.errorCode;
        if (typeof code !== 'string' || !isErrorCode(code)) {
          problems.push(`errorCode ${JSON.stringify(code)} is not in the error catalogue (src/errors/catalogue.ts)`);
        } else if (TMS_ERRORS[code].status !== status) {
          problems.push(`errorCode ${code} has the status ${TMS_ERRORS[code].status} in the catalogue, not ${status}`);
        }
      }
      const operation = operationOf(method, path);
      if (operation && status < 500 && !operation.statuses.has(String(status))) {
        problems.push(
          `the OpenAPI document does not list ${status} for ${operation.method} ${operation.path} ` +
            `(it lists ${[...operation.statuses].join(', ')}); declare the code in the route's config.errors (src/http/error-responses.ts)`,
        );
      }
      return problems.map((problem) => `${where}: ${problem}`);
    },
  };
}
