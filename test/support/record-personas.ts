import { newUid } from '../../src/db/ids.js';
import type { UserRole } from '../../src/db/schema.js';
import { parseRoleSettings } from '../../src/domain/users/role-settings.js';
import type { RoleSettings } from '../../src/domain/users/role-settings.js';
import type { RecordRule } from '../../src/http/access.js';
import type { OrganizationRow } from '../../src/modules/identity/organizations/index.js';
import type { UserRow } from '../../src/modules/identity/users/index.js';
import { grantedPermissions, jobPermissions, reveals } from '../../src/modules/translation-workflow/kernel/index.js';
import type { Permission, RecordKind, Relation } from '../../src/modules/translation-workflow/kernel/index.js';
import { makeOrganization, makeUser } from '../factories.js';
import type { TestApp } from '../harness.js';
import { makeJobs, makeProject } from './workflow-factories.js';

/**
 * Record-level personas of the access matrix (issue 12, point 3): a linguist, a vendor and a buyer,
 * each calling every route that declares a record (`config.access.record`) on a record of their
 * own and on one that is not theirs. What each call must answer is read from the kernel's
 * permission table (workflow-permissions.ts) for the relations that hold between the persona and
 * the record, as set up here:
 *
 * - the linguist (LINGUIST of organization A) is a provider of every job of the matrix fixtures;
 * - the vendor (ADMIN of organization V) sees every fixture project, which organization A shares
 *   with V as its vendor;
 * - the buyer (PROJECT_MANAGER of organization A, without the rights on others' projects and
 *   templates) owns every fixture project and template.
 *
 * "Not theirs": a project of A that nobody shares, owns or provides (with a job), a job of the
 * shared fixture project that the linguist does not provide, and a template of A the buyer does
 * not own.
 */

export type PersonaName = 'linguist' | 'vendor' | 'buyer';
export type Slot = 'own' | 'other';

/** The relations that hold between a persona and the record of a slot, per record kind. */
interface SlotRelations {
  /** To the project of project routes. */
  readonly project: readonly Relation<'project'>[];
  /** To the project of the job of job routes, and whether the persona provides that job. */
  readonly jobProject: readonly Relation<'project'>[];
  readonly jobProvider: boolean;
  readonly template: readonly Relation<'template'>[];
}

export interface Persona {
  readonly name: PersonaName;
  readonly user: UserRow;
  readonly role: UserRole;
  readonly settings: RoleSettings;
  readonly relations: Readonly<Record<Slot, SlotRelations>>;
}

export type Expected = { outcome: 'allowed' } | { outcome: 'forbidden' } | { outcome: 'notFound'; label: string };

/** Which record label the kernel's 404 names for each kind. */
const LABEL: Record<RecordKind, string> = { project: 'Project', job: 'Job', template: 'Project template' };

/**
 * What the table says `persona` gets from a route needing `rule` on the record of `slot`; a second
 * record the route names (`rule.also`) is always the fixture's, checked when the first passes.
 */
export function expectedFor(persona: Persona, rule: RecordRule, slot: Slot): Expected {
  const first = expectedForOne(persona, rule, slot);
  return first.outcome === 'allowed' && rule.also ? expectedForOne(persona, rule.also, 'own') : first;
}

function expectedForOne(persona: Persona, rule: RecordRule, slot: Slot): Expected {
  const relations = persona.relations[slot];
  const subject = { role: persona.role, settings: persona.settings };
  const kind = rule.kind as RecordKind;
  const decide = <K extends RecordKind>(k: K, granted: Set<Permission<K>>): Expected => {
    if (!reveals(k, granted)) return { outcome: 'notFound', label: LABEL[k] };
    return granted.has(rule.need as Permission<K>) ? { outcome: 'allowed' } : { outcome: 'forbidden' };
  };
  if (kind === 'template')
    return decide(
      'template',
      grantedPermissions('template', subject, (r) => relations.template.includes(r)),
    );
  const project = grantedPermissions('project', subject, (r) => (kind === 'job' ? relations.jobProject : relations.project).includes(r));
  if (kind === 'project' || !reveals('project', project)) return decide('project', project);
  return decide('job', jobPermissions(project, relations.jobProvider, subject));
}

