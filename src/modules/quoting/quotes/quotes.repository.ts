import type { Insertable, Kysely, Selectable } from 'kysely';
import { bool } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { QuotesTable } from '../../../db/tables/quotes.js';
import type { PriceListsTable } from '../../../db/tables/pricing.js';
import { parseDecimal } from '../../../domain/pricing/decimal.js';
import { parseStoredNetRates } from '../../../domain/pricing/net-rates.js';
import type { QuoteNetRates, QuotePriceSet } from '../../../domain/pricing/quote.js';

/**
 * Queries of quotes, and what a quote reads of price lists, net rate schemes, workflow steps,
 * additional workflow steps and providers (plain queries of those tables, as the setup-records
 * front door does for references). Every function takes the database (or a transaction) first.
 */

export type QuoteRow = Selectable<QuotesTable>;
export type PriceListRow = Selectable<PriceListsTable>;

const isNumericId = (key: string) => /^\d{1,18}$/.test(key);

export async function insertQuote(db: Kysely<DB>, values: Omit<Insertable<QuotesTable>, 'uid'>): Promise<QuoteRow> {
  return db
    .insertInto('quotes')
    .values({ ...values, uid: newUid() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The quote `key` (uid or numeric id) of the organization, or undefined. */
export async function findQuote(db: Kysely<DB>, organizationId: Id, key: string): Promise<QuoteRow | undefined> {
  return db
    .selectFrom('quotes')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where((eb) => eb.or([eb('uid', '=', key), ...(isNumericId(key) ? [eb('id', '=', key)] : [])]))
    .executeTakeFirst();
}

/** A page of the project's quotes, oldest first. */
export async function listProjectQuotes(
  db: Kysely<DB>,
  projectId: Id,
  window: { offset: number; limit: number },
): Promise<{ rows: QuoteRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('quotes')
      .selectAll()
      .where('projectId', '=', projectId)
      .orderBy('id')
      .offset(window.offset)
      .limit(window.limit)
      .execute(),
    db
      .selectFrom('quotes')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('projectId', '=', projectId)
      .executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function deleteQuoteRow(db: Kysely<DB>, id: Id): Promise<void> {
  await db.deleteFrom('quotes').where('id', '=', id).execute();
}

export async function projectUidOf(db: Kysely<DB>, projectId: Id): Promise<{ uid: string; name: string } | undefined> {
  return db.selectFrom('projects').select(['uid', 'name']).where('id', '=', projectId).executeTakeFirst();
}

export async function findPriceList(db: Kysely<DB>, id: Id): Promise<PriceListRow> {
  return db.selectFrom('priceLists').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The price sets of the list for these language pairs, each with its prices by workflow step id. */
export async function priceSetsFor(
  db: Kysely<DB>,
  priceListId: Id,
  pairs: readonly { sourceLang: string; targetLang: string }[],
): Promise<QuotePriceSet[]> {
  if (pairs.length === 0) return [];
  const sets = await db
    .selectFrom('priceSets')
    .select(['id', 'sourceLang', 'targetLang', 'minimumPrice'])
    .where('priceListId', '=', priceListId)
    .where('sourceLang', 'in', [...new Set(pairs.map((p) => p.sourceLang))])
    .where('targetLang', 'in', [...new Set(pairs.map((p) => p.targetLang))])
    .execute();
  if (sets.length === 0) return [];
  const prices = await db
    .selectFrom('priceSetPrices')
    .select(['priceSetId', 'workflowStepId', 'price'])
    .where(
      'priceSetId',
      'in',
      sets.map((s) => s.id),
    )
    .execute();
  return sets.map((s) => ({
    sourceLang: s.sourceLang,
    targetLang: s.targetLang,
    minimumPrice: s.minimumPrice,
    prices: Object.fromEntries(prices.filter((p) => String(p.priceSetId) === String(s.id)).map((p) => [String(p.workflowStepId), p.price])),
  }));
}

/** The scheme's rates and its rates per workflow step. */
export async function netRatesOf(db: Kysely<DB>, schemeId: Id): Promise<QuoteNetRates> {
  const scheme = await db.selectFrom('netRateSchemes').select('rates').where('id', '=', schemeId).executeTakeFirstOrThrow();
  const steps = await db
    .selectFrom('netRateSchemeSteps')
    .select(['workflowStepId', 'rates'])
    .where('netRateSchemeId', '=', schemeId)
    .execute();
  return {
    rates: parseStoredNetRates(scheme.rates),
    byStep: Object.fromEntries(steps.map((s) => [String(s.workflowStepId), parseStoredNetRates(s.rates)])),
  };
}

/** The ids of the organization's workflow steps in workflow order (the spec's `order`, then id). */
async function inOrder(db: Kysely<DB>, ids: readonly Id[]): Promise<Id[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('workflowSteps')
    .select(['id', 'orderIndex'])
    .where('id', 'in', [...new Set(ids.map(String))])
    .execute();
  return rows.sort((a, b) => Number(a.orderIndex) - Number(b.orderIndex) || Number(a.id) - Number(b.id)).map((r) => String(r.id));
}

/** The workflow steps of the project, by level (each organization step once). */
export async function projectWorkflowStepIds(db: Kysely<DB>, projectId: Id): Promise<Id[]> {
  const rows = await db
    .selectFrom('projectWorkflowSteps')
    .select(['workflowStepId'])
    .where('projectId', '=', projectId)
    .orderBy('workflowLevel')
    .orderBy('id')
    .execute();
  return [...new Set(rows.map((r) => String(r.workflowStepId)))];
}

/** The workflow steps with a price above 0 in one of `sets`, in workflow order. */
export async function pricedWorkflowStepIds(db: Kysely<DB>, sets: readonly QuotePriceSet[]): Promise<Id[]> {
  const ids = sets.flatMap((s) => Object.entries(s.prices).flatMap(([stepId, price]) => (parseDecimal(price).units > 0n ? [stepId] : [])));
  return inOrder(db, ids);
}

/** The organization's additional workflow steps with these names (compared ignoring case), by name as given. */
export async function additionalStepsNamed(
  db: Kysely<DB>,
  organizationId: Id,
  names: readonly string[],
): Promise<Map<string, { id: string; name: string }>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .selectFrom('additionalWorkflowSteps')
    .select(['uid', 'name'])
    .where('organizationId', '=', organizationId)
    .execute();
  // `id` is the step's uid, as the Additional Workflow Step operations show it (AdditionalWorkflowStepDto).
  const byName = new Map(rows.map((r) => [r.name.toLowerCase(), { id: r.uid, name: r.name }]));
  const found = new Map<string, { id: string; name: string }>();
  for (const name of names) {
    const row = byName.get(name.trim().toLowerCase());
    if (row) found.set(name, row);
  }
  return found;
}

/** Who receives a quote's email: its provider user's address, or a vendor's (see `vendorAddresses`). */
export interface Recipient {
  email: string;
  firstName: string | null;
  lastName: string | null;
  userName: string | null;
}

/**
 * A vendor provider's addresses: the vendor's user who owns the buyer's work (`buyerOwner`, set by
 * the vendor) when there is one, else the active ADMINs of the vendor organization.
 */
export async function providerRecipients(
  db: Kysely<DB>,
  quote: Pick<QuoteRow, 'providerUserId' | 'providerVendorId'>,
): Promise<Recipient[]> {
  const users = db.selectFrom('users').select(['email', 'firstName', 'lastName', 'userName', 'active']).where('deletedAt', 'is', null);
  if (quote.providerUserId !== null) {
    const rows = await users.where('id', '=', quote.providerUserId).execute();
    return rows.filter((r) => r.email).map(({ active: _, ...r }) => r);
  }
  if (quote.providerVendorId === null) return [];
  const vendor = await db
    .selectFrom('vendors')
    .select(['vendorOrganizationId', 'buyerOwnerId'])
    .where('id', '=', quote.providerVendorId)
    .executeTakeFirst();
  if (!vendor) return [];
  if (vendor.buyerOwnerId !== null) {
    const owner = (await users.where('id', '=', vendor.buyerOwnerId).execute()).filter((r) => bool(r.active) && r.email);
    if (owner.length) return owner.map(({ active: _, ...r }) => r);
  }
  const admins = await users.where('organizationId', '=', vendor.vendorOrganizationId).where('role', '=', 'ADMIN').orderBy('id').execute();
  return admins.filter((r) => bool(r.active) && r.email).map(({ active: _, ...r }) => r);
}

/** The caller's name and their organization's name (the email's sender placeholders). */
export async function senderOf(db: Kysely<DB>, userId: Id): Promise<{ fullName: string; organizationName: string }> {
  const row = await db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organizationId')
    .select(['users.firstName', 'users.lastName', 'users.userName', 'organizations.name'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  const fullName = [row?.firstName, row?.lastName].filter(Boolean).join(' ') || row?.userName || '';
  return { fullName, organizationName: row?.name ?? '' };
}
