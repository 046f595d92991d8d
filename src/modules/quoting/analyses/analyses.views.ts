import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import type { Tallies } from '../../../domain/analysis/bands.js';
import { dataDto, dataDtoV1, discounted } from '../../../domain/analysis/counts-dto.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { pageWindow, toPage } from '../../../http/paging.js';
import { jobsOfParts, languagePartsOf, listAnalyses } from './analyses.repository.js';
import type { AnalysisFilter } from './analyses.repository.js';
import type { AnalysisJobRow, AnalysisRow, LanguagePartRow } from './analyses.repository.js';

/** The wire records of analyses (spec AnalyseV3Dto, AnalyseV2Dto, AnalyseReference, AnalyseLanguagePartDto, AnalyseJobDto). */

type UserRef = ReturnType<Awaited<ReturnType<typeof userReferenceLookup>>>;

export interface AnalysisViewContext {
  parts: Map<Id, LanguagePartRow[]>;
  jobs: Map<Id, AnalysisJobRow[]>;
  users: (id: Id | null) => UserRef;
  providers: Map<string, Record<string, unknown>>;
  schemes: Map<Id, { id: string; uid: string; name: string; dateCreated: string; createdBy: UserRef; rates: Record<string, string> }>;
  projects: Map<Id, { uid: string; name: string }>;
  transMemories: Map<Id, { internalId: number; uid: string; name: string; sourceLang: string; targetLangs: string[] }>;
}

const providerKey = (row: Pick<AnalysisRow, 'providerUserId' | 'providerVendorId'>) =>
  row.providerUserId !== null ? `u${row.providerUserId}` : row.providerVendorId !== null ? `v${row.providerVendorId}` : null;

export async function analysisViewContext(
  db: Kysely<DB>,
  organizationId: Id,
  rows: readonly AnalysisRow[],
  withJobs = true,
): Promise<AnalysisViewContext> {
  const ids = rows.map((r) => r.id);
  const parts = await languagePartsOf(db, ids);
  const jobs = withJobs
    ? await jobsOfParts(
        db,
        parts.map((p) => p.id),
      )
    : [];
  const schemeIds = [...new Set(rows.flatMap((r) => (r.netRateSchemeId === null ? [] : [r.netRateSchemeId])))];
  const schemes = schemeIds.length ? await db.selectFrom('netRateSchemes').selectAll().where('id', 'in', schemeIds).execute() : [];
  const userIds = rows.flatMap((r) => [r.createdById, r.providerUserId]).concat(schemes.map((s) => s.createdById));
  const users = await userReferenceLookup(db, organizationId, userIds);
  const providers = new Map<string, Record<string, unknown>>();
  const providerUserIds = [...new Set(rows.flatMap((r) => (r.providerUserId === null ? [] : [r.providerUserId])))];
  if (providerUserIds.length) {
    for (const u of await db
      .selectFrom('users')
      .select(['id', 'uid', 'userName', 'firstName', 'lastName', 'email', 'active'])
      .where('id', 'in', providerUserIds)
      .execute()) {
      providers.set(`u${u.id}`, {
        type: 'USER',
        id: u.id,
        uid: u.uid,
        userName: u.userName,
        firstName: u.firstName,
        lastName: u.lastName,
        email: u.email,
        active: bool(u.active),
      });
    }
  }
  const vendorIds = [...new Set(rows.flatMap((r) => (r.providerVendorId === null ? [] : [r.providerVendorId])))];
  if (vendorIds.length) {
    for (const v of await db
      .selectFrom('vendors')
      .innerJoin('organizations', 'organizations.id', 'vendors.vendorOrganizationId')
      .select(['vendors.id', 'vendors.uid', 'organizations.name'])
      .where('vendors.id', 'in', vendorIds)
      .execute()) {
      providers.set(`v${v.id}`, { type: 'VENDOR', id: v.id, uid: v.uid, name: v.name });
    }
  }
  const projectIds = [...new Set(rows.map((r) => r.projectId))];
  const projects = projectIds.length
    ? await db.selectFrom('projects').select(['id', 'uid', 'name']).where('id', 'in', projectIds).execute()
    : [];
  const tmIds = [...new Set(parts.flatMap((p) => JSON.parse(p.transMemories) as string[]))];
  const tms = tmIds.length
    ? await db
        .selectFrom('transMemories')
        .select(['id', 'internalId', 'uid', 'name', 'sourceLang', 'targetLangs'])
        .where('id', 'in', tmIds)
        .execute()
    : [];
  const group = <T extends { id: Id }>(items: T[], key: (item: T) => Id) => {
    const map = new Map<Id, T[]>();
    for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
    return map;
  };
  return {
    parts: group(parts, (p) => p.analysisId),
    jobs: group(jobs, (j) => j.languagePartId),
    users,
    providers,
    schemes: new Map(
      schemes.map((s) => [
        s.id,
        {
          id: s.id,
          uid: s.uid,
          name: s.name,
          dateCreated: s.createdAt,
          createdBy: users(s.createdById),
          rates: JSON.parse(s.rates) as Record<string, string>,
        },
      ]),
    ),
    projects: new Map(projects.map((p) => [p.id, { uid: p.uid, name: p.name }])),
    transMemories: new Map(
      tms.map((t) => [
        t.id,
        {
          internalId: Number(t.internalId),
          uid: t.uid,
          name: t.name,
          sourceLang: t.sourceLang,
          targetLangs: JSON.parse(t.targetLangs) as string[],
        },
      ]),
    ),
  };
}

const talliesOf = (json: string | null): Tallies | null => (json === null ? null : (JSON.parse(json) as Tallies));

