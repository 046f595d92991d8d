import type { ExpressionBuilder, Kysely } from 'kysely';
import { num } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { containsText } from '../../../db/text-match.js';
import { normalizeLanguage } from '../../../domain/languages/supported-languages.js';
import type { Caller } from '../../../http/access.js';
import { pageWindow } from '../../../http/paging.js';
import type { ProjectRow } from '../kernel/index.js';
import { projectVisibilityContext, visibleProjects } from '../kernel/index.js';
import type { ListProjectsQuery } from './projects.schemas.js';

/**
 * listProjects: the projects the caller may see (project-access.ts), narrowed by the spec's
 * filters, newest first. Filter meanings follow the operation's description; the choices it
 * leaves open are in docs/projects.md.
 */

type Eb = ExpressionBuilder<DB, 'projects'>;

/** Job statuses of each `jobStatusGroup` (the linguist's project list groups). */
export const JOB_STATUS_GROUPS = { NEW: ['NEW', 'EMAILED'], ACCEPTED: ['ACCEPTED'], COMPLETED: ['COMPLETED', 'DELIVERED'] } as const;

const HOUR = 3_600_000;

/** `column` names a record of `table` whose name contains `name`. */
function namedLike(
  eb: Eb,
  column: 'clientId' | 'businessUnitId' | 'domainId' | 'subDomainId' | 'costCenterId',
  table: 'clients' | 'businessUnits' | 'domains' | 'subDomains' | 'costCenters',
  name: string,
) {
  return eb(
    `projects.${column}`,
    'in',
    eb
      .selectFrom(table as 'clients')
      .select('id')
      .where(containsText('name', name)),
  );
}

/** Projects with a job in one of `statuses` (for a linguist: one of their own jobs). */
function withJobStatus(eb: Eb, caller: Caller, statuses: readonly string[]) {
  let jobs = eb
    .selectFrom('jobs')
    .select('jobs.id')
    .whereRef('jobs.projectId', '=', 'projects.id')
    .where('jobs.status', 'in', [...statuses]);
  if (caller.role === 'LINGUIST') {
    jobs = jobs.where(
      'jobs.id',
      'in',
      eb.selectFrom('jobProviders').select('jobProviders.jobId').where('jobProviders.userId', '=', caller.userId),
    );
  }
  return eb.exists(jobs);
}

const canonical = (codes: readonly string[]) => codes.map((c) => normalizeLanguage(c) ?? c.toLowerCase());

function filters(eb: Eb, caller: Caller, query: ListProjectsQuery, now: Date) {
  const conditions = [];
  if (query.archivedOnly) conditions.push(eb('projects.archived', '=', true));
  else if (!query.includeArchived) conditions.push(eb('projects.archived', '=', false));
  if (query.name) conditions.push(containsText('projects.name', query.name));
  if (query.nameOrInternalId) {
    const internal = /^\d{1,9}$/.test(query.nameOrInternalId.trim())
      ? [eb('projects.internalId', '=', Number(query.nameOrInternalId.trim()))]
      : [];
    conditions.push(eb.or([containsText('projects.name', query.nameOrInternalId), ...internal]));
  }
  const byId = [
    ['clientId', query.clientId],
    ['businessUnitId', query.businessUnitId],
    ['domainId', query.domainId],
    ['subDomainId', query.subDomainId],
    ['costCenterId', query.costCenterId],
    ['ownerId', query.ownerId],
  ] as const;
  for (const [column, value] of byId) if (value !== undefined) conditions.push(eb(`projects.${column}`, '=', String(value)));
  if (query.clientName) conditions.push(namedLike(eb, 'clientId', 'clients', query.clientName));
  if (query.businessUnitName) conditions.push(namedLike(eb, 'businessUnitId', 'businessUnits', query.businessUnitName));
  if (query.domainName) conditions.push(namedLike(eb, 'domainId', 'domains', query.domainName));
  if (query.subDomainName) conditions.push(namedLike(eb, 'subDomainId', 'subDomains', query.subDomainName));
  if (query.costCenterName) conditions.push(namedLike(eb, 'costCenterId', 'costCenters', query.costCenterName));
  if (query.statuses?.length) conditions.push(eb('projects.status', 'in', query.statuses));
  if (query.sourceLangs?.length) conditions.push(eb('projects.sourceLang', 'in', canonical(query.sourceLangs)));
  if (query.targetLangs?.length) {
    conditions.push(
      eb(
        'projects.id',
        'in',
        eb.selectFrom('projectTargetLanguages').select('projectId').where('targetLang', 'in', canonical(query.targetLangs)),
      ),
    );
  }
  if (query.dueInHours !== undefined) {
    // -1: overdue (due before now); otherwise due within the next `dueInHours` hours, overdue ones included.
    const limit = query.dueInHours === -1 ? now : new Date(now.getTime() + query.dueInHours * HOUR);
    conditions.push(
      eb('projects.dateDue', 'is not', null),
      eb('projects.dateDue', query.dueInHours === -1 ? '<' : '<=', limit.toISOString()),
    );
  }
  if (query.createdInLastHours !== undefined)
    conditions.push(eb('projects.createdAt', '>=', new Date(now.getTime() - query.createdInLastHours * HOUR).toISOString()));
  if (query.jobStatuses?.length) conditions.push(withJobStatus(eb, caller, query.jobStatuses));
  if (query.jobStatusGroup) conditions.push(withJobStatus(eb, caller, JOB_STATUS_GROUPS[query.jobStatusGroup]));
  // A buyer, seen from the vendor's side (BuyerDto.id), is the vendor link the buyer shares projects through.
  if (query.buyerId !== undefined)
    conditions.push(eb('projects.vendorId', '=', String(query.buyerId)), eb('projects.organizationId', '!=', caller.organizationId));
  return eb.and(conditions);
}

export async function listVisibleProjects(
  db: Kysely<DB>,
  caller: Caller,
  query: ListProjectsQuery,
  now: Date,
): Promise<{ rows: ProjectRow[]; total: number }> {
  const context = await projectVisibilityContext(db, caller);
  const base = db
    .selectFrom('projects')
    .where((eb) => visibleProjects(eb, caller, context))
    .where((eb) => filters(eb, caller, query, now));
  const { offset, limit } = pageWindow(query);
  const total = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll('projects').orderBy('projects.id', 'desc').offset(offset).limit(limit).execute();
  return { rows, total: num(total.n as number) };
}
