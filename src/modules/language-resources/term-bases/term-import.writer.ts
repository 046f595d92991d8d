import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import type { TermEntry, TermEntryTerm } from '../../../formats/term-entries.js';
import { bulkInsert, reserveIds } from '../../../db/bulk-insert.js';
import type { BulkTable } from '../../../db/bulk-insert.js';
import { findConcepts, termTextKey } from './terms.repository.js';
import type { NewConcept, NewTerm, TermRow } from './terms.repository.js';

/**
 * Writes one batch of imported entries into a term base, in the caller's transaction
 * (docs/terminology.md, "Import and export", duplicates):
 *
 * - A term of the file is a **duplicate** when the term base already holds a term in the same
 *   language with the same text (after trimming; case counts).
 * - The entry's concept is the concept its id names when that is a concept of this term base (an
 *   OpenTMS export imported back), else the concept of its first duplicate term, else a new one.
 * - `update` (the default, `updateTerms=true`): duplicates take the attributes the file gives
 *   (absent ones stay), the concept takes the fields the file gives, new terms join the concept.
 * - `skip` (`updateTerms=false`): duplicates and the concept stay as they are; new terms join it.
 * - `add`: every entry is a new concept with all its terms, duplicates or not.
 *
 * Entries earlier in the same batch count as "already held" for the later ones, so a file that
 * repeats a term does not create it twice (except with `add`).
 */

export type DuplicateMode = 'update' | 'skip' | 'add';

export interface ImportContext {
  termBaseId: Id;
  organizationId: Id;
  userId: Id;
  mode: DuplicateMode;
  now: string;
  /** Domain and subdomain names resolved to the organization's records, kept across batches. */
  domainIds: Map<string, Id | null>;
  subDomainIds: Map<string, Id | null>;
}

export interface BatchCounts {
  createdTerms: number;
  updatedTerms: number;
  skippedTerms: number;
}

interface HeldTerm {
  /** The stored term (null: created earlier in this batch). */
  row: TermRow | null;
  conceptId: Id | number;
}

/** A concept being created in this batch (its id once inserted). */
interface PendingConcept {
  row: NewConcept;
  id?: Id;
}

/**
 * Every column of a new term and concept: a multi-row insert names the union of the rows' columns,
 * and a column a row leaves out would be NULL there, not its default.
 */
const TERM_DEFAULTS = {
  status: 'New',
  usage: null,
  forbidden: false,
  preferred: false,
  caseSensitive: false,
  exactMatch: false,
  termType: null,
  partOfSpeech: null,
  gender: null,
  number: null,
  note: null,
  shortTranslation: null,
} satisfies Partial<NewTerm>;
const CONCEPT_DEFAULTS = {
  definition: null,
  domainId: null,
  domainName: null,
  subdomains: '[]',
  subdomainNames: '[]',
  note: null,
  url: null,
} satisfies Partial<NewConcept>;

/** The columns of a bulk insert (docs: src/db/bulk-insert.ts); values by their camel-case names. */
const CONCEPT_TABLE: BulkTable = {
  table: 'tb_concepts',
  columns: [
    { name: 'id', pgType: 'bigint' },
    { name: 'term_base_id', pgType: 'bigint' },
    { name: 'definition', pgType: 'text' },
    { name: 'domain_id', pgType: 'bigint' },
    { name: 'domain_name', pgType: 'text' },
    { name: 'subdomains', pgType: 'text' },
    { name: 'subdomain_names', pgType: 'text' },
    { name: 'note', pgType: 'text' },
    { name: 'url', pgType: 'text' },
    { name: 'created_at', pgType: 'varchar' },
    { name: 'created_by_id', pgType: 'bigint' },
    { name: 'modified_at', pgType: 'varchar' },
    { name: 'modified_by_id', pgType: 'bigint' },
  ],
};
const TERM_TABLE: BulkTable = {
  table: 'tb_terms',
  columns: [
    { name: 'concept_id', pgType: 'bigint' },
    { name: 'term_base_id', pgType: 'bigint' },
    { name: 'lang', pgType: 'varchar' },
    { name: 'text', pgType: 'text' },
    { name: 'text_key', pgType: 'varchar' },
    { name: 'status', pgType: 'varchar' },
    { name: 'usage', pgType: 'text' },
    { name: 'forbidden', pgType: 'boolean' },
    { name: 'preferred', pgType: 'boolean' },
    { name: 'case_sensitive', pgType: 'boolean' },
    { name: 'exact_match', pgType: 'boolean' },
    { name: 'term_type', pgType: 'varchar' },
    { name: 'part_of_speech', pgType: 'varchar' },
    { name: 'gender', pgType: 'varchar' },
    { name: 'number', pgType: 'varchar' },
    { name: 'note', pgType: 'text' },
    { name: 'short_translation', pgType: 'text' },
    { name: 'created_at', pgType: 'varchar' },
    { name: 'created_by_id', pgType: 'bigint' },
    { name: 'modified_at', pgType: 'varchar' },
    { name: 'modified_by_id', pgType: 'bigint' },
  ],
};
const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
/** The rows' property of each column, worked out once (per cell it was a fifth of an import's time). */
const CONCEPT_KEYS = CONCEPT_TABLE.columns.map((c) => camel(c.name) as keyof NewConcept | 'id');
const TERM_KEYS = TERM_TABLE.columns.map((c) => camel(c.name));

