import type { Kysely, Updateable } from 'kysely';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { isUniqueViolation } from '../../../db/constraint-errors.js';
import type { DB } from '../../../db/schema.js';
import type { ServicesTable } from '../../../db/tables/vendors.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { pricingReferenceColumn, referenceNotFound, resolveReferences } from '../setup-records/index.js';
import {
  deleteServicesByIds,
  findProjectTemplate,
  findService,
  findServicesByUids,
  insertService,
  replaceServiceWorkflowSteps,
  serviceNameTaken,
  updateService,
} from './services.repository.js';
import type { ServiceRow } from './services.repository.js';
import type { CreateServiceBody, UpdateServiceBody } from './services.schemas.js';

const nameAlreadyExists = (name: string) => errors.NameAlreadyExists({ what: 'a service', name });

type ServiceFields = Static<typeof UpdateServiceBody>;

/** The organization's service, or 404. */
export async function getService(deps: AppDeps, caller: Caller, uid: string): Promise<ServiceRow> {
  const row = await findService(deps.database.db, caller.organizationId, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Service' });
  return row;
}

/**
 * Creates (existing = null) or partially updates a service in one transaction: fields left out
 * keep their values, a bad reference or a taken name changes nothing.
 */
async function write(deps: AppDeps, caller: Caller, body: ServiceFields, existing: ServiceRow | null): Promise<ServiceRow> {
  if (body.name !== undefined && body.name.trim() === '')
    throw errors.InvalidArguments({ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] });
  const now = deps.clock().toISOString();
  try {
    return await deps.database.db.transaction().execute(async (trx: Kysely<DB>) => {
      if (body.name !== undefined && (await serviceNameTaken(trx, caller.organizationId, body.name, existing?.id)))
        throw nameAlreadyExists(body.name);
      const stepIds =
        body.workflowSteps === undefined
          ? undefined
          : await resolveReferences(trx, caller.organizationId, 'workflowStep', 'workflowSteps', body.workflowSteps);
      const changes: Updateable<ServicesTable> = { lastModifiedAt: now, lastModifiedById: caller.userId };
      if (body.name !== undefined) changes.name = body.name;
      if (body.description !== undefined) changes.description = body.description;
      if (body.active !== undefined) changes.active = body.active;
      const priceListId = await pricingReferenceColumn(trx, caller.organizationId, 'priceList', 'priceList', body.priceList);
      if (priceListId !== undefined) changes.priceListId = priceListId;
      if (body.projectTemplate === null) changes.projectTemplateId = null;
      else if (body.projectTemplate !== undefined) {
        const template = await findProjectTemplate(trx, caller.organizationId, body.projectTemplate.uid);
        if (!template) throw referenceNotFound('projectTemplate', 'project template', body.projectTemplate.uid);
        changes.projectTemplateId = template.id;
      }
      const row = existing
        ? await updateService(trx, existing.id, changes)
        : await insertService(trx, {
            organizationId: caller.organizationId,
            name: body.name!,
            description: body.description ?? null,
            active: body.active ?? true,
            priceListId: priceListId ?? null,
            projectTemplateId: changes.projectTemplateId ?? null,
            createdAt: now,
            createdById: caller.userId,
            lastModifiedAt: now,
            lastModifiedById: caller.userId,
          });
      if (stepIds !== undefined) await replaceServiceWorkflowSteps(trx, row.id, stepIds);
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error) && body.name !== undefined) throw nameAlreadyExists(body.name);
    throw error;
  }
}

/** Names are unique in the organization, ignoring case (409); a price list or template the organization does not have is 400. */
export function createService(deps: AppDeps, caller: Caller, body: Static<typeof CreateServiceBody>): Promise<ServiceRow> {
  return write(deps, caller, body, null);
}

/** A partial update: fields left out keep their values; null clears; workflowSteps, when given, replaces the list. */
export async function editService(deps: AppDeps, caller: Caller, uid: string, body: ServiceFields): Promise<ServiceRow> {
  const existing = await getService(deps, caller, uid);
  return write(deps, caller, body, existing);
}

/** Deletes the services, all or none: 404 naming the uids that are not services of the organization. */
export async function deleteServices(deps: AppDeps, caller: Caller, requested: string[]): Promise<void> {
  const db = deps.database.db;
  const uids = [...new Set(requested)];
  const rows = await findServicesByUids(db, caller.organizationId, uids);
  const found = new Set(rows.map((r) => r.uid));
  const missing = uids.filter((uid) => !found.has(uid));
  if (missing.length) {
    throw errors.ResourceNotFound({ what: 'Service', uids: missing, field: 'services' });
  }
  await deleteServicesByIds(
    db,
    rows.map((r) => r.id),
  );
}
