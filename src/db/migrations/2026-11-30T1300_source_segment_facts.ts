import type { Kysely } from 'kysely';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 18: what a file says about a unit beyond its text (docs/file-formats.md, "Unit facts"):
// `source_segments.unit_facts`, a JSON object on the unit's first segment with the optional
// `confirmed`, `locked`, `maxLength`, `context`, `score` and `origin` its filter read (an MXLIFF's
// m:confirmed, an XLIFF 2 `state="final"`, a CSV length column…); null when the file says nothing.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('source_segments').addColumn('unit_facts', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('source_segments').dropColumn('unit_facts').execute();
}
