import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { isUniqueViolation } from '../../../db/constraint-errors.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import type { Db } from '../../../queue/types.js';
import {
  deleteDueDateSchemeRow,
  dueDateSchemeNameTaken,
  findDueDateScheme,
  insertDueDateScheme,
  insertSchemeSteps,
  workflowStepIdsByUid,
} from './due-date-schemes.repository.js';
import type { DueDateSchemeRow } from './due-date-schemes.repository.js';
import type { CreateDueDateSchemeBody } from './due-date-schemes.schemas.js';

type CreateBody = Static<typeof CreateDueDateSchemeBody>;

const nameAlreadyExists = (name: string) => errors.NameAlreadyExists({ what: 'a due date scheme', name });

/** The body's offsets with the ids of their workflow steps (400 on unknown or repeated steps). */
async function resolveOffsets(db: Db, caller: Caller, body: CreateBody) {
  const entries = body.workflowSteps ?? [];
  const uids = entries.map((e) => e.workflowStep.uid);
  const repeated = uids.find((uid, index) => uids.indexOf(uid) !== index);
  if (repeated)
    throw errors.InvalidArguments({
      reason: `The workflow step ${repeated} is listed twice.`,
      details: [{ field: 'workflowSteps', message: `${repeated} listed twice` }],
    });
  if (uids.length === 0) return [];
  const found = await workflowStepIdsByUid(db, caller.organizationId, uids);
  const missing = uids.find((uid) => !found.has(uid));
  if (missing) {
    throw errors.ReferenceNotFound({ what: 'workflow step', key: missing, field: 'workflowSteps' });
  }
  return entries.map((e) => ({
    workflowStepId: found.get(e.workflowStep.uid)!,
    offsetDays: e.offsetDays ?? 0,
    offsetHours: e.offsetHours ?? 0,
  }));
}

/** The organization's scheme, or 404. */
export async function getDueDateScheme(deps: AppDeps, caller: Caller, uid: string): Promise<DueDateSchemeRow> {
  const row = await findDueDateScheme(deps.database.db, caller.organizationId, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Due date scheme' });
  return row;
}

/** The name is unique in the organization, ignoring case (409); workflow steps are named by uid, at most once each (400). */
export async function createDueDateScheme(deps: AppDeps, caller: Caller, body: CreateBody): Promise<DueDateSchemeRow> {
  const name = body.name.trim();
  if (name === '')
    throw errors.InvalidArguments({ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] });
  try {
    return await deps.database.db.transaction().execute(async (trx) => {
      if (await dueDateSchemeNameTaken(trx, caller.organizationId, name)) throw nameAlreadyExists(name);
      const offsets = await resolveOffsets(trx, caller, body);
      const scheme = await insertDueDateScheme(trx, {
        organizationId: caller.organizationId,
        name,
        description: body.description ?? null,
        createdAt: deps.clock().toISOString(),
        createdById: caller.userId,
      });
      await insertSchemeSteps(
        trx,
        offsets.map((o) => ({ ...o, dueDateSchemeId: scheme.id })),
      );
      return scheme;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameAlreadyExists(name);
    throw error;
  }
}

/** Deletes the scheme with its offsets. */
export async function deleteDueDateScheme(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  const row = await getDueDateScheme(deps, caller, uid);
  await deleteDueDateSchemeRow(deps.database.db, row.id);
}
