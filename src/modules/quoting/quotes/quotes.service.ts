import type { AppDeps } from '../../../deps.js';
import type { Id } from '../../../db/schema.js';
import { checkAmount, formatDecimal } from '../../../domain/pricing/decimal.js';
import type { Decimal } from '../../../domain/pricing/decimal.js';
import { computeQuote } from '../../../domain/pricing/quote.js';
import type { QuoteBillingUnit, QuoteNetRates, QuoteResult } from '../../../domain/pricing/quote.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import { resolvePricingReference, resolveReference } from '../../organization-setup/setup-records/index.js';
import { findVisibleProject, projectForbidden, requireProject, resolveProviders } from '../../translation-workflow/kernel/index.js';
import type { ProjectAccess, ProjectPermission } from '../../translation-workflow/kernel/index.js';
import { analysisFigures } from '../analyses/index.js';
import {
  additionalStepsNamed,
  deleteQuoteRow,
  findPriceList,
  findQuote,
  insertQuote,
  netRatesOf,
  priceSetsFor,
  pricedWorkflowStepIds,
  projectUidOf,
  projectWorkflowStepIds,
} from './quotes.repository.js';
import type { QuoteRow } from './quotes.repository.js';
import type { CreateQuoteV1Body, CreateQuoteV2Body, QuoteUnits } from './quotes.schemas.js';

/** Hours are amounts of at most 4 decimals and 15 significant digits. */
const HOUR_RULES = { maxPlaces: 4, maxDigits: 15 };

/** What the stored `units` column holds: the hours a request gave (null step: every step). */
export interface StoredUnits {
  workflowStepId: string | null;
  partId: string;
  value: string;
}

/**
 * Creates a quote of a finished analysis (docs/analysis.md, "Quotes"): the caller must be able to
 * edit the project, the analysis must belong to it and be finished; the price comes from
 * `computeQuote` (src/domain/pricing/quote.ts). v1 refuses price lists billed by the Hour.
 */
export async function createQuote(
  deps: AppDeps,
  caller: Caller,
  body: CreateQuoteV2Body | CreateQuoteV1Body,
  version: 'v1' | 'v2',
): Promise<QuoteRow> {
  const db = deps.database.db;
  const organizationId = caller.organizationId;
  const access = await requireProject(db, caller, body.project.uid, 'edit');
  const analysisKey = String(body.analyse.id);
  const figures = await analysisFigures(db, organizationId, analysisKey);
  if (!figures) throw errors.ReferenceNotFound({ what: 'analysis', key: analysisKey, keyName: 'id', field: 'analyse' });
  const { analysis, parts } = figures;
  if (analysis.projectId !== access.project.id) {
    throw errors.InvalidArguments({
      reason: `The analysis ${analysis.uid} belongs to another project than ${access.project.uid}.`,
      details: [{ field: 'analyse', message: 'analysis of another project' }],
    });
  }
  if (analysis.status !== 'OK') throw errors.AnalysisNotFinished({ analysisUid: analysis.uid, status: analysis.status });

  const priceListId = await resolvePricingReference(db, organizationId, 'priceList', 'priceList', { id: String(body.priceList.id) });
  const priceList = await findPriceList(db, priceListId);
  const billingUnit = priceList.billingUnit as QuoteBillingUnit;
  if (version === 'v1' && billingUnit === 'Hour') throw errors.HourBillingNotSupported();

  const netRateSchemeId = body.netRateScheme
    ? await resolvePricingReference(db, organizationId, 'netRateScheme', 'netRateScheme', { id: String(body.netRateScheme.id) })
    : analysis.netRateSchemeId;
  const netRates: QuoteNetRates | null = netRateSchemeId === null ? null : await netRatesOf(db, netRateSchemeId);

  const provider = body.provider
    ? (await resolveProviders(db, organizationId, 'provider', [body.provider]))[0]!
    : { userId: analysis.providerUserId, vendorId: analysis.providerVendorId };

  const priceSets = await priceSetsFor(db, priceListId, parts);
  const settings = body.workflowSettings ?? [];
  const settingSteps: Id[] = [];
  for (const [i, setting] of settings.entries()) {
    settingSteps.push(
      await resolveReference(db, organizationId, 'workflowStep', `workflowSettings[${i}].workflowStep`, {
        id: String(setting.workflowStep.id),
      }),
    );
  }
  let workflowStepIds: Id[] = [...new Set(settingSteps)];
  if (workflowStepIds.length === 0) workflowStepIds = await projectWorkflowStepIds(db, access.project.id);
  if (workflowStepIds.length === 0) workflowStepIds = await pricedWorkflowStepIds(db, priceSets);

  const additionalSteps = 'additionalSteps' in body ? await additionalStepsOf(deps, organizationId, body.additionalSteps ?? []) : [];

  const units: StoredUnits[] = [];
  if (billingUnit === 'Hour' && version === 'v2') {
    const v2 = body as CreateQuoteV2Body;
    const partIds = new Set(parts.map((p) => String(p.id)));
    const read = (list: readonly QuoteUnits[], field: string, workflowStepId: string | null) => {
      for (const [i, item] of list.entries()) units.push(unitsOf(item, `${field}[${i}]`, workflowStepId, partIds));
    };
    read(v2.units ?? [], 'units', null);
    for (const [i, setting] of settings.entries()) {
      read((setting as { units?: QuoteUnits[] }).units ?? [], `workflowSettings[${i}].units`, settingSteps[i]!);
    }
    if (units.length === 0) {
      throw errors.InvalidArguments({
        reason: 'A price list billed by the Hour needs the hours: send `units`, or `units` in `workflowSettings`.',
        details: [{ field: 'units', message: 'required for billing unit Hour' }],
      });
    }
  }

  const result = computeQuote({
    billingUnit,
    currency: priceList.currencyCode,
    parts: parts.map((p) => ({ id: String(p.id), sourceLang: p.sourceLang, targetLang: p.targetLang, tallies: p.tallies })),
    workflowStepIds,
    netRates,
    priceSets,
    hours: hoursOf(units),
  });

  return insertQuote(db, {
    organizationId,
    projectId: access.project.id,
    analysisId: analysis.id,
    priceListId,
    netRateSchemeId,
    providerUserId: provider.userId,
    providerVendorId: provider.vendorId,
    name: body.name.trim() || `Quote of ${analysis.name}`,
    status: 'NEW',
    currency: priceList.currencyCode,
    billingUnit,
    totalPrice: result.totalPrice,
    workflowSteps: JSON.stringify(workflowStepIds),
    units: JSON.stringify(units),
    additionalSteps: JSON.stringify(additionalSteps),
    breakdown: JSON.stringify(result satisfies QuoteResult),
    createdAt: deps.clock().toISOString(),
    createdById: caller.userId,
  });
}

