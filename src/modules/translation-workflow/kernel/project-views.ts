import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { bool, num } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import { toUserReference } from '../../identity/users/index.js';
import type { UserRow } from '../../identity/users/index.js';
import type { UserReference } from '../../identity/users/index.js';
import type { ProjectRow, ProjectViewKind } from './access/project-access.js';
import { parseSettings, propagateTranslations } from './project-settings.js';
import type { ProjectV1, ProjectV2 } from './project-view.schemas.js';

/**
 * The published views of a project (AbstractProjectDto / AbstractProjectDtoV2, discriminated by
 * `userRole`; docs/projects.md): ADMIN, PROJECT_MANAGER, GUEST and SUBMITTER get the "Admin,
 * Project Manager" view with their role as `userRole`, LINGUIST the base fields only, and users of
 * a vendor organization the "Vendor" view (v1; v2 has no vendor subtype, so they get the manager
 * fields). Everything a page of views needs is loaded in a few queries, whatever its length.
 */

/** Job statuses that count as finished in `progress` (docs/projects.md). */
export const FINISHED_JOB_STATUSES = ['COMPLETED', 'DELIVERED'] as const;

export interface ViewTarget {
  project: ProjectRow;
  view: ProjectViewKind;
}

type Named = { id: string; uid: string; name: string };
type WorkflowStepRow = {
  projectId: Id;
  id: Id;
  workflowLevel: number;
  stepId: Id;
  stepUid: string;
  name: string;
  abbr: string;
  orderIndex: number;
  lqaEnabled: unknown;
};

interface ViewData {
  targetLangs: Map<string, string[]>;
  steps: Map<string, WorkflowStepRow[]>;
  references: Map<string, { id: Id; uid: string; filename: string; note: string | null; createdAt: string; createdById: Id | null }[]>;
  users: Map<string, UserRow>;
  named: Record<'clients' | 'businessUnits' | 'domains' | 'subDomains' | 'costCenters' | 'organizations', Map<string, Named>>;
  progress: Map<string, { totalCount: number; finishedCount: number; overdueCount: number }>;
  mtSettings: Map<string, MtAssignmentView[]>;
}

/** A row of `mt_settings_assignments` with the settings it names (written by the project-mt-settings module). */
type MtAssignmentView = { projectId: Id; targetLang: string | null; id: Id; uid: string; name: string; type: string };

const ids = (values: (Id | null)[]) => [...new Set(values.filter((v): v is Id => v !== null).map(String))];

function groupBy<T>(rows: T[], key: (row: T) => Id): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    map.set(k, [...(map.get(k) ?? []), row]);
  }
  return map;
}

type NamedTable = 'clients' | 'businessUnits' | 'domains' | 'subDomains' | 'costCenters' | 'organizations';

/** The named records the projects point at (client, business unit, domain, …), all kinds in one query. */
async function namedRows(db: Kysely<DB>, wanted: Record<NamedTable, string[]>): Promise<ViewData['named']> {
  const named = Object.fromEntries(Object.keys(wanted).map((table) => [table, new Map<string, Named>()])) as ViewData['named'];
  const selects = (Object.entries(wanted) as [NamedTable, string[]][])
    .filter(([, ids]) => ids.length > 0)
    .map(([table, ids]) =>
      db
        .selectFrom(table as 'clients')
        .select([sql.lit(table).as('kind'), 'id', 'uid', 'name'])
        .where('id', 'in', ids),
    );
  const [first, ...rest] = selects;
  if (!first) return named;
  const rows = await rest.reduce((query, next) => query.unionAll(next), first).execute();
  for (const row of rows) named[row.kind as NamedTable].set(row.id, { id: row.id, uid: row.uid, name: row.name });
  return named;
}

async function progressOf(db: Kysely<DB>, projectIds: string[], now: string) {
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => [
      'projectId',
      eb.fn.countAll().as('total'),
      eb.fn
        .sum(
          eb
            .case()
            .when('status', 'in', [...FINISHED_JOB_STATUSES])
            .then(1)
            .else(0)
            .end(),
        )
        .as('finished'),
      eb.fn
        .sum(
          eb
            .case()
            .when(
              eb.and([
                eb('status', 'not in', [...FINISHED_JOB_STATUSES, 'CANCELLED']),
                eb('dateDue', 'is not', null),
                eb('dateDue', '<', now),
              ]),
            )
            .then(1)
            .else(0)
            .end(),
        )
        .as('overdue'),
    ])
    .where('projectId', 'in', projectIds)
    .groupBy('projectId')
    .execute();
  return new Map(
    rows.map((r) => [
      r.projectId,
      { totalCount: num(r.total as number), finishedCount: num(r.finished as number), overdueCount: num(r.overdue as number) },
    ]),
  );
}

