import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import { valueRequiredFor } from '../../../domain/custom-fields/custom-field-values.js';
import type { CustomFieldDefinition, CustomFieldValue } from '../../../domain/custom-fields/custom-field-values.js';
import type { Caller } from '../../../http/access.js';
import { apiError, ApiError, errors, isCustomFieldRuleCode } from '../../../errors/index.js';
import type { ErrorCode } from '../../../errors/index.js';
import { checkedFieldValue, loadCustomField } from '../../organization-setup/custom-fields/index.js';
import { toCustomFieldDtos } from '../../organization-setup/custom-fields/index.js';
import type { CustomFieldDto, CustomFieldOptionDto } from '../../organization-setup/custom-fields/index.js';
import type { CustomFieldRow } from '../../organization-setup/custom-fields/index.js';
import { referenceNotFound } from '../../organization-setup/setup-records/index.js';
import {
  deleteValues,
  findValueOfField,
  ownerColumns,
  replaceSelectedOptions,
  selectedOptionUids,
  valuesOf,
} from './custom-field-instances.repository.js';
import type { CustomFieldOwner, CustomFieldValueRow } from './custom-field-instances.repository.js';

/**
 * Custom field values of projects, templates and jobs (docs/custom-fields.md, "Values on
 * records"). The instance operations of the three record kinds use these functions, and so do
 * the project operations that take `customFields` in their body (create v3, PUT v2): call them in
 * the transaction that writes the record, after the caller's access to it was checked.
 */

export type { CustomFieldOwner, CustomFieldOwnerKind } from './custom-field-instances.repository.js';

/** One value as request bodies give it (CreateCustomFieldInstanceDto). */
export interface CustomFieldInstanceInput {
  customField: { uid: string };
  selectedOptions?: readonly { uid: string }[] | null | undefined;
  value?: string | null | undefined;
}

/**
 * - `add`: every field must be new on the record (400 CustomFieldAlreadySet otherwise);
 * - `merge`: sets the given fields, creating or replacing their values; others stay;
 * - `replace`: the record ends up with exactly the given fields; the others' values are removed.
 */
export type WriteMode = 'add' | 'merge' | 'replace';

/** Spec definition CustomFieldInstanceDto. */
export interface CustomFieldInstanceDto {
  uid: string;
  customField: CustomFieldDto;
  selectedOptions: CustomFieldOptionDto[];
  value: string | null;
  createdAt: string;
  createdBy: { uid: string } | null;
  updatedAt: string;
  updatedBy: { uid: string } | null;
}

/**
 * Required fields apply to projects only: the published `allowedEntities` has only PROJECT, and
 * a template or a job is complete without the project's fields (a template passes on what it has).
 */
function definitionFor(owner: CustomFieldOwner, definition: CustomFieldDefinition): CustomFieldDefinition {
  return owner.kind === 'project' ? definition : { ...definition, required: false };
}

/**
 * What setting custom field values on a record may answer (400 each): an unknown field, a field
 * given twice or already set, and the value rules. The routes that take values declare them.
 */
export const CUSTOM_FIELD_VALUE_ERRORS = [
  'ReferenceNotFound',
  'CustomFieldAlreadySet',
  'DuplicateCustomField',
  'DuplicateSelectedOption',
  'InvalidDate',
  'InvalidNumber',
  'InvalidUrl',
  'OptionDeprecated',
  'OptionNotFound',
  'OptionsNotAllowed',
  'TooManySelectedOptions',
  'ValueNotAllowed',
  'ValueRequired',
  'ValueTooLong',
] as const satisfies readonly ErrorCode[];

/** A rule error of the value at `path` (e.g. `customFieldInstances[2]`), its details naming that input. */
function atInput<T>(path: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (!(error instanceof ApiError) || !isCustomFieldRuleCode(error.errorCode)) throw error;
    const [detail] = error.details;
    throw apiError(error.errorCode, {
      field: `${path}.${detail?.field ?? ''}`,
      reason: `${path}: ${error.message}`,
      detail: detail?.message ?? error.message,
    });
  }
}

const valueRequired = (path: string, fieldName: string) =>
  errors.ValueRequired({
    field: path,
    reason: `${path}: the field "${fieldName}" is required: its value cannot be removed.`,
    detail: 'required field',
  });

async function previousValue(db: Kysely<DB>, row: CustomFieldValueRow | undefined): Promise<CustomFieldValue | null> {
  if (!row) return null;
  const options = await selectedOptionUids(db, [row.id]);
  return { selectedOptionUids: options.get(row.id) ?? [], value: row.value };
}