function unitsOf(item: QuoteUnits, field: string, workflowStepId: string | null, partIds: ReadonlySet<string>): StoredUnits {
  const partId = String(item.analyseLanguagePart.id);
  if (!partIds.has(partId)) {
    throw errors.ReferenceNotFound({
      what: 'language part of the analysis',
      key: partId,
      keyName: 'id',
      field: `${field}.analyseLanguagePart`,
    });
  }
  const checked = checkAmount(item.value ?? 0, HOUR_RULES);
  if ('reason' in checked) {
    throw errors.InvalidArguments({
      reason: `${field}.value ${checked.reason}.`,
      details: [{ field: `${field}.value`, message: checked.reason }],
    });
  }
  return { workflowStepId, partId, value: formatDecimal(checked.value) };
}

/** The hours of a step and part: the step's own value, else the value for every step, else none. */
function hoursOf(units: readonly StoredUnits[]): (workflowStepId: string, partId: string) => Decimal | null {
  const own = new Map<string, Decimal>();
  const every = new Map<string, Decimal>();
  for (const u of units) {
    const checked = checkAmount(u.value, HOUR_RULES);
    if ('reason' in checked) continue;
    if (u.workflowStepId === null) every.set(u.partId, checked.value);
    else own.set(`${u.workflowStepId}\u0000${u.partId}`, checked.value);
  }
  return (stepId, partId) => own.get(`${stepId}\u0000${partId}`) ?? every.get(partId) ?? null;
}

/** The organization's additional workflow steps by name (400 ReferenceNotFound for an unknown one), without repeats. */
async function additionalStepsOf(deps: AppDeps, organizationId: Id, names: readonly string[]): Promise<{ id: string; name: string }[]> {
  const found = await additionalStepsNamed(deps.database.db, organizationId, names);
  const result: { id: string; name: string }[] = [];
  for (const [i, name] of names.entries()) {
    const step = found.get(name);
    if (!step)
      throw errors.ReferenceNotFound({ what: 'additional workflow step', key: name, keyName: 'name', field: `additionalSteps[${i}]` });
    if (!result.some((s) => s.id === step.id)) result.push(step);
  }
  return result;
}

/**
 * The quote `key` (uid or id) and its project as the caller may reach them: 404 when there is no
 * such quote or the caller cannot see its project, 403 when they see the project but lack `need`
 * ('edit' is the description's "quote-edit project-space permission", item 14).
 */
export async function requireQuote(
  deps: AppDeps,
  caller: Caller,
  key: string,
  need: ProjectPermission,
): Promise<{ quote: QuoteRow; project: ProjectAccess }> {
  const db = deps.database.db;
  const quote = await findQuote(db, caller.organizationId, key);
  const project = quote ? await projectUidOf(db, quote.projectId) : undefined;
  const access = project ? await findVisibleProject(db, caller, project.uid) : null;
  if (!quote || !access) throw errors.ResourceNotFound({ what: 'Quote' });
  if (!access.permissions.has(need)) throw projectForbidden(need);
  return { quote, project: access };
}

export async function deleteQuote(deps: AppDeps, caller: Caller, key: string): Promise<void> {
  const { quote } = await requireQuote(deps, caller, key, 'edit');
  await deleteQuoteRow(deps.database.db, quote.id);
}
