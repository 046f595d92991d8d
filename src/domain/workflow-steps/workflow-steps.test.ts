import { describe, expect, it } from 'vitest';
import { DEFAULT_WORKFLOW_STEPS, deletionRefusal, nextOrder, normalizeWorkflowStepInput } from './workflow-steps.js';
import type { WorkflowStepInput } from './workflow-steps.js';

describe('workflow step rules', () => {
  describe('normalizeWorkflowStepInput', () => {
    const cases: { name: string; input: WorkflowStepInput; value?: WorkflowStepInput; violations?: string[] }[] = [
      {
        name: 'a full step',
        input: { name: 'Post-editing', abbr: 'PE', order: 4, lqaEnabled: true },
        value: { name: 'Post-editing', abbr: 'PE', order: 4, lqaEnabled: true },
      },
      { name: 'trims name and abbreviation', input: { name: '  Review ', abbr: ' RV ' }, value: { name: 'Review', abbr: 'RV' } },
      { name: 'no fields (an edit that changes nothing)', input: {}, value: {} },
      { name: 'only lqaEnabled', input: { lqaEnabled: false }, value: { lqaEnabled: false } },
      { name: 'blank name', input: { name: '   ' }, violations: ['name'] },
      { name: 'name of 256 characters', input: { name: 'x'.repeat(256) }, violations: ['name'] },
      { name: 'name of 255 characters', input: { name: 'x'.repeat(255) }, value: { name: 'x'.repeat(255) } },
      { name: 'blank abbreviation', input: { abbr: ' ' }, violations: ['abbr'] },
      { name: 'abbreviation of 4 characters', input: { abbr: 'ABCD' }, violations: ['abbr'] },
      { name: 'abbreviation with a space inside', input: { abbr: 'A B' }, violations: ['abbr'] },
      { name: 'abbreviation of 3 characters', input: { abbr: 'LQA' }, value: { abbr: 'LQA' } },
      { name: 'order 0', input: { order: 0 }, violations: ['order'] },
      { name: 'negative order', input: { order: -3 }, violations: ['order'] },
      { name: 'fractional order', input: { order: 1.5 }, violations: ['order'] },
      { name: 'order 1', input: { order: 1 }, value: { order: 1 } },
      { name: 'several violations at once', input: { name: '', abbr: 'TOOLONG', order: 0 }, violations: ['name', 'abbr', 'order'] },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const result = normalizeWorkflowStepInput(c.input);
        expect(result.violations.map((v) => v.field)).toEqual(c.violations ?? []);
        if (c.value) expect(result.value).toEqual(c.value);
      });
    }
  });

  describe('nextOrder', () => {
    const cases: { orders: number[]; expected: number }[] = [
      { orders: [], expected: 1 },
      { orders: [1, 2, 3], expected: 4 },
      { orders: [5, 2], expected: 6 },
      { orders: [2, 2], expected: 3 },
    ];
    for (const c of cases) it(`after [${c.orders.join(', ')}] comes ${c.expected}`, () => expect(nextOrder(c.orders)).toBe(c.expected));
  });

  describe('deletionRefusal', () => {
    const cases: { count: number; refused: boolean }[] = [
      { count: 0, refused: true },
      { count: 1, refused: true },
      { count: 2, refused: false },
      { count: 10, refused: false },
    ];
    for (const c of cases)
      it(`with ${c.count} steps: ${c.refused ? 'refused' : 'allowed'}`, () => expect(deletionRefusal(c.count) !== null).toBe(c.refused));
  });

  it('the defaults are valid, with unique names, abbreviations and orders', () => {
    for (const step of DEFAULT_WORKFLOW_STEPS) expect(normalizeWorkflowStepInput(step).violations).toEqual([]);
    for (const key of ['name', 'abbr', 'order'] as const) {
      expect(new Set(DEFAULT_WORKFLOW_STEPS.map((s) => String(s[key]).toLowerCase())).size).toBe(DEFAULT_WORKFLOW_STEPS.length);
    }
    expect(DEFAULT_WORKFLOW_STEPS.map((s) => s.name)).toEqual(['Translation', 'Revision', 'Client review']);
  });
});
