import { CustomFieldRuleError, isSelectType } from './custom-field-rules.js';
import type { CustomFieldType } from './custom-field-rules.js';
import type { CustomFieldRuleCode } from '../../errors/index.js';

/**
 * May this value be set on a record? The rules every record that stores custom-field values
 * (projects, project templates and jobs, issue 6) applies before writing one. Pure: the caller
 * loads the field (with all its options, deprecated ones included) and the record's current
 * value, and gets back the value to store or a CustomFieldRuleError (a 400; nothing written).
 *
 * The published instance DTOs carry `selectedOptions: [{uid}]` (select fields) and `value`
 * (string, at most 4096 characters; the other types).
 */

/** What these rules need to know of a field. */
export interface CustomFieldDefinition {
  type: CustomFieldType;
  required: boolean;
  /** When the field became required; records created before stay valid without a value. */
  requiredFrom: string | null;
  /** Every option of the field, deprecated ones included. */
  options: readonly { uid: string; deprecated: boolean }[];
}

/** A value as a record stores it. */
export interface CustomFieldValue {
  selectedOptionUids: string[];
  value: string | null;
}

/** A value as a request gives it (`selectedOptions` uids and/or `value`). */
export interface CustomFieldValueInput {
  selectedOptionUids?: readonly string[] | null | undefined;
  value?: string | null | undefined;
}

/** The published `value` of an instance is at most this long (CreateCustomFieldInstanceDto). */
export const VALUE_MAX_LENGTH = 4096;

/**
 * Whether `requestedOptionUids` may be the options selected on a record that has
 * `previouslySetOptionUids` now (pass [] for a new record):
 * - only SINGLE_SELECT and MULTI_SELECT fields take options (`OptionsNotAllowed`);
 * - each uid must be an option of this field (`OptionNotFound`), named once (`DuplicateSelectedOption`);
 * - a SINGLE_SELECT takes at most one (`TooManySelectedOptions`);
 * - a deprecated option cannot be newly set (`OptionDeprecated`), but stays valid on a record
 *   that already has it, so the record can be saved again unchanged.
 */
