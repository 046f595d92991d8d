import type { Kysely } from 'kysely';
import type { Static as TStatic } from 'typebox';
import { bool } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import { decimalToNumber, parseDecimal } from '../../../domain/pricing/decimal.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { pricingReferenceLookup, workflowStepReferences } from '../../organization-setup/setup-records/index.js';
import type { WorkflowStepReference } from '../../organization-setup/setup-records/index.js';
import type { QuoteRow } from './quotes.repository.js';
import type { QuoteDto, QuoteV2Dto } from './quotes.schemas.js';

/** The wire records of quotes (spec QuoteDto, QuoteV2Dto). */

type Dto = TStatic<typeof QuoteDto>;
type DtoV2 = TStatic<typeof QuoteV2Dto>;

export interface QuoteViewContext {
  users: Awaited<ReturnType<typeof userReferenceLookup>>;
  pricing: Awaited<ReturnType<typeof pricingReferenceLookup>>;
  steps: Map<string, WorkflowStepReference>;
  providers: Map<string, Dto['provider']>;
  /** Per analysis id: when it was last (re)calculated, and whether it is gone (deleted). */
  analyses: Map<string, { calculatedAt: string | null; deleted: boolean }>;
}

const providerKey = (row: Pick<QuoteRow, 'providerUserId' | 'providerVendorId'>) =>
  row.providerUserId !== null ? `u${row.providerUserId}` : row.providerVendorId !== null ? `v${row.providerVendorId}` : null;

const idsOf = (values: ReadonlyArray<Id | null>) => [...new Set(values.filter((v): v is Id => v !== null).map(String))];

export async function quoteViewContext(db: Kysely<DB>, organizationId: Id, rows: readonly QuoteRow[]): Promise<QuoteViewContext> {
  const users = await userReferenceLookup(
    db,
    organizationId,
    rows.map((r) => r.createdById),
  );
  const pricing = await pricingReferenceLookup(db, organizationId, rows);
  const stepIds = rows.flatMap((r) => JSON.parse(r.workflowSteps) as string[]);
  const steps = await workflowStepReferences(db, stepIds);
  const providers = new Map<string, Dto['provider']>();
  const userIds = idsOf(rows.map((r) => r.providerUserId));
  if (userIds.length) {
    for (const u of await db
      .selectFrom('users')
      .select(['id', 'uid', 'userName', 'firstName', 'lastName', 'email', 'active'])
      .where('id', 'in', userIds)
      .execute()) {
      providers.set(`u${u.id}`, {
        type: 'USER',
        id: String(u.id),
        uid: u.uid,
        userName: u.userName,
        firstName: u.firstName,
        lastName: u.lastName,
        email: u.email,
        active: bool(u.active),
      });
    }
  }
  const vendorIds = idsOf(rows.map((r) => r.providerVendorId));
  if (vendorIds.length) {
    for (const v of await db
      .selectFrom('vendors')
      .innerJoin('organizations', 'organizations.id', 'vendors.vendorOrganizationId')
      .select(['vendors.id', 'vendors.uid', 'organizations.name'])
      .where('vendors.id', 'in', vendorIds)
      .execute()) {
      providers.set(`v${v.id}`, { type: 'VENDOR', id: String(v.id), uid: v.uid, name: v.name });
    }
  }
  const analysisIds = idsOf(rows.map((r) => r.analysisId));
  const analyses = new Map<string, { calculatedAt: string | null; deleted: boolean }>();
  if (analysisIds.length) {
    for (const a of await db
      .selectFrom('analyses')
      .leftJoin('asyncRequests', 'asyncRequests.id', 'analyses.asyncRequestId')
      .select(['analyses.id', 'analyses.deletedAt', 'asyncRequests.createdAt as calculatedAt'])
      .where('analyses.id', 'in', analysisIds)
      .execute()) {
      analyses.set(String(a.id), { calculatedAt: a.calculatedAt ?? null, deleted: a.deletedAt !== null });
    }
  }
  return { users, pricing, steps, providers, analyses };
}

/** Whether the analysis the quote was made from is gone, or was calculated again after the quote. */
function outdated(row: QuoteRow, ctx: QuoteViewContext): boolean {
  if (row.analysisId === null) return true;
  const analysis = ctx.analyses.get(String(row.analysisId));
  if (!analysis || analysis.deleted) return true;
  return analysis.calculatedAt !== null && analysis.calculatedAt > row.createdAt;
}

export function toQuoteDto(row: QuoteRow, ctx: QuoteViewContext): Dto {
  const provider = providerKey(row);
  const priceList = ctx.pricing.priceList(row.priceListId);
  const netRateScheme = ctx.pricing.netRateScheme(row.netRateSchemeId);
  const providerRef = provider === null ? undefined : ctx.providers.get(provider);
  const steps = (JSON.parse(row.workflowSteps) as string[]).flatMap((id) => {
    const step = ctx.steps.get(String(id));
    return step ? [step] : [];
  });
  return {
    id: Number(row.id),
    uid: row.uid,
    name: row.name,
    status: row.status,
    currency: row.currency,
    billingUnit: row.billingUnit as Dto['billingUnit'],
    createdBy: ctx.users(row.createdById),
    dateCreated: row.createdAt,
    totalPrice: decimalToNumber(parseDecimal(row.totalPrice)),
    ...(netRateScheme ? { netRateScheme } : {}),
    ...(priceList ? { priceList } : {}),
    workflowStepList: steps,
    ...(providerRef ? { provider: providerRef } : {}),
    quoteType: provider === null ? 'BUYER' : 'PROVIDER',
    editable: row.status === 'NEW' || row.status === 'DRAFT',
    outdated: outdated(row, ctx),
  };
}

export function toQuoteV2Dto(row: QuoteRow, ctx: QuoteViewContext): DtoV2 {
  return { ...toQuoteDto(row, ctx), additionalSteps: JSON.parse(row.additionalSteps) as { id: string; name: string }[] };
}
