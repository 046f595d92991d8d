import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { ApiError } from '../../../errors/index.js';
import { findProvider, hasProviderKey, providerKeyMissing, providerNotFound } from '../kernel/index.js';
import type { ProviderKey, ResolvedProvider } from '../kernel/index.js';

/** A provider named in a request: `{type: USER|VENDOR, id | uid}` (spec ProviderReference). */
export type ProviderRef = ProviderKey;
export type { ResolvedProvider };

/**
 * The providers `refs` name, in order without repeats (findProvider decides who qualifies), and
 * the refs that name nobody, so that bulk edit can report them job by job.
 */
export async function resolveProviders(
  db: Kysely<DB>,
  organizationId: string,
  refs: readonly ProviderRef[],
): Promise<{ resolved: ResolvedProvider[]; unknown: ProviderRef[] }> {
  const resolved: ResolvedProvider[] = [];
  const unknown: ProviderRef[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    const provider = await findProvider(db, organizationId, ref);
    if (!provider) {
      unknown.push(ref);
      continue;
    }
    const key = `${provider.userId}:${provider.vendorId}`;
    if (!seen.has(key)) resolved.push(provider);
    seen.add(key);
  }
  return { resolved, unknown };
}

/** 400 naming the first of `refs` (providers that are not users or vendors of the organization, or name neither id nor uid). */
export function unknownProviders(refs: readonly ProviderRef[], field: string): ApiError {
  const [first] = refs;
  return first && hasProviderKey(first) ? providerNotFound(field, first) : providerKeyMissing(field);
}
