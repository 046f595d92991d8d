import type { AppDeps } from '../../../deps.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../../db/constraint-errors.js';
import { deletionRefusal, nextOrder, normalizeWorkflowStepInput } from '../../../domain/workflow-steps/workflow-steps.js';
import type { WorkflowStepInput } from '../../../domain/workflow-steps/workflow-steps.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import type { Db } from '../../../queue/types.js';
import { forgetSettingReferences } from '../../identity/users/index.js';
import {
  additionalNameTaken,
  deleteAdditionalWorkflowStepRow,
  deleteWorkflowStepRow,
  findAdditionalWorkflowStep,
  findWorkflowStep,
  insertAdditionalWorkflowStep,
  insertWorkflowStep,
  lockWorkflowSteps,
  takenFields,
  updateWorkflowStep,
} from './workflow-steps.repository.js';
import type { AdditionalWorkflowStepRow, WorkflowStepRow } from './workflow-steps.repository.js';

const nameAlreadyExists = (name: string) => errors.NameAlreadyExists({ what: 'a workflow step', name });
const abbreviationAlreadyExists = (abbr: string) => errors.AbbreviationAlreadyExists({ abbr });
const additionalNameAlreadyExists = (name: string) => errors.NameAlreadyExists({ what: 'an additional workflow step', name });

/** The given fields, checked by the domain rules (400 listing every violation). */
function checkedWorkflowStepInput(input: WorkflowStepInput): WorkflowStepInput {
  const { value, violations } = normalizeWorkflowStepInput(input);
  if (violations.length > 0)
    throw errors.InvalidArguments({
      reason: `Invalid workflow step: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}.`,
      details: violations.map((v) => ({ ...v })),
    });
  return value;
}

/** 409 when another step of the organization has the name or the abbreviation. */
async function assertUnique(db: Db, organizationId: string, fields: WorkflowStepInput, exceptId?: WorkflowStepRow['id']): Promise<void> {
  const taken = await takenFields(db, organizationId, fields, exceptId);
  if (taken.name) throw nameAlreadyExists(fields.name!);
  if (taken.abbr) throw abbreviationAlreadyExists(fields.abbr!);
}

/** A unique index refused the write (a race lost to a concurrent request): the same 409 as the check. */
function uniqueRaceError(error: unknown, fields: WorkflowStepInput): unknown {
  if (!isUniqueViolation(error)) return error;
  const text = `${(error as { constraint?: string }).constraint ?? ''} ${(error as Error).message}`;
  if (text.includes('abbr') && fields.abbr !== undefined) return abbreviationAlreadyExists(fields.abbr);
  if (fields.name !== undefined) return nameAlreadyExists(fields.name);
  return error;
}

/** The organization's step, or 404. */
export async function getWorkflowStep(deps: AppDeps, caller: Caller, uid: string): Promise<WorkflowStepRow> {
  const row = await findWorkflowStep(deps.database.db, caller.organizationId, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Workflow step' });
  return row;
}

/** Without `order` the step comes after the last one. */
export async function createWorkflowStep(deps: AppDeps, caller: Caller, input: WorkflowStepInput): Promise<WorkflowStepRow> {
  const fields = checkedWorkflowStepInput(input);
  try {
    return await deps.database.db.transaction().execute(async (trx) => {
      await assertUnique(trx, caller.organizationId, fields);
      const existing = await lockWorkflowSteps(trx, deps.database.dialect, caller.organizationId);
      return insertWorkflowStep(trx, {
        organizationId: caller.organizationId,
        name: fields.name!,
        abbr: fields.abbr!,
        orderIndex: fields.order ?? nextOrder(existing.map((s) => s.orderIndex)),
        lqaEnabled: fields.lqaEnabled ?? false,
        createdAt: deps.clock().toISOString(),
        createdById: caller.userId,
      });
    });
  } catch (error) {
    throw uniqueRaceError(error, fields);
  }
}

/** Changes the fields given; the others stay. */
export async function editWorkflowStep(deps: AppDeps, caller: Caller, uid: string, input: WorkflowStepInput): Promise<WorkflowStepRow> {
  const fields = checkedWorkflowStepInput(input);
  const current = await getWorkflowStep(deps, caller, uid);
  if (Object.keys(fields).length === 0) return current;
  try {
    return await deps.database.db.transaction().execute(async (trx) => {
      await assertUnique(trx, caller.organizationId, fields, current.id);
      return updateWorkflowStep(trx, current.id, {
        ...(fields.name !== undefined ? { name: fields.name } : {}),
        ...(fields.abbr !== undefined ? { abbr: fields.abbr } : {}),
        ...(fields.order !== undefined ? { orderIndex: fields.order } : {}),
        ...(fields.lqaEnabled !== undefined ? { lqaEnabled: fields.lqaEnabled } : {}),
        lastModifiedAt: deps.clock().toISOString(),
        lastModifiedById: caller.userId,
      });
    });
  } catch (error) {
    throw uniqueRaceError(error, fields);
  }
}

/**
 * The organization keeps at least one step (400 LastWorkflowStep). The step leaves users'
 * settings; a step that projects or project templates use is not deleted (409 WorkflowStepInUse).
 */
export async function deleteWorkflowStep(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  const current = await getWorkflowStep(deps, caller, uid);
  try {
    await deps.database.db.transaction().execute(async (trx) => {
      const steps = await lockWorkflowSteps(trx, deps.database.dialect, caller.organizationId);
      if (deletionRefusal(steps.length)) throw errors.LastWorkflowStep();
      await forgetSettingReferences(trx, caller.organizationId, 'workflowStep', [current.uid]);
      await deleteWorkflowStepRow(trx, current.id);
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw errors.WorkflowStepInUse({ name: current.name });
    }
    throw error;
  }
}

/** The name is unique in the organization, ignoring case (409). */
export async function createAdditionalWorkflowStep(
  deps: AppDeps,
  caller: Caller,
  input: { name: string },
): Promise<AdditionalWorkflowStepRow> {
  const name = input.name.trim();
  if (name === '')
    throw errors.InvalidArguments({ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] });
  try {
    return await deps.database.db.transaction().execute(async (trx) => {
      if (await additionalNameTaken(trx, caller.organizationId, name)) throw additionalNameAlreadyExists(name);
      return insertAdditionalWorkflowStep(trx, {
        organizationId: caller.organizationId,
        name,
        createdAt: deps.clock().toISOString(),
        createdById: caller.userId,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw additionalNameAlreadyExists(name);
    throw error;
  }
}

export async function deleteAdditionalWorkflowStep(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  const db = deps.database.db;
  const row = await findAdditionalWorkflowStep(db, caller.organizationId, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Additional workflow step' });
  await deleteAdditionalWorkflowStepRow(db, row.id);
}
