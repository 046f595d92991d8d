import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import type { NamedReference } from '../../organization-setup/setup-records/index.js';
import { namedReferences } from '../../organization-setup/setup-records/index.js';
import type {
  NotifyProvider,
  ProjectTemplateDto,
  ProjectTemplateReferenceDto,
  ProjectWorkflowSettings,
  ProviderReferenceDto,
} from './project-templates.schemas.js';
import type { TemplateRow } from '../kernel/index.js';
import { templateTargetLangs } from '../kernel/index.js';
import { parseTemplateSettings } from './template-settings.js';

/** ProjectTemplate and ProjectTemplateReference views of template rows, loaded a page at a time. */

const ids = (rows: TemplateRow[], pick: (r: TemplateRow) => Id | null) =>
  rows
    .map(pick)
    .filter((id): id is Id => id !== null)
    .map(String);

async function simpleNames(db: Kysely<DB>, table: 'businessUnits' | 'costCenters', wanted: string[]): Promise<Map<string, NamedReference>> {
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom(table)
    .select(['id', 'uid', 'name'])
    .where('id', 'in', [...new Set(wanted)])
    .execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, uid: r.uid, name: r.name }]));
}

/** Vendors as the buyer sees them: the link's id and uid, the vendor organization's name. */
async function vendorNames(db: Kysely<DB>, wanted: string[]): Promise<Map<string, NamedReference>> {
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('vendors')
    .innerJoin('organizations', 'organizations.id', 'vendors.vendorOrganizationId')
    .select(['vendors.id', 'vendors.uid', 'organizations.name'])
    .where('vendors.id', 'in', [...new Set(wanted)])
    .execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, uid: r.uid, name: r.name }]));
}

/** The setup-record references of a page of templates. */
async function setupReferences(db: Kysely<DB>, rows: TemplateRow[]) {
  const [clients, domains, subDomains, businessUnits, costCenters] = await Promise.all([
    namedReferences(
      db,
      'client',
      ids(rows, (r) => r.clientId),
    ),
    namedReferences(
      db,
      'domain',
      ids(rows, (r) => r.domainId),
    ),
    namedReferences(
      db,
      'subDomain',
      ids(rows, (r) => r.subDomainId),
    ),
    simpleNames(
      db,
      'businessUnits',
      ids(rows, (r) => r.businessUnitId),
    ),
    simpleNames(
      db,
      'costCenters',
      ids(rows, (r) => r.costCenterId),
    ),
  ]);
  const get = (map: Map<string, NamedReference>, id: Id | null) => (id === null ? null : (map.get(id) ?? null));
  return (row: TemplateRow) => ({
    client: get(clients, row.clientId),
    domain: get(domains, row.domainId),
    subDomain: get(subDomains, row.subDomainId),
    businessUnit: get(businessUnits, row.businessUnitId),
    costCenter: get(costCenters, row.costCenterId),
  });
}

function projectWorkflowSettingsOf(row: TemplateRow): Required<ProjectWorkflowSettings> {
  const stored = (parseTemplateSettings(row.settings).projectWorkflowSettings ?? {}) as ProjectWorkflowSettings;
  return {
    completeUnassigned: stored.completeUnassigned ?? false,
    propagateTranslationsToLowerWfDuringUpdateSource: stored.propagateTranslationsToLowerWfDuringUpdateSource ?? false,
  };
}

export async function toTemplateReferences(
  db: Kysely<DB>,
  organizationId: string,
  rows: TemplateRow[],
): Promise<ProjectTemplateReferenceDto[]> {
  const users = await userReferenceLookup(
    db,
    organizationId,
    rows.map((r) => r.ownerId),
  );
  const references = await setupReferences(db, rows);
  return rows.map((row) => {
    const refs = references(row);
    return {
      id: row.id,
      uid: row.uid,
      templateName: row.name,
      sourceLang: row.sourceLang,
      targetLangs: templateTargetLangs(row),
      owner: users(row.ownerId),
      client: refs.client,
      domain: refs.domain,
      subDomain: refs.subDomain,
      costCenter: refs.costCenter,
      businessUnit: refs.businessUnit,
      projectWorkflowSettings: {
        propagateTranslationsToLowerWfDuringUpdateSource: projectWorkflowSettingsOf(row).propagateTranslationsToLowerWfDuringUpdateSource,
      },
      note: row.note,
    };
  });
}

type AssignmentGroup = { targetLang: string | null; providers: ProviderReferenceDto[] };

/** Providers grouped by target language, in the order they were named. */
function groupByLanguage(assignments: { targetLang: string | null; provider: ProviderReferenceDto }[]): AssignmentGroup[] {
  const groups: AssignmentGroup[] = [];
  for (const { targetLang, provider } of assignments) {
    let group = groups.find((g) => g.targetLang === targetLang);
    if (!group) groups.push((group = { targetLang, providers: [] }));
    group.providers.push(provider);
  }
  return groups;
}