export function assertSettableOptions(
  field: Pick<CustomFieldDefinition, 'type' | 'options'>,
  previouslySetOptionUids: readonly string[],
  requestedOptionUids: readonly string[],
): void {
  if (!isSelectType(field.type)) {
    if (requestedOptionUids.length > 0) {
      throw new CustomFieldRuleError('OptionsNotAllowed', 'selectedOptions', `A ${field.type} field takes a value, not selected options.`);
    }
    return;
  }
  const options = new Map(field.options.map((o) => [o.uid, o]));
  const previous = new Set(previouslySetOptionUids);
  const seen = new Set<string>();
  requestedOptionUids.forEach((uid, index) => {
    const input = `selectedOptions[${index}]`;
    const option = options.get(uid);
    if (!option) throw new CustomFieldRuleError('OptionNotFound', input, `${input}: no option ${uid} in this field.`);
    if (seen.has(uid)) throw new CustomFieldRuleError('DuplicateSelectedOption', input, `${input}: option ${uid} is selected twice.`);
    seen.add(uid);
    if (option.deprecated && !previous.has(uid)) {
      throw new CustomFieldRuleError('OptionDeprecated', input, `${input}: option ${uid} is deprecated and cannot be newly selected.`);
    }
  });
  if (field.type === 'SINGLE_SELECT' && requestedOptionUids.length > 1) {
    throw new CustomFieldRuleError('TooManySelectedOptions', 'selectedOptions', 'A SINGLE_SELECT field takes at most one option.');
  }
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function invalidValue(code: CustomFieldRuleCode, message: string): CustomFieldRuleError {
  return new CustomFieldRuleError(code, 'value', message);
}

/**
 * The `value` to store for a field of a non-select type, or null for "no value" (null, absent
 * or empty). Per type:
 * - STRING: any text up to VALUE_MAX_LENGTH characters;
 * - NUMBER: a decimal number (`-12`, `3.5`, `1e3`), stored trimmed as given;
 * - URL: an absolute http or https URL with a host;
 * - DATE: an ISO 8601 date-time with a zone (`2026-11-21T12:00:00Z`, `…+01:00`), stored in UTC
 *   (`2026-11-21T11:00:00.000Z`).
 * Select fields take no value (`ValueNotAllowed`).
 */
export function normalizeFieldValue(field: Pick<CustomFieldDefinition, 'type'>, value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (isSelectType(field.type)) throw invalidValue('ValueNotAllowed', `A ${field.type} field takes selected options, not a value.`);
  if (value.length > VALUE_MAX_LENGTH) throw invalidValue('ValueTooLong', `value must be at most ${VALUE_MAX_LENGTH} characters.`);
  switch (field.type) {
    case 'STRING':
      return value;
    case 'NUMBER': {
      const trimmed = value.trim();
      if (!NUMBER.test(trimmed) || !Number.isFinite(Number(trimmed)))
        throw invalidValue('InvalidNumber', `value "${value}" is not a number.`);
      return trimmed;
    }
    case 'URL': {
      let url: URL;
      try {
        url = new URL(value.trim());
      } catch {
        throw invalidValue('InvalidUrl', `value "${value}" is not an absolute URL.`);
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
        throw invalidValue('InvalidUrl', `value "${value}" is not an http or https URL.`);
      }
      return value.trim();
    }
    case 'DATE': {
      const match = DATE_TIME.exec(value.trim());
      const at = Date.parse(value.trim());
      const [year, month, day, hour, minute, second] = match ? [1, 2, 3, 4, 5, 7].map((i) => Number(match[i] ?? 0)) : [];
      const valid =
        match !== null &&
        Number.isFinite(at) &&
        month! >= 1 &&
        month! <= 12 &&
        day! >= 1 &&
        day! <= daysIn(year!, month!) &&
        hour! <= 23 &&
        minute! <= 59 &&
        second! <= 59;
      if (!valid)
        throw invalidValue('InvalidDate', `value "${value}" is not an ISO 8601 date-time with a time zone (e.g. 2026-11-21T12:00:00Z).`);
      return new Date(at).toISOString();
    }
    default:
      throw invalidValue('ValueNotAllowed', `A ${field.type} field takes no value.`);
  }
}

/**
 * Whether a record created at `recordCreatedAt` must have a value of `field`: the field is
 * required and the record was created at or after `requiredFrom` (records created before the
 * field became required stay valid without one).
 */
export function valueRequiredFor(field: Pick<CustomFieldDefinition, 'required' | 'requiredFrom'>, recordCreatedAt: string): boolean {
  if (!field.required) return false;
  if (field.requiredFrom === null) return true;
  return Date.parse(recordCreatedAt) >= Date.parse(field.requiredFrom);
}

/**
 * The value to store when a request sets `requested` on a record that has `previous` (null for
 * none) and was created at `recordCreatedAt` (now, for a new record). Applies
 * `assertSettableOptions` and `normalizeFieldValue`, and refuses to leave a required field
 * empty on a record it is required for (`ValueRequired`).
 */
export function settableFieldValue(
  field: CustomFieldDefinition,
  previous: CustomFieldValue | null,
  requested: CustomFieldValueInput,
  recordCreatedAt: string,
): CustomFieldValue {
  const selectedOptionUids = [...(requested.selectedOptionUids ?? [])];
  assertSettableOptions(field, previous?.selectedOptionUids ?? [], selectedOptionUids);
  const value = normalizeFieldValue(field, requested.value);
  if (selectedOptionUids.length === 0 && value === null && valueRequiredFor(field, recordCreatedAt)) {
    throw new CustomFieldRuleError(
      'ValueRequired',
      isSelectType(field.type) ? 'selectedOptions' : 'value',
      'The field is required: it needs a value.',
    );
  }
  return { selectedOptionUids, value };
}