/** Inserts or updates the value of one field on `owner`; returns its row. */
async function storeValue(
  deps: AppDeps,
  trx: Kysely<DB>,
  caller: Caller,
  owner: CustomFieldOwner,
  field: CustomFieldRow,
  existing: CustomFieldValueRow | undefined,
  value: CustomFieldValue,
): Promise<CustomFieldValueRow> {
  const now = deps.clock().toISOString();
  const row = existing
    ? await trx
        .updateTable('customFieldValues')
        .set({ value: value.value, lastModifiedAt: now, lastModifiedById: caller.userId })
        .where('id', '=', existing.id)
        .returningAll()
        .executeTakeFirstOrThrow()
    : await trx
        .insertInto('customFieldValues')
        .values({
          uid: newUid(),
          organizationId: caller.organizationId,
          customFieldId: field.id,
          ...ownerColumns(owner),
          value: value.value,
          createdAt: now,
          createdById: caller.userId,
          lastModifiedAt: now,
          lastModifiedById: caller.userId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
  await replaceSelectedOptions(trx, row.id, field.id, value.selectedOptionUids);
  return row;
}

/**
 * Sets one field's value on `owner` from `input` (the request's element at `path`): the field
 * must be one of the organization's (400 ReferenceNotFound), and the value must pass the field's
 * rules (400 with the rule's code). `mustBeNew` refuses a field the record already has.
 */
export async function writeCustomFieldValue(
  deps: AppDeps,
  trx: Kysely<DB>,
  caller: Caller,
  owner: CustomFieldOwner,
  input: CustomFieldInstanceInput,
  path: string,
  mustBeNew = false,
): Promise<CustomFieldValueRow> {
  const loaded = await loadCustomField(trx, caller.organizationId, input.customField.uid);
  if (!loaded) throw referenceNotFound(`${path}.customField`, 'custom field', input.customField.uid);
  const existing = await findValueOfField(trx, owner, loaded.row.id);
  if (existing && mustBeNew) {
    throw errors.CustomFieldAlreadySet({ field: path, fieldName: loaded.row.name, instanceUid: existing.uid });
  }
  const previous = await previousValue(trx, existing);
  const requested = { selectedOptionUids: (input.selectedOptions ?? []).map((o) => o.uid), value: input.value ?? null };
  const stored = atInput(path, () => checkedFieldValue(definitionFor(owner, loaded.definition), previous, requested, owner.createdAt));
  return storeValue(deps, trx, caller, owner, loaded.row, existing, stored);
}

/**
 * Removes values of `owner`; 400 ValueRequired when one belongs to a field the record must have
 * (a required field, on a project created at or after the field's `requiredFrom`).
 */
export async function removeCustomFieldValues(
  trx: Kysely<DB>,
  owner: CustomFieldOwner,
  rows: readonly CustomFieldValueRow[],
  path: string,
): Promise<void> {
  if (rows.length === 0) return;
  if (owner.kind === 'project') {
    const fields = await trx
      .selectFrom('customFields')
      .select(['id', 'name', 'required', 'requiredFrom'])
      .where(
        'id',
        'in',
        rows.map((r) => r.customFieldId),
      )
      .execute();
    const blocking = fields.find((f) => valueRequiredFor({ required: bool(f.required), requiredFrom: f.requiredFrom }, owner.createdAt));
    if (blocking) throw valueRequired(path, blocking.name);
  }
  await deleteValues(
    trx,
    rows.map((r) => r.id),
  );
}

function assertDistinctFields(inputs: readonly CustomFieldInstanceInput[], path: string): void {
  const seen = new Set<string>();
  inputs.forEach((input, index) => {
    if (seen.has(input.customField.uid)) {
      throw errors.DuplicateCustomField({ field: `${path}[${index}]`, fieldUid: input.customField.uid });
    }
    seen.add(input.customField.uid);
  });
}

/**
 * Writes `inputs` as the values of `owner` in `mode` (see WriteMode), all or nothing in the
 * caller's transaction. `path` names the request's list in error details (default
 * `customFields`). Emits no event: the operation that called it announces its own change.
 * Returns the rows written, in the order of `inputs`.
 */
export async function writeCustomFieldValues(
  deps: AppDeps,
  trx: Kysely<DB>,
  caller: Caller,
  owner: CustomFieldOwner,
  inputs: readonly CustomFieldInstanceInput[],
  mode: WriteMode,
  path = 'customFields',
): Promise<CustomFieldValueRow[]> {
  assertDistinctFields(inputs, path);
  const written: CustomFieldValueRow[] = [];
  for (const [index, input] of inputs.entries()) {
    written.push(await writeCustomFieldValue(deps, trx, caller, owner, input, `${path}[${index}]`, mode === 'add'));
  }
  if (mode === 'replace') {
    const kept = new Set(written.map((r) => r.id));
    const others = (await valuesOf(trx, owner)).filter((r) => !kept.has(r.id));
    await removeCustomFieldValues(trx, owner, others, path);
  }
  return written;
}

/**
 * 400 ValueRequired when a project lacks a value of a required field that applies to it; for
 * operations that make a project (create, apply template), after its values are written.
 */
export async function assertRequiredValuesSet(
  db: Kysely<DB>,
  organizationId: string,
  owner: CustomFieldOwner,
  path = 'customFields',
): Promise<void> {
  if (owner.kind !== 'project') return;
  const required = await db
    .selectFrom('customFields')
    .select(['id', 'name', 'requiredFrom'])
    .where('organizationId', '=', organizationId)
    .where('required', '=', true)
    .execute();
  if (required.length === 0) return;
  const have = new Set((await valuesOf(db, owner)).map((r) => r.customFieldId));
  const missing = required.find(
    (f) => !have.has(f.id) && valueRequiredFor({ required: true, requiredFrom: f.requiredFrom }, owner.createdAt),
  );
  if (missing) {
    throw errors.ValueRequired({
      field: path,
      reason: `The custom field "${missing.name}" is required: give it a value.`,
      detail: `missing required field "${missing.name}"`,
    });
  }
}

/** CustomFieldInstanceDto of value rows (fields, options and users in a few queries). */
export async function toInstanceDtos(db: Kysely<DB>, rows: readonly CustomFieldValueRow[]): Promise<CustomFieldInstanceDto[]> {
  if (rows.length === 0) return [];
  const fieldIds = [...new Set(rows.map((r) => r.customFieldId))];
  const fieldRows = await db.selectFrom('customFields').selectAll().where('id', 'in', fieldIds).execute();
  const organizationId = rows[0]!.organizationId;
  const fieldDtos = await toCustomFieldDtos(db, organizationId, fieldRows);
  const fields = new Map(fieldRows.map((row, i) => [row.id, fieldDtos[i]!]));
  const options = await selectedOptionRows(
    db,
    rows.map((r) => r.id),
  );
  const users = await userUids(
    db,
    rows.flatMap((r) => [r.createdById, r.lastModifiedById]),
  );
  return rows.map((row) => ({
    uid: row.uid,
    customField: fields.get(row.customFieldId)!,
    selectedOptions: options.get(row.id) ?? [],
    value: row.value,
    createdAt: row.createdAt,
    createdBy: users(row.createdById),
    updatedAt: row.lastModifiedAt,
    updatedBy: users(row.lastModifiedById),
  }));
}

/** Every value of `owner` as CustomFieldInstanceDto, in the order they were created. */
export async function customFieldInstanceDtos(db: Kysely<DB>, owner: CustomFieldOwner): Promise<CustomFieldInstanceDto[]> {
  return toInstanceDtos(db, await valuesOf(db, owner));
}

async function selectedOptionRows(db: Kysely<DB>, valueIds: readonly Id[]): Promise<Map<string, CustomFieldOptionDto[]>> {
  const rows = await db
    .selectFrom('customFieldValueOptions')
    .innerJoin('customFieldOptions', 'customFieldOptions.id', 'customFieldValueOptions.optionId')
    .select(['customFieldValueOptions.valueId', 'customFieldOptions.uid', 'customFieldOptions.value', 'customFieldOptions.deprecated'])
    .where('customFieldValueOptions.valueId', 'in', valueIds.map(String))
    .orderBy('customFieldOptions.id')
    .execute();
  const byValue = new Map<string, CustomFieldOptionDto[]>();
  for (const row of rows) {
    const list = byValue.get(row.valueId) ?? [];
    list.push({ uid: row.uid, value: row.value, deprecated: bool(row.deprecated) });
    byValue.set(row.valueId, list);
  }
  return byValue;
}

/** `createdBy` / `updatedBy` are UidReferences; a deleted user leaves null. */
async function userUids(db: Kysely<DB>, ids: ReadonlyArray<Id | null>): Promise<(id: Id | null) => { uid: string } | null> {
  const wanted = [...new Set(ids.filter((id): id is Id => id !== null).map(String))];
  const rows = wanted.length ? await db.selectFrom('users').select(['id', 'uid']).where('id', 'in', wanted).execute() : [];
  const byId = new Map(rows.map((r) => [r.id, r.uid]));
  return (id) => {
    const uid = id === null ? undefined : byId.get(id);
    return uid === undefined ? null : { uid };
  };
}
