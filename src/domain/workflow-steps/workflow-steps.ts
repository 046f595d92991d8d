/**
 * Workflow steps (issue 5): the steps a new organization starts with and the rules of their
 * fields. Pure: the routes in src/modules/organization-setup/workflow-steps apply these and the database keeps
 * names and abbreviations unique.
 */

export interface WorkflowStepDefinition {
  readonly name: string;
  readonly abbr: string;
  readonly order: number;
  readonly lqaEnabled: boolean;
}

/**
 * The steps every new organization starts with. Revision is where linguistic quality assessment
 * usually happens, so it starts with LQA enabled. The migration that introduced workflow steps
 * gives organizations that existed before it the same three.
 */
export const DEFAULT_WORKFLOW_STEPS: readonly WorkflowStepDefinition[] = [
  { name: 'Translation', abbr: 'T', order: 1, lqaEnabled: false },
  { name: 'Revision', abbr: 'R', order: 2, lqaEnabled: true },
  { name: 'Client review', abbr: 'C', order: 3, lqaEnabled: false },
];

export const NAME_MAX_LENGTH = 255;
export const ABBR_MAX_LENGTH = 3;
export const ORDER_MIN = 1;
export const ORDER_MAX = 2 ** 31 - 1;

export interface WorkflowStepInput {
  name?: string | undefined;
  abbr?: string | undefined;
  order?: number | undefined;
  lqaEnabled?: boolean | undefined;
}

export interface FieldViolation {
  field: string;
  message: string;
}

/**
 * The given fields as they are stored (names and abbreviations trimmed), or the violations:
 * a name is 1..255 characters and not blank; an abbreviation is 1..3 characters without
 * whitespace; the order is a whole number from 1. Fields not given stay undefined (an edit
 * applies only the fields it names).
 */
export function normalizeWorkflowStepInput(input: WorkflowStepInput): { value: WorkflowStepInput; violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  const value: WorkflowStepInput = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name.length === 0) violations.push({ field: 'name', message: 'must not be blank' });
    else if (name.length > NAME_MAX_LENGTH) violations.push({ field: 'name', message: `at most ${NAME_MAX_LENGTH} characters` });
    value.name = name;
  }
  if (input.abbr !== undefined) {
    const abbr = input.abbr.trim();
    if (abbr.length === 0) violations.push({ field: 'abbr', message: 'must not be blank' });
    else if ([...abbr].length > ABBR_MAX_LENGTH) violations.push({ field: 'abbr', message: `at most ${ABBR_MAX_LENGTH} characters` });
    else if (/\s/.test(abbr)) violations.push({ field: 'abbr', message: 'must not contain spaces' });
    value.abbr = abbr;
  }
  if (input.order !== undefined) {
    if (!Number.isInteger(input.order) || input.order < ORDER_MIN || input.order > ORDER_MAX) {
      violations.push({ field: 'order', message: `a whole number from ${ORDER_MIN}` });
    }
    value.order = input.order;
  }
  if (input.lqaEnabled !== undefined) value.lqaEnabled = input.lqaEnabled;
  return { value, violations };
}

/** The order of a step created without one: after every existing step. */
export function nextOrder(existingOrders: readonly number[]): number {
  return existingOrders.length === 0 ? ORDER_MIN : Math.max(...existingOrders) + 1;
}

/** Why the organization may not delete a step when it has `stepCount` of them, or null. */
export function deletionRefusal(stepCount: number): string | null {
  return stepCount <= 1 ? 'The organization must keep at least one workflow step.' : null;
}
