import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { assertLanguages } from '../../../domain/languages/language-validation.js';
import { normalizeLanguage } from '../../../domain/languages/supported-languages.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import {
  countPriceSets,
  deletePriceSets,
  deletePriceSetsByIds,
  findPriceSet,
  insertPrices,
  insertPriceSets,
  listPriceSets,
  organizationWorkflowSteps,
  pricesOf,
  setMinimumPrices,
  setPrices,
  zeroPricesForNewSets,
} from './price-lists.repository.js';
import type { PairFilter, PriceListRow, WorkflowStepView } from './price-lists.repository.js';
import type { AddLanguagePairsBody, DeleteLanguagePairsBody, MinimumPricesBody, PricesBody } from './price-lists.schemas.js';
import { MAX_PRICE_SETS } from './price-lists.schemas.js';
import { moneyOf } from './price-lists.service.js';
import type { SheetPair } from './price-lists.xlsx.js';

/**
 * The language pairs (price sets) of a price list and their prices. Languages are checked against
 * the supported list (400 UnsupportedLanguage) and stored canonical (`EN-us` -> `en_us`). The
 * bulk operations address pairs by a filter: `sourceLanguages` and `targetLanguages`, each left
 * out or empty meaning any language on that side.
 */

const tooManyPairs = (count: number) =>
  errors.InvalidArguments({
    reason: `A price list holds at most ${MAX_PRICE_SETS} language pairs; this would make ${count}.`,
    details: [{ field: 'priceSets', message: `at most ${MAX_PRICE_SETS}` }],
  });

/** The filter a body's language lists make (canonical codes; 400 on unsupported ones). */
export function pairFilterOf(body: {
  sourceLanguages?: readonly string[] | undefined;
  targetLanguages?: readonly string[] | undefined;
}): PairFilter {
  return {
    sourceLangs: assertLanguages('sourceLanguages', body.sourceLanguages ?? []),
    targetLangs: assertLanguages('targetLanguages', body.targetLanguages ?? []),
  };
}

/**
 * Adds the pairs sourceLanguages × targetLanguages (a language into itself left out), each with
 * minimum price 0 and price 0 for every workflow step of the organization; pairs already in the
 * list stay as they are. Answers the requested pairs.
 */
export async function addLanguagePairs(
  deps: AppDeps,
  caller: Caller,
  list: PriceListRow,
  body: Static<typeof AddLanguagePairsBody>,
): Promise<PairFilter> {
  const filter = pairFilterOf(body);
  const wanted = filter.sourceLangs!.flatMap((sourceLang) =>
    filter.targetLangs!.filter((targetLang) => targetLang !== sourceLang).map((targetLang) => ({ sourceLang, targetLang })),
  );
  if (wanted.length === 0)
    throw errors.InvalidArguments({
      reason: 'Every pair would translate a language into itself.',
      details: [{ field: 'targetLanguages', message: 'must name a language other than the source language' }],
    });
  await deps.database.db.transaction().execute(async (trx) => {
    const { rows: existing } = await listPriceSets(trx, list.id, filter);
    const have = new Set(existing.map((s) => `${s.sourceLang}\u0000${s.targetLang}`));
    const missing = wanted.filter((p) => !have.has(`${p.sourceLang}\u0000${p.targetLang}`));
    if (missing.length === 0) return;
    const total = (await countPriceSets(trx, list.id)) + missing.length;
    if (total > MAX_PRICE_SETS) throw tooManyPairs(total);
    await insertPriceSets(
      trx,
      missing.map((p) => ({ priceListId: list.id, sourceLang: p.sourceLang, targetLang: p.targetLang, minimumPrice: '0' })),
    );
    await zeroPricesForNewSets(trx, list.id, caller.organizationId);
  });
  return filter;
}

/** Removes the pairs the filter matches; a body that names no language at all is refused (it would empty the list). */
export async function removeLanguagePairs(
  deps: AppDeps,
  list: PriceListRow,
  body: Static<typeof DeleteLanguagePairsBody> | undefined,
): Promise<void> {
  const filter = pairFilterOf(body ?? {});
  if (filter.sourceLangs!.length === 0 && filter.targetLangs!.length === 0)
    throw errors.InvalidArguments({
      reason: 'Name the pairs to remove with sourceLanguages and/or targetLanguages.',
      details: [{ field: 'sourceLanguages', message: 'sourceLanguages or targetLanguages must name a language' }],
    });
  await deletePriceSets(deps.database.db, list.id, filter);
}

