import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { parseRoleSettings } from '../../../domain/users/role-settings.js';
import type { JobRow } from '../kernel/index.js';
import type { ProviderReference } from '../kernel/index.js';
import type { ProjectRow } from '../kernel/index.js';
import { linkReferenceIds } from '../../organization-setup/vendors/index.js';
import { rankProviders, relevance } from './provider-relevance.js';
import type { JobFacts, ProviderProfile, Ranked } from './provider-relevance.js';

/**
 * Suggested providers of jobs (ProviderListDtoV2): the organization's active linguists and its
 * active vendors, scored by provider-relevance.ts against every job.
 */

/** Kysely's `in` needs at least one value. */
const orNone = (ids: string[]) => (ids.length ? ids : ['-1']);

async function uidsById(
  db: Kysely<DB>,
  table: 'clients' | 'domains' | 'subDomains' | 'workflowSteps',
  ids: string[],
): Promise<Map<string, string>> {
  const rows = await db.selectFrom(table).select(['id', 'uid']).where('id', 'in', orNone(ids)).execute();
  return new Map(rows.map((r) => [r.id, r.uid]));
}

/** What the scoring compares for each job: languages, the job's workflow step and the project's client, domain, subdomain (uids). */
export async function jobFacts(db: Kysely<DB>, project: ProjectRow, jobs: readonly JobRow[]): Promise<JobFacts[]> {
  const steps = await db
    .selectFrom('projectWorkflowSteps')
    .innerJoin('workflowSteps', 'workflowSteps.id', 'projectWorkflowSteps.workflowStepId')
    .select(['projectWorkflowSteps.id', 'workflowSteps.uid'])
    .where('projectWorkflowSteps.projectId', '=', project.id)
    .execute();
  const stepUid = new Map(steps.map((s) => [s.id, s.uid]));
  const uidOf = async (table: 'clients' | 'domains' | 'subDomains', id: string | null) =>
    id === null ? null : ((await uidsById(db, table, [String(id)])).get(String(id)) ?? null);
  const [client, domain, subDomain] = await Promise.all([
    uidOf('clients', project.clientId),
    uidOf('domains', project.domainId),
    uidOf('subDomains', project.subDomainId),
  ]);
  return jobs.map((job) => ({
    sourceLang: project.sourceLang,
    targetLang: job.targetLang,
    workflowStep: job.projectWorkflowStepId === null ? null : (stepUid.get(job.projectWorkflowStepId) ?? null),
    client,
    domain,
    subDomain,
  }));
}

interface Candidate {
  provider: ProviderReference;
  name: string;
  profile: ProviderProfile;
}

async function linguistCandidates(db: Kysely<DB>, organizationId: string): Promise<Candidate[]> {
  const users = await db
    .selectFrom('users')
    .select(['id', 'uid', 'userName', 'firstName', 'lastName', 'email', 'active', 'roleSettings'])
    .where('organizationId', '=', organizationId)
    .where('role', '=', 'LINGUIST')
    .where('active', '=', true)
    .where('isBot', '=', false)
    .where('deletedAt', 'is', null)
    .execute();
  return users.map((user) => {
    const settings = parseRoleSettings('LINGUIST', user.roleSettings);
    const list = (name: string) => settings.referenceLists[name] ?? [];
    return {
      provider: {
        type: 'USER',
        id: user.id,
        uid: user.uid,
        userName: user.userName,
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
        active: bool(user.active),
      },
      name: user.userName,
      profile: {
        sourceLocales: settings.locales['sourceLocales'] ?? [],
        targetLocales: settings.locales['targetLocales'] ?? [],
        workflowSteps: list('workflowSteps'),
        clients: list('clients'),
        domains: list('domains'),
        subDomains: list('subDomains'),
      },
    };
  });
}

async function vendorCandidates(db: Kysely<DB>, organizationId: string): Promise<Candidate[]> {
  const vendors = await db
    .selectFrom('vendors')
    .innerJoin('organizations', 'organizations.id', 'vendors.vendorOrganizationId')
    .select(['vendors.id', 'vendors.uid', 'vendors.sourceLocales', 'vendors.targetLocales', 'vendors.buyerOwnerId', 'organizations.name'])
    .where('vendors.buyerOrganizationId', '=', organizationId)
    .where('vendors.active', '=', true)
    .execute();
  const refs = await linkReferenceIds(
    db,
    vendors.map((v) => v.id),
  );
  const all = (map: Map<string, string[]>) => [...map.values()].flat().map(String);
  const [clients, domains, subDomains, workflowSteps] = await Promise.all([
    uidsById(db, 'clients', all(refs.clients)),
    uidsById(db, 'domains', all(refs.domains)),
    uidsById(db, 'subDomains', all(refs.subDomains)),
    uidsById(db, 'workflowSteps', all(refs.workflowSteps)),
  ]);
  const uids = (map: Map<string, string[]>, lookup: Map<string, string>, vendorId: string) =>
    (map.get(vendorId) ?? []).map((id) => lookup.get(String(id))).filter((uid): uid is string => uid !== undefined);
  return vendors.map((vendor) => {
    const id = vendor.id;
    return {
      provider: {
        type: 'VENDOR',
        id,
        uid: vendor.uid,
        name: vendor.name,
        ...(vendor.buyerOwnerId === null ? {} : { defaultProjectOwnerId: Number(vendor.buyerOwnerId) }),
      },
      name: vendor.name,
      profile: {
        sourceLocales: JSON.parse(vendor.sourceLocales) as string[],
        targetLocales: JSON.parse(vendor.targetLocales) as string[],
        workflowSteps: uids(refs.workflowSteps, workflowSteps, id),
        clients: uids(refs.clients, clients, id),
        domains: uids(refs.domains, domains, id),
        subDomains: uids(refs.subDomains, subDomains, id),
      },
    };
  });
}

/** ProviderListDtoV2 of `jobs` of `project`; `limit` caps `relevant` (omitted: all of them). */
export async function suggestProviders(
  db: Kysely<DB>,
  project: ProjectRow,
  jobs: readonly JobRow[],
  limit: number | undefined,
): Promise<{ providers: { all: ProviderReference[]; relevant: ProviderReference[] } }> {
  const organizationId = project.organizationId;
  const [facts, linguists, vendors] = await Promise.all([
    jobFacts(db, project, jobs),
    linguistCandidates(db, organizationId),
    vendorCandidates(db, organizationId),
  ]);
  const ranked: Ranked<ProviderReference>[] = [...linguists, ...vendors].map((c) => ({
    provider: c.provider,
    name: c.name,
    score: relevance(c.profile, facts),
  }));
  return { providers: rankProviders(ranked, limit) };
}