const sameValue = (stored: unknown, given: unknown) =>
  typeof given === 'boolean' ? (stored === true || stored === 1 || stored === '1') === given : (stored ?? null) === (given ?? null);

/** The given columns whose values differ from the stored row's; null when none does (nothing to write). */
function changedColumns<T extends object>(stored: object, given: T): T | null {
  const changed = Object.fromEntries(
    Object.entries(given).filter(([column, value]) => !sameValue((stored as Record<string, unknown>)[column], value)),
  ) as T;
  return Object.keys(changed).length ? changed : null;
}

const key = (lang: string, text: string) => `${lang}\u0000${text}`;
const isoOr = (value: string | undefined, fallback: string) => {
  if (!value) return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : date.toISOString();
};

async function resolveNames(
  trx: Kysely<DB>,
  organizationId: Id,
  table: 'domains' | 'subDomains',
  cache: Map<string, Id | null>,
  names: Iterable<string>,
): Promise<void> {
  const wanted = [...new Set(names)].filter((name) => !cache.has(name));
  for (let at = 0; at < wanted.length; at += 500) {
    const chunk = wanted.slice(at, at + 500);
    const rows = await trx
      .selectFrom(table)
      .select(['id', 'name'])
      .where('organizationId', '=', organizationId)
      .where('name', 'in', chunk)
      .execute();
    for (const row of rows) cache.set(row.name, String(row.id));
    for (const name of chunk) if (!cache.has(name)) cache.set(name, null);
  }
}

/** The terms the term base already holds among the batch's, by language and text. */
async function heldTerms(trx: Kysely<DB>, termBaseId: Id, entries: readonly TermEntry[]): Promise<Map<string, HeldTerm>> {
  const byLang = new Map<string, Set<string>>();
  for (const entry of entries) {
    for (const term of entry.terms) {
      const keys = byLang.get(term.lang) ?? new Set<string>();
      keys.add(termTextKey(term.text.trim()));
      byLang.set(term.lang, keys);
    }
  }
  const held = new Map<string, HeldTerm>();
  for (const [lang, keySet] of byLang) {
    const keys = [...keySet];
    for (let at = 0; at < keys.length; at += 500) {
      const rows = await trx
        .selectFrom('tbTerms')
        .selectAll()
        .where('termBaseId', '=', termBaseId)
        .where('lang', '=', lang)
        .where('textKey', 'in', keys.slice(at, at + 500))
        .orderBy('id')
        .execute();
      for (const row of rows) {
        const k = key(lang, row.text);
        if (!held.has(k)) held.set(k, { row, conceptId: String(row.conceptId) });
      }
    }
  }
  return held;
}

/** The term columns the file gives (absent fields left out, so an update keeps them). */
function givenTermColumns(term: TermEntryTerm): Partial<NewTerm> {
  const columns: Partial<NewTerm> = {};
  if (term.status !== undefined) columns.status = term.status;
  if (term.usage !== undefined) columns.usage = term.usage;
  if (term.forbidden !== undefined) columns.forbidden = term.forbidden;
  if (term.preferred !== undefined) columns.preferred = term.preferred;
  if (term.caseSensitive !== undefined) columns.caseSensitive = term.caseSensitive;
  if (term.exactMatch !== undefined) columns.exactMatch = term.exactMatch;
  if (term.termType !== undefined) columns.termType = term.termType;
  if (term.partOfSpeech !== undefined) columns.partOfSpeech = term.partOfSpeech;
  if (term.gender !== undefined) columns.gender = term.gender;
  if (term.number !== undefined) columns.number = term.number;
  if (term.note !== undefined) columns.note = term.note;
  if (term.shortTranslation !== undefined) columns.shortTranslation = term.shortTranslation;
  return columns;
}

/** The concept columns the file gives (absent fields left out). */
function givenConceptColumns(entry: TermEntry, context: ImportContext): Partial<NewConcept> {
  const columns: Partial<NewConcept> = {};
  if (entry.definition !== undefined) columns.definition = entry.definition;
  if (entry.note !== undefined) columns.note = entry.note;
  if (entry.url !== undefined) columns.url = entry.url;
  if (entry.domain !== undefined) {
    const id = context.domainIds.get(entry.domain) ?? null;
    columns.domainId = id;
    columns.domainName = id === null ? entry.domain : null;
  }
  if (entry.subdomains !== undefined) {
    const ids: Id[] = [];
    const names: string[] = [];
    for (const name of entry.subdomains) {
      const id = context.subDomainIds.get(name) ?? null;
      if (id === null) names.push(name);
      else ids.push(id);
    }
    columns.subdomains = JSON.stringify(ids);
    columns.subdomainNames = JSON.stringify(names);
  }
  return columns;
}