/** The template's providers, per step id ('' = the template without workflow). */
async function assignmentsOf(db: Kysely<DB>, templateId: Id): Promise<Map<string, AssignmentGroup[]>> {
  const rows = await db
    .selectFrom('templateAssignments')
    .leftJoin('users', 'users.id', 'templateAssignments.userId')
    .leftJoin('vendors', 'vendors.id', 'templateAssignments.vendorId')
    .leftJoin('organizations', 'organizations.id', 'vendors.vendorOrganizationId')
    .select([
      'templateAssignments.templateWorkflowStepId as stepId',
      'templateAssignments.targetLang',
      'users.id as userId',
      'users.uid as userUid',
      'users.userName',
      'users.firstName',
      'users.lastName',
      'users.email',
      'users.active',
      'vendors.id as vendorId',
      'vendors.uid as vendorUid',
      'organizations.name as vendorName',
    ])
    .where('templateAssignments.templateId', '=', templateId)
    .orderBy('templateAssignments.id')
    .execute();
  const byStep = new Map<string, { targetLang: string | null; provider: ProviderReferenceDto }[]>();
  for (const row of rows) {
    const provider: ProviderReferenceDto =
      row.userId !== null
        ? {
            type: 'USER',
            id: row.userId,
            uid: row.userUid!,
            userName: row.userName!,
            firstName: row.firstName!,
            lastName: row.lastName!,
            email: row.email!,
            active: bool(row.active),
          }
        : { type: 'VENDOR', id: String(row.vendorId), uid: row.vendorUid!, name: row.vendorName! };
    const key = row.stepId === null ? '' : row.stepId;
    byStep.set(key, [...(byStep.get(key) ?? []), { targetLang: row.targetLang, provider }]);
  }
  return new Map([...byStep].map(([key, list]) => [key, groupByLanguage(list)]));
}

async function stepsOf(db: Kysely<DB>, templateId: Id) {
  return db
    .selectFrom('templateWorkflowSteps')
    .innerJoin('workflowSteps', 'workflowSteps.id', 'templateWorkflowSteps.workflowStepId')
    .select([
      'templateWorkflowSteps.id as templateStepId',
      'templateWorkflowSteps.settings',
      'workflowSteps.id',
      'workflowSteps.uid',
      'workflowSteps.name',
      'workflowSteps.abbr',
      'workflowSteps.orderIndex',
      'workflowSteps.lqaEnabled',
    ])
    .where('templateWorkflowSteps.templateId', '=', templateId)
    .orderBy('templateWorkflowSteps.workflowLevel')
    .execute();
}

/** The full ProjectTemplate view of one template. */
export async function toTemplateDto(db: Kysely<DB>, organizationId: string, row: TemplateRow): Promise<ProjectTemplateDto> {
  const users = await userReferenceLookup(db, organizationId, [row.ownerId, row.createdById, row.lastModifiedById]);
  const refs = (await setupReferences(db, [row]))(row);
  const vendor = row.vendorId === null ? null : ((await vendorNames(db, [row.vendorId])).get(row.vendorId) ?? null);
  const steps = await stepsOf(db, row.id);
  const assignments = await assignmentsOf(db, row.id);
  const settings = parseTemplateSettings(row.settings);
  const modified = row.lastModifiedAt ?? row.createdAt;
  return {
    id: row.id,
    uid: row.uid,
    templateName: row.name,
    name: row.projectName,
    sourceLang: row.sourceLang,
    targetLangs: templateTargetLangs(row),
    note: row.note,
    useDynamicTitle: bool(row.useDynamicTitle),
    dynamicTitle: row.dynamicTitle,
    owner: users(row.ownerId),
    ...refs,
    vendor,
    createdBy: users(row.createdById),
    dateCreated: row.createdAt,
    modifiedBy: users(row.lastModifiedById ?? row.createdById),
    dateModified: modified,
    dateTimeModified: modified,
    workflowSteps: steps.map((s) => ({
      id: s.id,
      uid: s.uid,
      name: s.name,
      abbr: s.abbr,
      order: s.orderIndex,
      lqaEnabled: bool(s.lqaEnabled),
    })),
    workflowSettings: steps.map((s) => {
      const stepSettings = JSON.parse(s.settings) as { notifyProvider?: NotifyProvider | null; lqaProfile?: { uid?: unknown } | null };
      return {
        workflowStep: { id: s.id, uid: s.uid, name: s.name, order: s.orderIndex, lqaEnabled: bool(s.lqaEnabled) },
        assignedTo: assignments.get(s.templateStepId) ?? [],
        notifyProvider: stepSettings.notifyProvider ?? null,
        lqaProfile: typeof stepSettings.lqaProfile?.uid === 'string' ? { uid: stepSettings.lqaProfile.uid } : null,
      };
    }),
    projectWorkflowSettings: projectWorkflowSettingsOf(row),
    notifyProviders: (settings.notifyProviders as NotifyProvider | undefined) ?? null,
    assignedTo: assignments.get('') ?? [],
    fileHandover: bool(row.fileHandover),
    importSettings: null,
  };
}
