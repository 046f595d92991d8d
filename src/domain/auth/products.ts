import type { OAuthErrorCode } from '../../errors/index.js';

/**
 * The products a service account can be scoped to, and how a token request narrows what the
 * account was configured with (description, "Authentication" > "Machine-to-machine"). Pure: the
 * token service and the service-account operations both use it, and it is table-tested.
 *
 * Scopes are written plain (`read`) or prefixed by the product's uid (`tms:read`): a plain scope
 * applies to every product concerned that supports it, a prefixed one only to its product.
 */
export const PRODUCTS = {
  /** The TMS REST API (`/api2`). */
  tms: { scopes: ['read', 'write'] },
  /** The string resource API (`/v2`). */
  strings: { scopes: ['read', 'write'] },
} as const satisfies Record<string, { scopes: readonly string[] }>;

export type ProductUid = keyof typeof PRODUCTS;
export const PRODUCT_UIDS = Object.keys(PRODUCTS) as ProductUid[];

export function isProduct(uid: string): uid is ProductUid {
  return Object.prototype.hasOwnProperty.call(PRODUCTS, uid);
}

/** What a service account holds for one product. `scopes` may be empty: the product is still in the audience. */
export interface ProductGrant {
  readonly product: ProductUid;
  readonly scopes: readonly string[];
}

export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

const ok = <T>(value: T) => ({ ok: true as const, value });
const fail = <E>(error: E) => ({ ok: false as const, error });

/** `tms:read` -> { product: 'tms', scope: 'read' }; `read` -> { product: null, scope: 'read' }. */
function splitScope(scope: string): { product: string | null; scope: string } {
  const colon = scope.indexOf(':');
  return colon < 0 ? { product: null, scope } : { product: scope.slice(0, colon), scope: scope.slice(colon + 1) };
}

function supports(product: ProductUid, scope: string): boolean {
  return (PRODUCTS[product].scopes as readonly string[]).includes(scope);
}

/** The product's scopes among `requested`, in the catalogue's order. */
function scopesOf(product: ProductUid, requested: readonly string[], only?: readonly string[]): string[] {
  const wanted = new Set<string>();
  for (const entry of requested) {
    const { product: prefix, scope } = splitScope(entry);
    if (prefix === null || prefix === product) wanted.add(scope);
  }
  return PRODUCTS[product].scopes.filter((scope) => wanted.has(scope) && (!only || only.includes(scope)));
}

export interface ConfigurationError {
  readonly field: 'products' | 'scopes';
  readonly message: string;
}

/**
 * The grants of a new service account: per requested product, the requested scopes that product
 * supports (possibly none). Unknown products, and scopes that no requested product supports, are
 * refused rather than dropped: the admin configuring the account should know.
 */
export function configureProducts(products: readonly string[], scopes: readonly string[]): Result<ProductGrant[], ConfigurationError> {
  const uids: ProductUid[] = [];
  for (const uid of products) {
    if (!isProduct(uid))
      return fail({ field: 'products', message: `"${uid}" is not a product; known products: ${PRODUCT_UIDS.join(', ')}` });
    if (!uids.includes(uid)) uids.push(uid);
  }
  if (uids.length === 0) return fail({ field: 'products', message: 'at least one product is needed' });
  for (const entry of scopes) {
    const { product, scope } = splitScope(entry);
    if (product !== null && !uids.includes(product as ProductUid)) {
      return fail({ field: 'scopes', message: `"${entry}" names a product the account is not given` });
    }
    const targets = product === null ? uids : [product as ProductUid];
    if (!targets.some((uid) => supports(uid, scope))) {
      return fail({ field: 'scopes', message: `no requested product supports the scope "${entry}"` });
    }
  }
  return ok(uids.map((product) => ({ product, scopes: scopesOf(product, scopes) })));
}

export interface NarrowedGrant {
  /** Products the token is for (`aud`), including those granted no scope. */
  readonly audience: ProductUid[];
  /** Granted scopes, prefixed by product (`tms:read`). */
  readonly scopes: string[];
}

export interface NarrowingError {
  readonly error: Extract<OAuthErrorCode, 'invalid_target' | 'invalid_scope'>;
  readonly description: string;
}

/**
 * What a client-credentials request gets from the account's `configured` grants:
 * - `resource` (product uids) picks products; one not configured on the account is `invalid_target`
 *   (RFC 8707, section 2). Omitted or empty: every configured product.
 * - `scope` narrows each picked product to requested ∩ configured; a product granting none of the
 *   requested scopes is left out of the token rather than failing the request, unless that leaves
 *   no product at all (`invalid_scope`). Omitted: each product's full configured scope, and a
 *   product configured with no scope still appears in the audience.
 */
export function narrowGrant(
  configured: readonly ProductGrant[],
  resource: readonly string[] | null,
  scope: readonly string[] | null,
): Result<NarrowedGrant, NarrowingError> {
  let targeted: ProductGrant[] = [...configured];
  if (resource && resource.length > 0) {
    const unknown = resource.find((uid) => !configured.some((grant) => grant.product === uid));
    if (unknown !== undefined)
      return fail({ error: 'invalid_target', description: `The account is not configured for the resource "${unknown}".` });
    targeted = configured.filter((grant) => resource.includes(grant.product));
  }
  const audience: ProductUid[] = [];
  const scopes: string[] = [];
  for (const grant of targeted) {
    const granted = scope === null ? [...grant.scopes] : scopesOf(grant.product, scope, grant.scopes);
    if (scope !== null && granted.length === 0) continue;
    audience.push(grant.product);
    scopes.push(...granted.map((s) => `${grant.product}:${s}`));
  }
  if (audience.length === 0) {
    return fail({ error: 'invalid_scope', description: 'None of the requested scopes is granted for any targeted product.' });
  }
  return ok({ audience, scopes });
}

/** The scopes a token grants on one product, without the prefix (`tms:read tms:write` -> ['read', 'write']). */
export function scopesForProduct(scope: string, product: ProductUid): string[] {
  const prefix = `${product}:`;
  return scope
    .split(' ')
    .filter((entry) => entry.startsWith(prefix))
    .map((entry) => entry.slice(prefix.length));
}

/** `"a  b"` -> ['a', 'b']; RFC 6749 scope and RFC 8707-style resource lists are space-separated. */
export function spaceSeparated(value: string): string[] {
  return [...new Set(value.split(' ').filter((entry) => entry !== ''))];
}
