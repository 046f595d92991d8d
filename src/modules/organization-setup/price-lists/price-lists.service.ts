import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import type { BillingUnit } from '../../../db/tables/pricing.js';
import { checkAmount, formatDecimal } from '../../../domain/pricing/decimal.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import { clearPriceListReferences } from '../setup-records/index.js';
import {
  copyPriceSets,
  deletePriceListRow,
  findPriceList,
  insertPriceList,
  priceListNameTaken,
  priceListNamesStartingWith,
  updatePriceList,
} from './price-lists.repository.js';
import type { PriceListRow } from './price-lists.repository.js';
import type { ClonePriceListBody, PriceListBody } from './price-lists.schemas.js';

/**
 * Price lists (docs: the route descriptions): a name unique in the organization ignoring case, an
 * ISO 4217 currency and a billing unit; the language pairs and their prices are price-sets.service.ts.
 */

type ListBody = Static<typeof PriceListBody>;

const nameAlreadyExists = (name: string) => errors.NameAlreadyExists({ what: 'a price list', name });
const invalid = (field: string, message: string) =>
  errors.InvalidArguments({ reason: `${field} ${message}.`, details: [{ field, message }] });

/** ISO 4217 codes the runtime knows (Node's ICU: current currencies). */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** The currency code upper-cased, or 400 when it is not an ISO 4217 code. */
export function currencyCodeOf(input: string): string {
  const code = input.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code) || !CURRENCIES.has(code))
    throw invalid('currencyCode', `must be an ISO 4217 currency code ("${input}" is not one)`);
  return code;
}

/** The name trimmed; 400 when blank. */
export function priceListNameOf(input: string, field = 'name'): string {
  const name = input.trim();
  if (name === '') throw invalid(field, 'must not be blank');
  return name;
}

/** An amount of money as the decimal string stored, or 400 naming `field` (>= 0, at most 4 places and 15 significant digits). */
export function moneyOf(field: string, input: number | string): string {
  const checked = checkAmount(input);
  if ('reason' in checked) throw invalid(field, checked.reason);
  return formatDecimal(checked.value);
}

/** The organization's price list, or 404 (another organization's list is not found either). */
export async function getPriceList(deps: AppDeps, caller: Caller, uid: string): Promise<PriceListRow> {
  const row = await findPriceList(deps.database.db, caller.organizationId, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Price list' });
  return row;
}

export async function createPriceList(deps: AppDeps, caller: Caller, body: ListBody): Promise<PriceListRow> {
  const name = priceListNameOf(body.name);
  const currencyCode = currencyCodeOf(body.currencyCode);
  return deps.database.db.transaction().execute(async (trx) => {
    if (await priceListNameTaken(trx, caller.organizationId, name)) throw nameAlreadyExists(name);
    return insertPriceList(trx, {
      organizationId: caller.organizationId,
      name,
      currencyCode,
      billingUnit: body.billingUnit ?? 'Word',
      createdAt: deps.clock().toISOString(),
      createdById: caller.userId,
    });
  });
}

/**
 * Edits name, currency and billing unit (TranslationPriceListCreateDto): a billing unit left out
 * stays as it is. Prices are kept as they are: changing the currency converts nothing.
 */
export async function editPriceList(deps: AppDeps, caller: Caller, uid: string, body: ListBody): Promise<PriceListRow> {
  const name = priceListNameOf(body.name);
  const currencyCode = currencyCodeOf(body.currencyCode);
  const existing = await getPriceList(deps, caller, uid);
  return deps.database.db.transaction().execute(async (trx) => {
    if (await priceListNameTaken(trx, caller.organizationId, name, existing.id)) throw nameAlreadyExists(name);
    const billingUnit: BillingUnit = body.billingUnit ?? existing.billingUnit;
    return updatePriceList(trx, existing.id, { name, currencyCode, billingUnit });
  });
}

/**
 * Deletes the list with its price sets, and in the same transaction clears every reference to it
 * (clients, vendors, services, project and template financial settings, linguists' settings).
 */
export async function deletePriceList(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  const row = await getPriceList(deps, caller, uid);
  await deps.database.db.transaction().execute(async (trx) => {
    await clearPriceListReferences(trx, caller.organizationId, row);
    await deletePriceListRow(trx, row.id);
  });
}

const NAME_MAX = 255;

/** The first of `<name> (copy)`, `<name> (copy 2)`, … that no list of the organization has (ignoring case). */
async function freeCopyName(deps: AppDeps, caller: Caller, original: string): Promise<string> {
  const base = original.slice(0, NAME_MAX - ' (copy 99999)'.length);
  const taken = await priceListNamesStartingWith(deps.database.db, caller.organizationId, `${base} (copy`);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${base} (copy)` : `${base} (copy ${n})`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * Copies the list with every price set and price (clonePriceList, a 2025 operation not in the
 * published spec). The body `{name}` is optional: left out, the copy is named `<name> (copy)`
 * (then `(copy 2)`, …); a name given must be free (409).
 */
export async function clonePriceList(
  deps: AppDeps,
  caller: Caller,
  uid: string,
  body: Static<typeof ClonePriceListBody> | undefined,
): Promise<PriceListRow> {
  const source = await getPriceList(deps, caller, uid);
  const name = body?.name === undefined ? await freeCopyName(deps, caller, source.name) : priceListNameOf(body.name);
  return deps.database.db.transaction().execute(async (trx) => {
    if (await priceListNameTaken(trx, caller.organizationId, name)) throw nameAlreadyExists(name);
    const copy = await insertPriceList(trx, {
      organizationId: caller.organizationId,
      name,
      currencyCode: source.currencyCode,
      billingUnit: source.billingUnit,
      createdAt: deps.clock().toISOString(),
      createdById: caller.userId,
    });
    await copyPriceSets(trx, source.id, copy.id);
    return copy;
  });
}