const NO_OTHER_RIGHTS = {
  projectViewOther: false,
  projectEditOther: false,
  projectDeleteOther: false,
  projectTemplateViewOther: false,
  projectTemplateEditOther: false,
  projectTemplateDeleteOther: false,
};

export interface PersonaSetup {
  readonly personas: readonly Persona[];
  /** The path parameter values naming the record of `persona`'s "other" slot. */
  otherParams(persona: Persona, rule: RecordRule): Record<string, string>;
  /** Puts the personas' relations back on every fixture record (routes called before may have changed them). */
  restoreRelations(): Promise<void>;
  /** Whether the record a route names still exists (a delete route called before may have removed it). */
  stillThere(rule: RecordRule, value: (param: string) => string): Promise<boolean>;
}

/** Creates the personas and the records that are not theirs, after the fixtures of organization A exist. */
export async function setUpPersonas(
  t: TestApp,
  organization: OrganizationRow,
  admin: UserRow,
  sharedProjectUid: string,
): Promise<PersonaSetup> {
  const db = t.database.db;
  const now = t.clock().toISOString();
  const settingsOf = (role: UserRole, rights: Record<string, boolean> = {}) => parseRoleSettings(role, JSON.stringify({ rights }));

  const linguist = await makeUser(db, organization, { role: 'LINGUIST' });
  const buyer = await makeUser(db, organization, { role: 'PROJECT_MANAGER' });
  const buyerSettings = settingsOf('PROJECT_MANAGER', NO_OTHER_RIGHTS);
  await db
    .updateTable('users')
    .set({ roleSettings: JSON.stringify(buyerSettings) })
    .where('id', '=', buyer.id)
    .execute();
  const vendorOrganization = await makeOrganization(db);
  const vendorAdmin = await makeUser(db, vendorOrganization, { role: 'ADMIN' });
  const vendorLink = await db
    .insertInto('vendors')
    .values({
      uid: newUid(),
      buyerOrganizationId: organization.id,
      vendorOrganizationId: vendorOrganization.id,
      vendorToken: `matrix-${newUid()}`,
      priceListId: null,
      netRateSchemeId: null,
      sourceLocales: '[]',
      targetLocales: '[]',
      buyerOwnerId: null,
      timezone: 'UTC',
      createdAt: now,
      createdById: admin.id,
      lastModifiedAt: now,
      lastModifiedById: admin.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  // The linguist provides a job in every fixture project: projects without one get a file of their own.
  const jobless = await db
    .selectFrom('projects')
    .selectAll()
    .where('organizationId', '=', organization.id)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('jobs').select('jobs.id').whereRef('jobs.projectId', '=', 'projects.id'))))
    .execute();
  for (const project of jobless) await makeJobs(t, project, { filename: 'matrix-linguist.txt', targetLangs: ['de'] });

  // Records that are not theirs: made after every fixture, so restoreRelations leaves them alone.
  const otherProject = await makeProject(t, organization.id, { createdById: admin.id, name: 'Matrix project of nobody' });
  const otherJob = (await makeJobs(t, otherProject, { createdById: admin.id, targetLangs: ['de'] })).jobs[0]!;
  const shared = await db.selectFrom('projects').selectAll().where('uid', '=', sharedProjectUid).executeTakeFirstOrThrow();
  const unprovidedJob = (await makeJobs(t, shared, { filename: 'matrix-not-the-linguists.txt', targetLangs: ['de'] })).jobs[0]!;
  const otherTemplate = await db
    .insertInto('projectTemplates')
    .values({
      uid: newUid(),
      organizationId: organization.id,
      name: 'Matrix template of nobody',
      createdAt: now,
      createdById: admin.id,
      sourceLang: 'en',
      targetLangs: JSON.stringify(['de']),
      lastModifiedAt: now,
    })
    .returning(['id', 'uid'])
    .executeTakeFirstOrThrow();
  const notTheirs = { projects: [otherProject.id], jobs: [otherJob.id, unprovidedJob.id], templates: [otherTemplate.id] };

  async function restoreRelations(): Promise<void> {
    await db
      .updateTable('projects')
      .set({ ownerId: buyer.id, vendorId: vendorLink.id })
      .where('organizationId', '=', organization.id)
      .where('id', 'not in', notTheirs.projects)
      .execute();
    await db
      .updateTable('projectTemplates')
      .set({ ownerId: buyer.id })
      .where('organizationId', '=', organization.id)
      .where('id', 'not in', notTheirs.templates)
      .execute();
    const unprovided = await db
      .selectFrom('jobs')
      .select('jobs.id')
      .where('jobs.organizationId', '=', organization.id)
      .where('jobs.id', 'not in', notTheirs.jobs)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('jobProviders')
              .select('jobProviders.id')
              .whereRef('jobProviders.jobId', '=', 'jobs.id')
              .where('jobProviders.userId', '=', linguist.id),
          ),
        ),
      )
      .execute();
    if (unprovided.length)
      await db
        .insertInto('jobProviders')
        .values(unprovided.map((j) => ({ jobId: j.id, userId: linguist.id, vendorId: null })))
        .execute();
  }
  await restoreRelations();

  async function stillThere(rule: RecordRule, value: (param: string) => string): Promise<boolean> {
    if (rule.also && !(await stillThere(rule.also, value))) return false;
    if (rule.kind === 'template') {
      return (
        (await db.selectFrom('projectTemplates').select('id').where('uid', '=', value(rule.params['template']!)).executeTakeFirst()) !==
        undefined
      );
    }
    const project = await db
      .selectFrom('projects')
      .select(['id', 'deletedAt'])
      .where('uid', '=', value(rule.params['project']!))
      .executeTakeFirst();
    if (!project || (project.deletedAt !== null && !rule.includeDeleted)) return false;
    if (rule.kind !== 'job') return true;
    return (
      (await db
        .selectFrom('jobs')
        .select('id')
        .where('uid', '=', value(rule.params['job']!))
        .where('projectId', '=', project.id)
        .executeTakeFirst()) !== undefined
    );
  }

  const personas: Persona[] = [
    {
      name: 'linguist',
      user: linguist,
      role: 'LINGUIST',
      settings: settingsOf('LINGUIST'),
      relations: {
        own: {
          project: ['organization', 'provider'],
          jobProject: ['organization', 'provider'],
          jobProvider: true,
          template: ['organization'],
        },
        // The other job is in the shared project, which the linguist sees through their other jobs.
        other: { project: ['organization'], jobProject: ['organization', 'provider'], jobProvider: false, template: ['organization'] },
      },
    },
    {
      name: 'vendor',
      user: vendorAdmin,
      role: 'ADMIN',
      settings: settingsOf('ADMIN'),
      relations: {
        own: { project: ['vendor'], jobProject: ['vendor'], jobProvider: false, template: [] },
        other: { project: [], jobProject: [], jobProvider: false, template: [] },
      },
    },
    {
      // Buyer last: its calls on its own records may delete them.
      name: 'buyer',
      user: buyer,
      role: 'PROJECT_MANAGER',
      settings: buyerSettings,
      relations: {
        own: {
          project: ['organization', 'owner', 'managed'],
          jobProject: ['organization', 'owner', 'managed'],
          jobProvider: false,
          template: ['organization', 'owner', 'managed'],
        },
        other: {
          project: ['organization', 'managed'],
          jobProject: ['organization', 'managed'],
          jobProvider: false,
          template: ['organization', 'managed'],
        },
      },
    },
  ];

  return {
    personas,
    restoreRelations,
    otherParams(persona, rule) {
      const p = rule.params;
      switch (rule.kind) {
        case 'project':
          return { [p['project']!]: otherProject.uid };
        case 'template':
          return { [p['template']!]: otherTemplate.uid };
        default:
          // Linguists: a job they do not provide in a project they see; the others: a job of a project they do not see.
          return persona.name === 'linguist'
            ? { [p['project']!]: sharedProjectUid, [p['job']!]: unprovidedJob.uid }
            : { [p['project']!]: otherProject.uid, [p['job']!]: otherJob.uid };
      }
    },
    stillThere,
  };
}