/** What the views of `projects` need, in seven queries whatever their number (run side by side where the driver allows). */
async function loadViewData(db: Kysely<DB>, projects: ProjectRow[], now: string): Promise<ViewData> {
  const projectIds = ids(projects.map((p) => p.id));
  if (projectIds.length === 0) {
    return {
      targetLangs: new Map(),
      steps: new Map(),
      references: new Map(),
      users: new Map(),
      named: await namedRows(db, NO_NAMED),
      progress: new Map(),
      mtSettings: new Map(),
    };
  }
  const [langs, steps, references, users, named, progress, mtSettings] = await Promise.all([
    db.selectFrom('projectTargetLanguages').selectAll().where('projectId', 'in', projectIds).orderBy('position').execute(),
    db
      .selectFrom('projectWorkflowSteps as pws')
      .innerJoin('workflowSteps as ws', 'ws.id', 'pws.workflowStepId')
      .select([
        'pws.projectId',
        'pws.id',
        'pws.workflowLevel',
        'ws.id as stepId',
        'ws.uid as stepUid',
        'ws.name',
        'ws.abbr',
        'ws.orderIndex',
        'ws.lqaEnabled',
      ])
      .where('pws.projectId', 'in', projectIds)
      .orderBy('pws.workflowLevel')
      .execute(),
    db
      .selectFrom('referenceFiles')
      .select(['id', 'uid', 'filename', 'note', 'createdAt', 'createdById', 'projectId'])
      .where('projectId', 'in', projectIds)
      .orderBy('id')
      .execute(),
    // Owners, creators and the creators of reference files. Ids come from the projects' own rows,
    // so the lookup needs no organization scope (a vendor's user sees the buyer's owner).
    db
      .selectFrom('users')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('id', 'in', ids(projects.flatMap((p) => [p.ownerId, p.createdById])).concat('-1')),
          eb('id', 'in', eb.selectFrom('referenceFiles').select('createdById').where('projectId', 'in', projectIds)),
        ]),
      )
      .execute(),
    namedRows(db, {
      clients: ids(projects.map((p) => p.clientId)),
      businessUnits: ids(projects.map((p) => p.businessUnitId)),
      domains: ids(projects.map((p) => p.domainId)),
      subDomains: ids(projects.map((p) => p.subDomainId)),
      costCenters: ids(projects.map((p) => p.costCenterId)),
      organizations: ids(projects.map((p) => p.organizationId)),
    }),
    progressOf(db, projectIds, now),
    db
      .selectFrom('mtSettingsAssignments as a')
      .innerJoin('mtSettings as m', 'm.id', 'a.mtSettingsId')
      .select(['a.projectId', 'a.targetLang', 'm.id', 'm.uid', 'm.name', 'm.type'])
      .where('a.projectId', 'in', projectIds)
      .orderBy('a.id')
      .execute(),
  ]);
  return {
    targetLangs: new Map([...groupBy(langs, (l) => l.projectId)].map(([k, v]) => [k, v.map((l) => l.targetLang)])),
    steps: groupBy(steps, (s) => s.projectId),
    references: groupBy(references, (r) => r.projectId!),
    users: new Map(users.map((u) => [u.id, u])),
    named,
    progress,
    mtSettings: groupBy(mtSettings as MtAssignmentView[], (m) => m.projectId),
  };
}

const NO_NAMED: Record<NamedTable, string[]> = {
  clients: [],
  businessUnits: [],
  domains: [],
  subDomains: [],
  costCenters: [],
  organizations: [],
};

const lookupIn = <T>(map: Map<string, T>, id: Id | null): T | null => (id === null ? null : (map.get(id) ?? null));

function userRef(data: ViewData, id: Id | null): UserReference | null {
  const user = lookupIn(data.users, id);
  return user ? toUserReference(user) : null;
}

/**
 * MTSettingsPerLanguageReference of the project's MT settings: one entry with `targetLang` null
 * (every target language), or one per target language in the project's order (per-language
 * entries win should both be stored).
 */
function mtSettingsView(data: ViewData, project: ProjectRow) {
  const rows = data.mtSettings.get(project.id) ?? [];
  const perLanguage = rows.filter((r) => r.targetLang !== null);
  const langs = (data.targetLangs.get(project.id) ?? []).map((l) => l.toLowerCase());
  const order = (lang: string) => {
    const i = langs.indexOf(lang.toLowerCase());
    return i < 0 ? langs.length : i;
  };
  const chosen = perLanguage.length
    ? [...perLanguage].sort((a, b) => order(a.targetLang!) - order(b.targetLang!))
    : rows.filter((r) => r.targetLang === null).slice(0, 1);
  return chosen.map((r) => ({
    targetLang: r.targetLang,
    machineTranslateSettings: { id: String(r.id), uid: r.uid, name: r.name, type: r.type },
  }));
}

