import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { errors } from '../../../errors/index.js';
import type { NotifyProviderInput, ProviderInput } from './jobs.schemas.js';

/**
 * Providers of jobs, as request bodies name them (`{type: USER|VENDOR, id|uid}`), resolved to
 * rows of the organization. A USER provider is an active user of the organization who can work
 * on jobs (LINGUIST, PROJECT_MANAGER or ADMIN: Phrase lets managers take jobs themselves); a
 * VENDOR provider is a vendor the organization is linked to as a buyer.
 */
export type ResolvedProvider = { userId: string; vendorId: null } | { userId: null; vendorId: string };

export const PROVIDER_ROLES = ['LINGUIST', 'PROJECT_MANAGER', 'ADMIN'] as const;

/** 400 for a provider that names nobody findProvider accepts (`input` names it by uid, or else by id). */
export const providerNotFound = (field: string, input: ProviderKey) =>
  errors.ReferenceNotFound({
    what: input.type === 'USER' ? 'user who can take jobs' : 'vendor',
    key: input.uid ? input.uid : String(input.id),
    keyName: input.uid ? 'uid' : 'id',
    field,
  });

/** 400 for a provider named by neither its id nor its uid. */
export const providerKeyMissing = (field: string) =>
  errors.InvalidArguments({
    reason: `${field}: a provider needs its numeric id or its uid.`,
    details: [{ field, message: 'needs id or uid' }],
  });

/** Whether `input` names a provider by id or uid at all. */
export const hasProviderKey = (input: ProviderKey): boolean =>
  Boolean(input.uid) || (input.id !== undefined && input.id !== null && String(input.id) !== '');

/** A provider as bodies name it; `id` may carry the numeric id or (as some clients send) the uid. */
export interface ProviderKey {
  type: 'USER' | 'VENDOR';
  id?: string | number | null | undefined;
  uid?: string | null | undefined;
}

/**
 * The provider `input` names, or null when the organization has no such user who can take jobs
 * (active, not deleted, one of PROVIDER_ROLES) or no such vendor. The one lookup behind every
 * provider a request names: jobs, templates, clone and bulk edit.
 */
export async function findProvider(db: Kysely<DB>, organizationId: string, input: ProviderKey): Promise<ResolvedProvider | null> {
  const key = input.uid ?? (input.id === null || input.id === undefined ? null : String(input.id));
  if (!key) return null;
  const numeric = /^\d{1,18}$/.test(key);
  if (input.type === 'USER') {
    const user = await db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb.or([eb('uid', '=', key), ...(numeric ? [eb('id', '=', key)] : [])]))
      .where('organizationId', '=', organizationId)
      .where('deletedAt', 'is', null)
      .where('active', '=', true)
      .where('role', 'in', [...PROVIDER_ROLES])
      .executeTakeFirst();
    return user ? { userId: user.id, vendorId: null } : null;
  }
  const vendor = await db
    .selectFrom('vendors')
    .select('id')
    .where((eb) => eb.or([eb('uid', '=', key), ...(numeric ? [eb('id', '=', key)] : [])]))
    .where('buyerOrganizationId', '=', organizationId)
    .executeTakeFirst();
  return vendor ? { userId: null, vendorId: vendor.id } : null;
}

async function resolveOne(db: Kysely<DB>, organizationId: string, field: string, input: ProviderInput): Promise<ResolvedProvider> {
  if (!hasProviderKey(input)) throw providerKeyMissing(field);
  const provider = await findProvider(db, organizationId, input);
  if (!provider) throw providerNotFound(field, input);
  return provider;
}

/** The providers `inputs` name, without repeats, in the order given; 400 naming `field` for an unknown one. */
export async function resolveProviders(
  db: Kysely<DB>,
  organizationId: string,
  field: string,
  inputs: readonly ProviderInput[] | null | undefined,
): Promise<ResolvedProvider[]> {
  const result: ResolvedProvider[] = [];
  const seen = new Set<string>();
  for (const [i, input] of (inputs ?? []).entries()) {
    const provider = await resolveOne(db, organizationId, `${field}[${i}]`, input);
    const key = provider.userId !== null ? `u${provider.userId}` : `v${provider.vendorId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(provider);
  }
  return result;
}

/** `NotifyProviderDto` checked (the e-mail template must be the organization's) and normalized for storage. */
export async function resolveNotifyProvider(
  db: Kysely<DB>,
  organizationId: string,
  field: string,
  input: NotifyProviderInput | null | undefined,
): Promise<string | null> {
  if (!input) return null;
  const id = String(input.organizationEmailTemplate.id);
  const template = /^[0-9]{1,18}$/.test(id)
    ? await db
        .selectFrom('emailTemplates')
        .select('id')
        .where('id', '=', id)
        .where('organizationId', '=', organizationId)
        .executeTakeFirst()
    : undefined;
  if (!template) {
    throw errors.ReferenceNotFound({ what: 'e-mail template', key: id, keyName: 'id', field: `${field}.organizationEmailTemplate` });
  }
  const interval = input.notificationIntervalInMinutes;
  return JSON.stringify({
    organizationEmailTemplate: { id },
    notificationIntervalInMinutes: interval === undefined || interval === null ? null : Number(interval),
  });
}

/** Replaces the providers of `jobId` with `providers`. */
export async function replaceJobProviders(trx: Kysely<DB>, jobId: string, providers: readonly ResolvedProvider[]): Promise<void> {
  await trx.deleteFrom('jobProviders').where('jobId', '=', jobId).execute();
  if (providers.length)
    await trx
      .insertInto('jobProviders')
      .values(providers.map((p) => ({ jobId, userId: p.userId, vendorId: p.vendorId })))
      .execute();
}

/** Stable comparison key of a provider set. */
export function providerSetKey(providers: readonly ResolvedProvider[]): string {
  return providers
    .map((p) => (p.userId !== null ? `u${p.userId}` : `v${p.vendorId}`))
    .sort()
    .join(',');
}

export async function currentProviders(db: Kysely<DB>, jobId: string): Promise<ResolvedProvider[]> {
  const rows = await db.selectFrom('jobProviders').select(['userId', 'vendorId']).where('jobId', '=', jobId).orderBy('id').execute();
  return rows.map((r) => (r.userId !== null ? { userId: r.userId, vendorId: null } : { userId: null, vendorId: String(r.vendorId) }));
}
