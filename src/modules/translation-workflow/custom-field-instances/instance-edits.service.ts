import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import type { PageRequest } from '../../../http/paging.js';
import { fieldUidOf, findValue, listValues, userIdsOf } from './custom-field-instances.repository.js';
import type { CustomFieldOwner, CustomFieldValueRow } from './custom-field-instances.repository.js';
import type { CustomFieldInstanceInput } from './custom-field-instances.service.js';
import { removeCustomFieldValues, writeCustomFieldValue, writeCustomFieldValues } from './custom-field-instances.service.js';
import type { InstanceListQuery, UpdateInstanceBody, UpdateInstancesBody } from './custom-field-instances.schemas.js';
import type { ResolvedOwner } from './owner-kinds.js';

/**
 * The instance kit's use cases on a record the kernel already loaded for the request
 * (owner-kinds.ts): each change runs in one transaction that announces it when something changed
 * (docs/custom-fields.md, "Values on records").
 */

/** One page of the record's values, filtered by creator / last editor (user uids) and sorted. */
export async function instancePage(
  db: Kysely<DB>,
  caller: Caller,
  owner: CustomFieldOwner,
  query: Static<typeof InstanceListQuery>,
  page: PageRequest,
) {
  const filter = {
    createdByIds: await userIdsOf(db, caller.organizationId, query.createdBy),
    modifiedByIds: await userIdsOf(db, caller.organizationId, query.modifiedBy),
    sortField: query.sortField,
    sortTrend: query.sortTrend,
  };
  return listValues(db, owner, filter, page);
}

/** The record's instance `uid`; 404 when it has none such. */
export async function requireInstance(db: Kysely<DB>, owner: CustomFieldOwner, uid: string): Promise<CustomFieldValueRow> {
  const row = await findValue(db, owner, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Custom field instance' });
  return row;
}

/** Runs a change of values in one transaction and announces it when something changed. */
async function change<T>(
  deps: AppDeps,
  caller: Caller,
  resolved: ResolvedOwner,
  work: (trx: Kysely<DB>) => Promise<{ result: T; changed: boolean }>,
): Promise<T> {
  const { result, changed } = await deps.database.db.transaction().execute(async (trx) => {
    const outcome = await work(trx);
    if (outcome.changed) await resolved.announce(deps, trx, caller);
    return outcome;
  });
  if (changed) deps.taskWakeup.notify();
  return result;
}

/** Adds values of fields the record does not have yet; answers the rows created. */
export function createInstances(
  deps: AppDeps,
  caller: Caller,
  resolved: ResolvedOwner,
  inputs: readonly CustomFieldInstanceInput[],
): Promise<CustomFieldValueRow[]> {
  return change(deps, caller, resolved, async (trx) => {
    const written = await writeCustomFieldValues(deps, trx, caller, resolved.owner, inputs, 'add', 'customFieldInstances');
    return { result: written, changed: written.length > 0 };
  });
}

/** An instance named in a batch edit that the record does not have: 400, naming the input. */
const notAnInstance = (field: string, uid: string) => errors.InstanceNotFound({ field, uid });

type BatchBody = Static<typeof UpdateInstancesBody>;

/**
 * The batch edit: removals first, then updates, then additions, all or nothing. An instance may
 * be named once; an update's `customField`, when given, must be the instance's field.
 */
async function applyBatch(deps: AppDeps, trx: Kysely<DB>, caller: Caller, owner: CustomFieldOwner, body: BatchBody): Promise<boolean> {
  const named = new Set<string>();
  const claim = (field: string, uid: string) => {
    if (named.has(uid)) throw errors.ConflictingInstanceEdits({ field, uid });
    named.add(uid);
  };
  const removals: CustomFieldValueRow[] = [];
  for (const [index, ref] of (body.removeInstances ?? []).entries()) {
    const field = `removeInstances[${index}]`;
    claim(field, ref.uid);
    const row = await findValue(trx, owner, ref.uid);
    if (!row) throw notAnInstance(field, ref.uid);
    removals.push(row);
  }
  await removeCustomFieldValues(trx, owner, removals, 'removeInstances');
  for (const [index, update] of (body.updateInstances ?? []).entries()) {
    const path = `updateInstances[${index}]`;
    claim(`${path}.customFieldInstance`, update.customFieldInstance.uid);
    const row = await findValue(trx, owner, update.customFieldInstance.uid);
    if (!row) throw notAnInstance(`${path}.customFieldInstance`, update.customFieldInstance.uid);
    const fieldUid = await fieldUidOf(trx, row);
    if (update.customField && update.customField.uid !== fieldUid) {
      throw errors.InvalidArguments({
        reason: `${path}: the instance holds the field ${fieldUid}, not ${update.customField.uid}.`,
        details: [{ field: `${path}.customField`, message: 'not the instance’s field' }],
      });
    }
    await writeCustomFieldValue(
      deps,
      trx,
      caller,
      owner,
      { customField: { uid: fieldUid }, selectedOptions: update.selectedOptions, value: update.value },
      path,
    );
  }
  const added = await writeCustomFieldValues(deps, trx, caller, owner, body.addInstances ?? [], 'add', 'addInstances');
  return removals.length + (body.updateInstances?.length ?? 0) + added.length > 0;
}

/** The batch edit (applyBatch) in one transaction. */
export async function editInstances(deps: AppDeps, caller: Caller, resolved: ResolvedOwner, body: BatchBody): Promise<void> {
  await change(deps, caller, resolved, async (trx) => ({
    result: null,
    changed: await applyBatch(deps, trx, caller, resolved.owner, body),
  }));
}

/** Sets the instance's value whole; answers its row. */
export function editInstance(
  deps: AppDeps,
  caller: Caller,
  resolved: ResolvedOwner,
  existing: CustomFieldValueRow,
  body: Static<typeof UpdateInstanceBody>,
): Promise<CustomFieldValueRow> {
  return change(deps, caller, resolved, async (trx) => {
    const input = { customField: { uid: await fieldUidOf(trx, existing) }, selectedOptions: body.selectedOptions, value: body.value };
    return { result: await writeCustomFieldValue(deps, trx, caller, resolved.owner, input, 'body'), changed: true };
  });
}

/** Removes the instance; `path` names it in a ValueRequired error. */
export async function deleteInstance(
  deps: AppDeps,
  caller: Caller,
  resolved: ResolvedOwner,
  row: CustomFieldValueRow,
  path: string,
): Promise<void> {
  await change(deps, caller, resolved, async (trx) => {
    await removeCustomFieldValues(trx, resolved.owner, [row], path);
    return { result: null, changed: true };
  });
}