function baseView(data: ViewData, project: ProjectRow, userRole: string) {
  const key = project.id;
  return {
    uid: project.uid,
    internalId: project.internalId,
    id: key,
    name: project.name,
    dateCreated: project.createdAt,
    domain: lookupIn(data.named.domains, project.domainId),
    subDomain: lookupIn(data.named.subDomains, project.subDomainId),
    owner: userRef(data, project.ownerId),
    sourceLang: project.sourceLang,
    targetLangs: data.targetLangs.get(key) ?? [],
    references: (data.references.get(key) ?? []).map((r) => ({
      id: r.id,
      uid: r.uid,
      filename: r.filename,
      note: r.note,
      dateCreated: r.createdAt,
      createdBy: userRef(data, r.createdById),
    })),
    mtSettingsPerLanguageList: mtSettingsView(data, project),
    userRole,
  };
}

function managerFields(data: ViewData, project: ProjectRow) {
  return {
    shared: project.vendorId !== null,
    progress: data.progress.get(project.id) ?? { totalCount: 0, finishedCount: 0, overdueCount: 0 },
    client: lookupIn(data.named.clients, project.clientId),
    costCenter: lookupIn(data.named.costCenters, project.costCenterId),
    businessUnit: lookupIn(data.named.businessUnits, project.businessUnitId),
    dateDue: project.dateDue,
    status: project.status,
    purchaseOrder: project.purchaseOrder,
    isPublishedOnJobBoard: false,
    note: project.note,
    createdBy: userRef(data, project.createdById),
    projectWorkflowSettings: { propagateTranslationsToLowerWfDuringUpdateSource: propagateTranslations(parseSettings(project.settings)) },
  };
}

const stepsOf = (data: ViewData, project: ProjectRow) => data.steps.get(project.id) ?? [];

function v1View(data: ViewData, target: ViewTarget, callerRole: string): ProjectV1 {
  const { project, view } = target;
  if (view === 'LINGUIST') return baseView(data, project, 'LINGUIST');
  const steps = stepsOf(data, project).map((s) => ({
    id: Number(s.id),
    abbreviation: s.abbr,
    name: s.name,
    workflowLevel: s.workflowLevel,
    workflowStep: { id: s.stepId, uid: s.stepUid },
  }));
  const common = {
    ...baseView(data, project, view === 'VENDOR' ? 'VENDOR' : callerRole),
    ...managerFields(data, project),
    workflowSteps: steps,
    archived: bool(project.archived),
  };
  if (view !== 'VENDOR') return common;
  const owner = lookupIn(data.users, project.ownerId);
  return {
    ...common,
    buyerOwner: owner ? { type: 'USER', ...toUserReference(owner), active: bool(owner.active) } : null,
    buyer: lookupIn(data.named.organizations, project.organizationId),
  };
}

function v2View(data: ViewData, target: ViewTarget, callerRole: string): ProjectV2 {
  const { project, view } = target;
  if (view === 'LINGUIST') return baseView(data, project, 'LINGUIST');
  const steps = stepsOf(data, project).map((s) => ({
    id: Number(s.id),
    abbreviation: s.abbr,
    name: s.name,
    workflowLevel: s.workflowLevel,
    workflowStep: { id: s.stepId, uid: s.stepUid, name: s.name, order: s.orderIndex, lqaEnabled: bool(s.lqaEnabled as number) },
  }));
  return { ...baseView(data, project, view === 'VENDOR' ? 'VENDOR' : callerRole), ...managerFields(data, project), workflowSteps: steps };
}

/** The v1 views (AbstractProjectDto) of `targets` for `caller`, in order. */
export async function toProjectViewsV1(
  db: Kysely<DB>,
  caller: Pick<Caller, 'role'>,
  targets: ViewTarget[],
  now: string,
): Promise<ProjectV1[]> {
  const data = await loadViewData(
    db,
    targets.map((t) => t.project),
    now,
  );
  return targets.map((target) => v1View(data, target, caller.role));
}

/** The v2 views (AbstractProjectDtoV2) of `targets` for `caller`, in order. */
export async function toProjectViewsV2(
  db: Kysely<DB>,
  caller: Pick<Caller, 'role'>,
  targets: ViewTarget[],
  now: string,
): Promise<ProjectV2[]> {
  const data = await loadViewData(
    db,
    targets.map((t) => t.project),
    now,
  );
  return targets.map((target) => v2View(data, target, caller.role));
}

/** The project as webhook payloads carry it: the full v1 manager view. */
export async function projectEventRecord(db: Kysely<DB>, project: ProjectRow, now: string): Promise<ProjectV1> {
  return (await toProjectViewsV1(db, { role: 'ADMIN' }, [{ project, view: 'MANAGER' }], now))[0]!;
}
