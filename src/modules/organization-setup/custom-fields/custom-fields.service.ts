import type { Transaction } from 'kysely';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { isUniqueViolation } from '../../../db/constraint-errors.js';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import {
  deprecationMove,
  optionState,
  planOptionEdits,
  requiredFromAfter,
  validateNewOptions,
} from '../../../domain/custom-fields/custom-field-rules.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { withRuleErrors } from './custom-field-values.js';
import {
  deleteField,
  deleteOptions,
  fieldNameTaken,
  findField,
  findOption,
  insertField,
  insertOptions,
  optionsOf,
  setOptionValue,
  setOptionsDeprecated,
  touchField,
  updateField,
} from './custom-fields.repository.js';
import type { CustomFieldRow } from './custom-fields.repository.js';
import type { CreateCustomFieldBody, UpdateCustomFieldBody } from './custom-fields.schemas.js';

/** Custom fields' rules and transactions (issue 5; docs/custom-fields.md). */

const nameAlreadyExists = (name: string) => errors.NameAlreadyExists({ what: 'a custom field', name });

const duplicateOptionValue = () =>
  errors.DuplicateOptionValue({
    field: 'options',
    reason: 'Option values are unique in a field, ignoring case.',
    detail: 'duplicate value',
  });

/** Which unique index refused a write: the option values' or (otherwise) the field names'. */
const isOptionValueViolation = (error: unknown) => {
  const e = error as { constraint?: string; message?: string };
  return `${e.constraint ?? ''} ${e.message ?? ''}`.includes('custom_field_options');
};

function assertNameNotBlank(name: string | undefined): void {
  if (name !== undefined && name.trim() === '')
    throw errors.InvalidArguments({ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] });
}

/** Runs a write in one transaction; a unique index that refuses it answers like the checks before it. */
async function write<T>(deps: AppDeps, name: string | undefined, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  try {
    return await deps.database.db.transaction().execute(work);
  } catch (error) {
    if (isUniqueViolation(error)) {
      if (isOptionValueViolation(error)) throw duplicateOptionValue();
      if (name !== undefined) throw nameAlreadyExists(name);
    }
    throw error;
  }
}

/** The organization's field, or 404. */
export async function getCustomField(deps: AppDeps, caller: Caller, uid: string): Promise<CustomFieldRow> {
  const row = await findField(deps.database.db, caller.organizationId, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Custom field' });
  return row;
}

export async function createCustomField(
  deps: AppDeps,
  caller: Caller,
  body: Static<typeof CreateCustomFieldBody>,
): Promise<CustomFieldRow> {
  assertNameNotBlank(body.name);
  const options = withRuleErrors(() => validateNewOptions(body.type, body.options));
  const at = deps.clock().toISOString();
  const required = body.required ?? false;
  return write(deps, body.name, async (trx) => {
    if (await fieldNameTaken(trx, caller.organizationId, body.name)) throw nameAlreadyExists(body.name);
    const field = await insertField(trx, {
      organizationId: caller.organizationId,
      name: body.name,
      type: body.type,
      allowedEntities: JSON.stringify([...new Set(body.allowedEntities)]),
      required,
      requiredFrom: requiredFromAfter(false, null, required, at),
      description: body.description ?? null,
      createdAt: at,
      createdById: caller.userId,
      lastModifiedAt: at,
      lastModifiedById: caller.userId,
    });
    await insertOptions(trx, field.id, options, at);
    return field;
  });
}

/** A partial edit of the field and its options: all at once or not at all. */
export async function updateCustomField(
  deps: AppDeps,
  caller: Caller,
  uid: string,
  body: Static<typeof UpdateCustomFieldBody>,
): Promise<CustomFieldRow> {
  const current = await getCustomField(deps, caller, uid);
  if (body.type !== undefined && body.type !== current.type) {
    throw errors.TypeCannotChange({ type: current.type });
  }
  if ('options' in (body as Record<string, unknown>)) {
    throw errors.InvalidArguments({
      reason: 'Edit options with addOptions, updateOptions, removeOptions, deprecateOptions and undeprecateOptions.',
      details: [{ field: 'options', message: 'not accepted on edit' }],
    });
  }
  assertNameNotBlank(body.name);
  const at = deps.clock().toISOString();
  return write(deps, body.name, async (trx) => {
    if (body.name !== undefined && (await fieldNameTaken(trx, caller.organizationId, body.name, current.id)))
      throw nameAlreadyExists(body.name);
    const existing = await optionsOf(trx, current.id);
    const plan = withRuleErrors(() =>
      planOptionEdits(
        current.type,
        existing.map((o) => ({ uid: o.uid, value: o.value, deprecated: bool(o.deprecated) })),
        body,
      ),
    );
    const idOf = new Map(existing.map((o) => [o.uid, o.id]));
    if (plan.remove.length)
      await deleteOptions(
        trx,
        plan.remove.map((uid) => idOf.get(uid)!),
      );
    // Two steps, so that values may be swapped without meeting the unique index halfway (stored
    // values are trimmed, so the interim ` <uid>` is never one of them).
    for (const { uid } of plan.update) await setOptionValue(trx, idOf.get(uid)!, ` ${uid}`);
    for (const { uid, value } of plan.update) await setOptionValue(trx, idOf.get(uid)!, value);
    for (const [uids, deprecated] of [
      [plan.deprecate, true],
      [plan.reactivate, false],
    ] as const) {
      if (uids.length)
        await setOptionsDeprecated(
          trx,
          uids.map((uid) => idOf.get(uid)!),
          deprecated,
        );
    }
    await insertOptions(trx, current.id, plan.add, at);
    const wasRequired = bool(current.required);
    const required = body.required ?? wasRequired;
    return updateField(trx, current.id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.allowedEntities !== undefined ? { allowedEntities: JSON.stringify([...new Set(body.allowedEntities)]) } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      required,
      requiredFrom: requiredFromAfter(wasRequired, current.requiredFrom, required, at),
      lastModifiedAt: at,
      lastModifiedById: caller.userId,
    });
  });
}

/** Deprecates an option (or makes it active again); asking for the state it has changes nothing. */
export async function setCustomFieldOptionDeprecated(
  deps: AppDeps,
  caller: Caller,
  fieldUid: string,
  optionUid: string,
  deprecated: boolean,
): Promise<void> {
  const db = deps.database.db;
  const field = await getCustomField(deps, caller, fieldUid);
  const option = await findOption(db, field.id, optionUid);
  if (!option) throw errors.ResourceNotFound({ what: 'Custom field option' });
  const move = deprecationMove(optionState(bool(option.deprecated)), deprecated);
  if (move === 'UNCHANGED') return;
  await db.transaction().execute(async (trx) => {
    await setOptionsDeprecated(trx, [option.id], move === 'DEPRECATE');
    await touchField(trx, field.id, deps.clock().toISOString(), caller.userId);
  });
}

export async function deleteCustomField(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  const current = await getCustomField(deps, caller, uid);
  await deleteField(deps.database.db, current.id);
}
