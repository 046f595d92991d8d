import type { CustomFieldRuleCode } from '../../errors/index.js';

/**
 * Custom fields: the organization's user-defined fields of records (issue 5; documented in
 * docs/custom-fields.md). Pure rules, no I/O: field types, the option lists of select fields
 * (create and edit), the option state machine (active <-> deprecated) and `requiredFrom`.
 * The rules about values stored on records are in ./custom-field-values.ts.
 */
export const CUSTOM_FIELD_TYPES = ['MULTI_SELECT', 'SINGLE_SELECT', 'STRING', 'NUMBER', 'URL', 'DATE'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** The records a field may be set on (the published enum names PROJECT only). */
export const CUSTOM_FIELD_ENTITIES = ['PROJECT'] as const;
export type CustomFieldEntity = (typeof CUSTOM_FIELD_ENTITIES)[number];

/** Types whose values are chosen from the field's options. */
export const SELECT_TYPES: readonly CustomFieldType[] = ['SINGLE_SELECT', 'MULTI_SELECT'];
export const isSelectType = (type: CustomFieldType): boolean => SELECT_TYPES.includes(type);

export const FIELD_NAME_MAX_LENGTH = 255;
export const FIELD_DESCRIPTION_MAX_LENGTH = 500;
export const OPTION_VALUE_MAX_LENGTH = 255;
/** Most options one field may have (an option list is meant for people to pick from). */
export const MAX_OPTIONS_PER_FIELD = 1000;
/** How many options CustomFieldDto shows in `options.truncatedOptions` (spec: "size 5"). */
export const TRUNCATED_OPTIONS = 5;

/**
 * A broken rule of custom fields: `code` is the API's errorCode (an entry of the catalogue's
 * custom field rules), `field` the input that broke it. Every rule error is a 400 (the module
 * turns it into one; nothing is written).
 */
export class CustomFieldRuleError extends Error {
  constructor(
    readonly code: CustomFieldRuleCode,
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'CustomFieldRuleError';
  }
}

// ---------------------------------------------------------------------------------------------
// Option state machine
// ---------------------------------------------------------------------------------------------

export type OptionState = 'ACTIVE' | 'DEPRECATED';
export type DeprecationMove = 'DEPRECATE' | 'REACTIVATE' | 'UNCHANGED';

export const optionState = (deprecated: boolean): OptionState => (deprecated ? 'DEPRECATED' : 'ACTIVE');

/**
 * The move `PUT …/deprecate {deprecated}` makes on an option (description, "States and
 * transitions"): active -> deprecated with true, deprecated -> active with false. Asking for
 * the state the option already has is allowed and changes nothing (UNCHANGED: the request
 * still answers 204, so a client may repeat it safely).
 */
export function deprecationMove(current: OptionState, deprecated: boolean): DeprecationMove {
  if (current === 'ACTIVE' && deprecated) return 'DEPRECATE';
  if (current === 'DEPRECATED' && !deprecated) return 'REACTIVATE';
  return 'UNCHANGED';
}

// ---------------------------------------------------------------------------------------------
// requiredFrom
// ---------------------------------------------------------------------------------------------

/**
 * `requiredFrom` after a write: the moment the field became required. Records created before
 * it stay valid without a value (see `valueRequiredFor`). Turning `required` on sets it to
 * `now`; keeping it on keeps it; turning it off clears it.
 */
export function requiredFromAfter(wasRequired: boolean, requiredFrom: string | null, required: boolean, now: string): string | null {
  if (!required) return null;
  return wasRequired && requiredFrom ? requiredFrom : now;
}

// ---------------------------------------------------------------------------------------------
// Option lists (create and edit)
// ---------------------------------------------------------------------------------------------

export interface ExistingOption {
  uid: string;
  value: string;
  deprecated: boolean;
}

/** The option edits of `updateCustomField` (docs/custom-fields.md, "Edit"). */
export interface OptionEdits {
  addOptions?: readonly string[] | undefined;
  updateOptions?: readonly { uid: string; value: string }[] | undefined;
  removeOptions?: readonly string[] | undefined;
  deprecateOptions?: readonly string[] | undefined;
  undeprecateOptions?: readonly string[] | undefined;
}

/** What an edit of the option list changes; options not named stay as they are. */
export interface OptionPlan {
  add: string[];
  update: { uid: string; value: string }[];
  remove: string[];
  deprecate: string[];
  reactivate: string[];
  /** How many options the field has afterwards. */
  count: number;
}

const EDIT_LISTS = ['addOptions', 'updateOptions', 'removeOptions', 'deprecateOptions', 'undeprecateOptions'] as const;

/** An option value as stored: surrounding white space is dropped; blank or too long is refused. */
export function normalizeOptionValue(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new CustomFieldRuleError('InvalidOptionValue', field, `${field} must not be blank.`);
  if (trimmed.length > OPTION_VALUE_MAX_LENGTH) {
    throw new CustomFieldRuleError('InvalidOptionValue', field, `${field} must be at most ${OPTION_VALUE_MAX_LENGTH} characters.`);
  }
  return trimmed;
}

const hasEdits = (edits: OptionEdits) => EDIT_LISTS.some((list) => (edits[list]?.length ?? 0) > 0);

/**
 * Checks an edit of a field's options against its current options and says what to write.
 * Throws CustomFieldRuleError when:
 * - the field is not a select field and any option edit is given (`OptionsNotAllowed`);
 * - a uid names no option of this field (`OptionNotFound`), or appears twice in one list, or is
 *   removed and edited at once, or deprecated and reactivated at once (`ConflictingOptionEdits`);
 * - a value is blank or longer than OPTION_VALUE_MAX_LENGTH (`InvalidOptionValue`);
 * - two options would have the same value ignoring case (`DuplicateOptionValue`);
 * - a select field would be left without options (`OptionsRequired`) or with more than
 *   MAX_OPTIONS_PER_FIELD (`TooManyOptions`).
 * Deprecating a deprecated option (or reactivating an active one) is no change, not an error.
 */
export function planOptionEdits(type: CustomFieldType, existing: readonly ExistingOption[], edits: OptionEdits): OptionPlan {
  const plan: OptionPlan = { add: [], update: [], remove: [], deprecate: [], reactivate: [], count: existing.length };
  if (!isSelectType(type)) {
    if (hasEdits(edits)) {
      const list = EDIT_LISTS.find((l) => (edits[l]?.length ?? 0) > 0)!;
      throw new CustomFieldRuleError(
        'OptionsNotAllowed',
        list,
        `Only SINGLE_SELECT and MULTI_SELECT fields have options; this field is ${type}.`,
      );
    }
    return plan;
  }
  const byUid = new Map(existing.map((o) => [o.uid, o]));
  const uidLists = {
    removeOptions: edits.removeOptions ?? [],
    updateOptions: (edits.updateOptions ?? []).map((u) => u.uid),
    deprecateOptions: edits.deprecateOptions ?? [],
    undeprecateOptions: edits.undeprecateOptions ?? [],
  };
  for (const [list, uids] of Object.entries(uidLists)) {
    const seen = new Set<string>();
    uids.forEach((uid, index) => {
      const field = `${list}[${index}]`;
      if (!byUid.has(uid)) throw new CustomFieldRuleError('OptionNotFound', field, `${field}: no option ${uid} in this field.`);
      if (seen.has(uid)) throw new CustomFieldRuleError('ConflictingOptionEdits', field, `${field}: option ${uid} is named twice.`);
      seen.add(uid);
    });
  }
  const removing = new Set(uidLists.removeOptions);
  const deprecating = new Set(uidLists.deprecateOptions);
  // A removed option cannot also be edited, and an option cannot be deprecated and reactivated at once.
  const conflicts: [keyof typeof uidLists, Set<string>, string][] = [
    ['updateOptions', removing, 'removeOptions'],
    ['deprecateOptions', removing, 'removeOptions'],
    ['undeprecateOptions', removing, 'removeOptions'],
    ['undeprecateOptions', deprecating, 'deprecateOptions'],
  ];
  for (const [list, other, otherName] of conflicts) {
    uidLists[list].forEach((uid, index) => {
      if (other.has(uid))
        throw new CustomFieldRuleError(
          'ConflictingOptionEdits',
          `${list}[${index}]`,
          `${list}[${index}]: option ${uid} is also in ${otherName}.`,
        );
    });
  }

  plan.remove = [...removing];
  plan.update = (edits.updateOptions ?? []).map((u, index) => ({
    uid: u.uid,
    value: normalizeOptionValue(u.value, `updateOptions[${index}].value`),
  }));
  plan.add = (edits.addOptions ?? []).map((value, index) => normalizeOptionValue(value, `addOptions[${index}]`));
  plan.deprecate = [...deprecating].filter((uid) => deprecationMove(optionState(byUid.get(uid)!.deprecated), true) === 'DEPRECATE');
  plan.reactivate = uidLists.undeprecateOptions.filter(
    (uid) => deprecationMove(optionState(byUid.get(uid)!.deprecated), false) === 'REACTIVATE',
  );

  // Values after the edit, each with the input that gave it (for the error's field).
  const updated = new Map(plan.update.map((u, index) => [u.uid, { value: u.value, field: `updateOptions[${index}].value` }]));
  const final: { value: string; field: string }[] = [];
  for (const option of existing) {
    if (removing.has(option.uid)) continue;
    final.push(updated.get(option.uid) ?? { value: option.value, field: `option ${option.uid}` });
  }
  plan.add.forEach((value, index) => final.push({ value, field: `addOptions[${index}]` }));
  assertUniqueValues(final);
  plan.count = final.length;
  assertOptionCount(plan.count, plan.add.length > 0 ? 'addOptions' : 'removeOptions');
  return plan;
}

/** The options of a new field: only select fields have them, and those need at least one. */
export function validateNewOptions(type: CustomFieldType, options: readonly string[] | undefined | null): string[] {
  const given = options ?? [];
  if (!isSelectType(type)) {
    if (given.length > 0)
      throw new CustomFieldRuleError(
        'OptionsNotAllowed',
        'options',
        `Only SINGLE_SELECT and MULTI_SELECT fields have options; this field is ${type}.`,
      );
    return [];
  }
  const values = given.map((value, index) => normalizeOptionValue(value, `options[${index}]`));
  assertUniqueValues(values.map((value, index) => ({ value, field: `options[${index}]` })));
  assertOptionCount(values.length, 'options');
  return values;
}

function assertUniqueValues(values: readonly { value: string; field: string }[]): void {
  const seen = new Map<string, string>();
  for (const { value, field } of values) {
    const key = value.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      throw new CustomFieldRuleError(
        'DuplicateOptionValue',
        field,
        `The option value "${value}" is already used by ${first} (values are unique in a field, ignoring case).`,
      );
    }
    seen.set(key, field);
  }
}

function assertOptionCount(count: number, field: string): void {
  if (count < 1)
    throw new CustomFieldRuleError('OptionsRequired', field, 'A SINGLE_SELECT or MULTI_SELECT field needs at least one option.');
  if (count > MAX_OPTIONS_PER_FIELD)
    throw new CustomFieldRuleError('TooManyOptions', field, `A field has at most ${MAX_OPTIONS_PER_FIELD} options.`);
}