/** data and discountedData of a part or job: the tallies, and the tallies weighted by the analysis's net rate scheme. */
function figures(json: string | null, rates: Record<string, string> | null, v1: boolean): { data: never; discountedData: never } {
  const tallies = talliesOf(json);
  const make = v1 ? dataDtoV1 : dataDto;
  if (tallies === null) {
    const empty = make({});
    return { data: { ...empty, available: false } as never, discountedData: { ...empty, available: false } as never };
  }
  // The wire schema checks the shape (DataDto or DataDtoV1, by `v1`).
  return { data: make(tallies) as never, discountedData: make(rates ? discounted(tallies, rates) : tallies) as never };
}

const schemeRates = (row: AnalysisRow, context: AnalysisViewContext) =>
  row.netRateSchemeId === null ? null : (context.schemes.get(row.netRateSchemeId)?.rates ?? null);

function schemeReference(row: AnalysisRow, context: AnalysisViewContext) {
  const scheme = row.netRateSchemeId === null ? undefined : context.schemes.get(row.netRateSchemeId);
  if (!scheme) return null;
  const { rates: _rates, ...reference } = scheme;
  void _rates;
  return reference;
}

const jobReference = (j: AnalysisJobRow) => ({ uid: j.jobUid, filename: j.filename, innerId: j.innerId });

function common(row: AnalysisRow, context: AnalysisViewContext) {
  const key = providerKey(row);
  return {
    id: row.id,
    uid: row.uid,
    type: row.type,
    name: row.name,
    provider: key ? ((context.providers.get(key) as never) ?? null) : null,
    createdBy: context.users(row.createdById),
    dateCreated: row.createdAt,
    netRateScheme: schemeReference(row, context),
  };
}

const importStatus = (row: AnalysisRow) => ({ status: row.status, errorMessage: row.errorMessage });

/** Spec AnalyseV3Dto. */
export function toAnalyseV3(row: AnalysisRow, context: AnalysisViewContext) {
  const rates = schemeRates(row, context);
  const settings = JSON.parse(row.settings) as Record<string, unknown>;
  return {
    ...common(row, context),
    innerId: row.innerId,
    canChangeNetRateScheme: true,
    analyseLanguageParts: (context.parts.get(row.id) ?? []).map((part) => ({
      id: part.id,
      sourceLang: part.sourceLang,
      targetLang: part.targetLang,
      ...figures(part.tallies, rates, false),
      jobs: (context.jobs.get(part.id) ?? []).map(jobReference),
      transMemories: (JSON.parse(part.transMemories) as string[]).flatMap((id) => {
        const tm = context.transMemories.get(id);
        return tm ? [tm] : [];
      }),
    })),
    settings: {
      ...(settings as object),
      type: String(settings['type']),
      namingPattern: null,
      analyzeByLanguage: false,
      analyzeByProvider: row.type === 'PreAnalyseProvider',
      allowAutomaticPostAnalysis: false,
    } as never,
    outdated: bool(row.outdated),
    importStatus: importStatus(row),
    pureWarnings: [],
    project: context.projects.get(row.projectId) ?? { uid: '', name: '' },
  };
}

/** Spec AnalyseV2Dto. */
export function toAnalyseV2(row: AnalysisRow, context: AnalysisViewContext) {
  const rates = schemeRates(row, context);
  return {
    ...common(row, context),
    analyseLanguageParts: (context.parts.get(row.id) ?? []).map((part) => ({
      id: part.id,
      sourceLang: part.sourceLang,
      targetLang: part.targetLang,
      ...figures(part.tallies, rates, false),
      jobs: (context.jobs.get(part.id) ?? []).map(jobReference),
    })),
  };
}

/** Spec AnalyseReference (lists). */
export function toAnalyseReference(row: AnalysisRow, context: AnalysisViewContext) {
  return {
    ...common(row, context),
    innerId: String(row.innerId),
    analyseLanguageParts: (context.parts.get(row.id) ?? []).map((part) => ({
      id: part.id,
      sourceLang: part.sourceLang,
      targetLang: part.targetLang,
      jobs: (context.jobs.get(part.id) ?? []).map(jobReference),
    })),
    outdated: bool(row.outdated),
    importStatus: importStatus(row),
    pureWarnings: [],
  };
}

/** Spec AnalyseLanguagePartDto (v1). */
export function toLanguagePartV1(row: AnalysisRow, part: LanguagePartRow, context: AnalysisViewContext) {
  return {
    id: part.id,
    sourceLang: part.sourceLang,
    targetLang: part.targetLang,
    ...figures(part.tallies, schemeRates(row, context), true),
    jobs: (context.jobs.get(part.id) ?? []).map(jobReference),
  };
}

/** Spec AnalyseJobDto. */
export function toAnalyseJob(row: AnalysisRow, job: AnalysisJobRow, context: AnalysisViewContext) {
  return { uid: job.jobUid, filename: job.filename, ...figures(job.tallies, schemeRates(row, context), true) };
}

/** A page of the analyses `filter` selects, each shown by `view` (the list operations of every version). */
export async function analysesPage<T>(
  db: Kysely<DB>,
  organizationId: Id,
  filter: AnalysisFilter,
  query: { pageNumber: number; pageSize: number; sort?: 'NAME' | 'DATE_CREATED'; order?: string },
  view: (row: AnalysisRow, context: AnalysisViewContext) => T,
) {
  const page = { pageNumber: query.pageNumber, pageSize: query.pageSize };
  const order = { sort: query.sort ?? 'DATE_CREATED', descending: (query.order ?? 'DESC').toUpperCase() === 'DESC' } as const;
  const { rows, total } = await listAnalyses(db, filter, order, pageWindow(page));
  const context = await analysisViewContext(db, organizationId, rows);
  return toPage(
    rows.map((row) => view(row, context)),
    total,
    page,
  );
}
