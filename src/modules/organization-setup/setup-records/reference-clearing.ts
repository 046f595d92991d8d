import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';

/**
 * Clearing rules that foreign keys cannot carry out. Hard deletes (clients, business units,
 * domains, subdomains) clear references through `ON DELETE SET NULL` foreign keys, and every
 * table that references them must declare one. Cost centers are soft deleted, so the row stays
 * and the references are cleared here: every table with a cost center reference is listed below
 * (description, "Behaviour of other operations" 3).
 */
export const COST_CENTER_REFERENCES: ReadonlyArray<{ table: 'projectTemplates' | 'projects'; column: 'costCenterId' }> = [
  { table: 'projectTemplates', column: 'costCenterId' },
  { table: 'projects', column: 'costCenterId' },
];

export async function clearCostCenterReferences(trx: Kysely<DB>, costCenterId: Id): Promise<void> {
  for (const { table, column } of COST_CENTER_REFERENCES) {
    await trx
      .updateTable(table)
      .set({ [column]: null })
      .where(column, '=', costCenterId)
      .execute();
  }
}
