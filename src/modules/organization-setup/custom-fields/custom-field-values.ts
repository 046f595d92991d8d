import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { CustomFieldRuleError } from '../../../domain/custom-fields/custom-field-rules.js';
import { settableFieldValue } from '../../../domain/custom-fields/custom-field-values.js';
import type { CustomFieldDefinition, CustomFieldValue, CustomFieldValueInput } from '../../../domain/custom-fields/custom-field-values.js';
import { apiError } from '../../../errors/index.js';
import { fieldDefinition, findField } from './custom-fields.repository.js';
import type { CustomFieldRow } from './custom-fields.repository.js';

/**
 * The custom-field rules as the modules that store values on records (projects, project
 * templates, jobs: issue 6) call them. See docs/custom-fields.md, "Values on records".
 */

/** A broken custom-field rule as the API's 400 (`errorCode` = the rule's code; errorDetails name the input). */
export function ruleErrorToApi(error: unknown): unknown {
  if (!(error instanceof CustomFieldRuleError)) return error;
  return apiError(error.code, { field: error.field, reason: error.message });
}

/** Runs `work`, turning a CustomFieldRuleError into the API's 400. */
export function withRuleErrors<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw ruleErrorToApi(error);
  }
}

/** A field of the organization with what the value rules need, or undefined (another organization's field is not found). */
export async function loadCustomField(
  db: Kysely<DB>,
  organizationId: string,
  fieldUid: string,
): Promise<{ row: CustomFieldRow; definition: CustomFieldDefinition } | undefined> {
  const row = await findField(db, organizationId, fieldUid);
  return row ? { row, definition: await fieldDefinition(db, row) } : undefined;
}

/**
 * The value to store for `field` on a record created at `recordCreatedAt` that has `previous`
 * now (null: none), or a 400 ApiError. Issue 6 calls this in the transaction that writes the value.
 */
export function checkedFieldValue(
  field: CustomFieldDefinition,
  previous: CustomFieldValue | null,
  requested: CustomFieldValueInput,
  recordCreatedAt: string,
): CustomFieldValue {
  return withRuleErrors(() => settableFieldValue(field, previous, requested, recordCreatedAt));
}