/** Removes one pair; 404 when the list does not have it. */
export async function removeLanguagePair(deps: AppDeps, list: PriceListRow, source: string, target: string): Promise<void> {
  const sourceLang = normalizeLanguage(source);
  const targetLang = normalizeLanguage(target);
  const set = sourceLang && targetLang ? await findPriceSet(deps.database.db, list.id, sourceLang, targetLang) : undefined;
  if (!set) throw errors.ResourceNotFound({ what: 'Price set', reason: `the price list has no pair ${source} → ${target}` });
  await deletePriceSetsByIds(deps.database.db, [set.id]);
}

/** Sets the minimum price of the pairs the filter matches (every pair when it names no language). */
export async function editMinimumPrices(deps: AppDeps, list: PriceListRow, body: Static<typeof MinimumPricesBody>): Promise<void> {
  const minimumPrice = moneyOf('minimumPrice', body.minimumPrice);
  const filter = pairFilterOf(body);
  await setMinimumPrices(deps.database.db, list.id, filter, minimumPrice);
}

/** The workflow steps a body names by id (or uid); none named: every step of the organization. */
function stepsNamed(all: WorkflowStepView[], refs: readonly { id: string }[]): WorkflowStepView[] {
  if (refs.length === 0) return all;
  return refs.map((ref) => {
    const step = all.find((s) => s.id === ref.id || s.uid === ref.id);
    if (!step) throw errors.ReferenceNotFound({ what: 'workflow step', key: ref.id, keyName: 'id', field: 'workflowSteps' });
    return step;
  });
}

/**
 * Sets `price` for the named workflow steps (all of the organization's when none are named) in
 * the pairs the filter matches (every pair when it names no language).
 */
export async function editPrices(deps: AppDeps, caller: Caller, list: PriceListRow, body: Static<typeof PricesBody>): Promise<void> {
  const price = moneyOf('price', body.price);
  const filter = pairFilterOf(body);
  await deps.database.db.transaction().execute(async (trx) => {
    const steps = stepsNamed(await organizationWorkflowSteps(trx, caller.organizationId), body.workflowSteps ?? []);
    await setPrices(
      trx,
      list.id,
      filter,
      steps.map((s) => s.id),
      price,
    );
  });
}

/**
 * Imports a checked sheet (price-lists.xlsx.ts) in one transaction: each pair it lists gets the
 * minimum price and step prices of its row, a pair the list does not have yet is added (what its
 * row leaves empty is 0), and in a pair it has, an empty cell or a step without a column keeps
 * the current price. Pairs the sheet does not list stay as they are.
 */
export async function importPriceSets(deps: AppDeps, caller: Caller, list: PriceListRow, pairs: SheetPair[]): Promise<void> {
  if (pairs.length === 0) return;
  await deps.database.db.transaction().execute(async (trx) => {
    const steps = await organizationWorkflowSteps(trx, caller.organizationId);
    const { rows: existing } = await listPriceSets(trx, list.id, {});
    const byPair = new Map(existing.map((s) => [`${s.sourceLang}\u0000${s.targetLang}`, s]));
    const added = pairs.filter((p) => !byPair.has(`${p.sourceLang}\u0000${p.targetLang}`)).length;
    if (existing.length + added > MAX_PRICE_SETS) throw tooManyPairs(existing.length + added);
    const current = await pricesOf(
      trx,
      list.id,
      pairs.flatMap((p) => {
        const set = byPair.get(`${p.sourceLang}\u0000${p.targetLang}`);
        return set ? [set.id] : [];
      }),
    );
    // The listed pairs are written anew (sets carry no identity on the wire): delete, then insert with the merged prices.
    const replaced = pairs.flatMap((p) => {
      const set = byPair.get(`${p.sourceLang}\u0000${p.targetLang}`);
      return set ? [set] : [];
    });
    await deletePriceSetsByIds(
      trx,
      replaced.map((s) => s.id),
    );
    const inserted = await insertPriceSets(
      trx,
      pairs.map((p) => {
        const before = byPair.get(`${p.sourceLang}\u0000${p.targetLang}`);
        return {
          priceListId: list.id,
          sourceLang: p.sourceLang,
          targetLang: p.targetLang,
          minimumPrice: p.minimumPrice ?? before?.minimumPrice ?? '0',
        };
      }),
    );
    const newId = new Map(inserted.map((s) => [`${s.sourceLang}\u0000${s.targetLang}`, s.id]));
    await insertPrices(
      trx,
      pairs.flatMap((p) => {
        const key = `${p.sourceLang}\u0000${p.targetLang}`;
        const before = byPair.get(key);
        const old = before ? current.get(String(before.id)) : undefined;
        return steps.map((step) => ({
          priceSetId: newId.get(key)!,
          workflowStepId: step.id,
          price: p.prices.get(step.id) ?? old?.get(step.id) ?? '0',
        }));
      }),
    );
  });
}