/** Writes one batch; returns what it did. */
export async function importEntries(trx: Kysely<DB>, context: ImportContext, entries: readonly TermEntry[]): Promise<BatchCounts> {
  const counts: BatchCounts = { createdTerms: 0, updatedTerms: 0, skippedTerms: 0 };
  await resolveNames(
    trx,
    context.organizationId,
    'domains',
    context.domainIds,
    entries.flatMap((e) => (e.domain !== undefined ? [e.domain] : [])),
  );
  await resolveNames(
    trx,
    context.organizationId,
    'subDomains',
    context.subDomainIds,
    entries.flatMap((e) => e.subdomains ?? []),
  );
  const held = context.mode === 'add' ? new Map<string, HeldTerm>() : await heldTerms(trx, context.termBaseId, entries);
  const ownConcepts = new Set<string>();
  if (context.mode !== 'add') {
    const ids = [...new Set(entries.map((e) => e.id).filter((id): id is string => id !== undefined && /^\d{1,18}$/.test(id)))];
    for (let at = 0; at < ids.length; at += 500) {
      const rows = await trx
        .selectFrom('tbConcepts')
        .select('id')
        .where('termBaseId', '=', context.termBaseId)
        .where('id', 'in', ids.slice(at, at + 500))
        .execute();
      for (const row of rows) ownConcepts.add(String(row.id));
    }
  }

  const pending: PendingConcept[] = [];
  /** New terms, each with its concept: an existing id or the index of a pending concept (a number). */
  const newTerms: { term: TermEntryTerm; concept: Id | number }[] = [];
  const conceptUpdates = new Map<string, Partial<NewConcept>>();
  const termUpdates: { id: Id; columns: Partial<NewTerm> }[] = [];

  for (const entry of entries) {
    const terms = entry.terms.map((term) => ({ ...term, text: term.text.trim() })).filter((term) => term.text.length > 0);
    if (terms.length === 0) continue;
    let concept: Id | number | undefined;
    if (context.mode !== 'add') {
      if (entry.id !== undefined && ownConcepts.has(entry.id)) concept = entry.id;
      else {
        for (const term of terms) {
          const found = held.get(key(term.lang, term.text));
          if (found) {
            concept = found.conceptId;
            break;
          }
        }
      }
    }
    const given = givenConceptColumns(entry, context);
    if (concept === undefined) {
      pending.push({
        row: {
          termBaseId: context.termBaseId,
          ...CONCEPT_DEFAULTS,
          ...given,
          createdAt: context.now,
          createdById: context.userId,
          modifiedAt: context.now,
          modifiedById: context.userId,
        },
      });
      concept = pending.length - 1;
    } else if (typeof concept === 'string' && context.mode === 'update' && Object.keys(given).length) {
      conceptUpdates.set(concept, { ...conceptUpdates.get(concept), ...given });
    }
    for (const term of terms) {
      const found = context.mode === 'add' ? undefined : held.get(key(term.lang, term.text));
      if (found) {
        if (context.mode === 'update' && found.row !== null) {
          const columns = changedColumns(found.row, givenTermColumns(term));
          if (columns) termUpdates.push({ id: String(found.row.id), columns });
          counts.updatedTerms++;
        } else counts.skippedTerms++;
        continue;
      }
      newTerms.push({ term, concept });
      if (context.mode !== 'add') held.set(key(term.lang, term.text), { row: null, conceptId: concept });
    }
  }

  const pendingIds = await reserveIds(trx, 'tb_concepts', pending.length);
  await bulkInsert(
    trx,
    CONCEPT_TABLE,
    pending.map((p, i) => CONCEPT_KEYS.map((k) => (k === 'id' ? pendingIds[i] : p.row[k]))),
  );
  const conceptIdOf = (concept: Id | number) => (typeof concept === 'number' ? pendingIds[concept]! : concept);
  const rows = newTerms.map(({ term, concept }) => {
    const row: Record<string, unknown> = {
      conceptId: conceptIdOf(concept),
      termBaseId: context.termBaseId,
      lang: term.lang,
      text: term.text,
      textKey: termTextKey(term.text),
      ...TERM_DEFAULTS,
      ...givenTermColumns(term),
      createdAt: isoOr(term.createdAt, context.now),
      createdById: context.userId,
      modifiedAt: isoOr(term.modifiedAt, context.now),
      modifiedById: context.userId,
    };
    return TERM_KEYS.map((k) => row[k]);
  });
  await bulkInsert(trx, TERM_TABLE, rows);
  counts.createdTerms += rows.length;
  for (const { id, columns } of termUpdates) {
    await trx
      .updateTable('tbTerms')
      .set({ ...columns, modifiedAt: context.now, modifiedById: context.userId })
      .where('id', '=', id)
      .execute();
  }
  const current = new Map(
    (await findConcepts(trx, context.termBaseId, [...conceptUpdates.keys()])).map((row) => [String(row.id), row] as const),
  );
  for (const [id, given] of conceptUpdates) {
    const row = current.get(id);
    const columns = row ? changedColumns(row, given) : null;
    if (!columns) continue;
    await trx
      .updateTable('tbConcepts')
      .set({ ...columns, modifiedAt: context.now, modifiedById: context.userId })
      .where('id', '=', id)
      .execute();
  }
  return counts;
}
