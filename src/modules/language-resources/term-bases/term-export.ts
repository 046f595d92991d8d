import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { writeTbx } from '../../../formats/tbx.js';
import type { TermEntry, TermEntryStatus, TermEntryTerm } from '../../../formats/term-entries.js';
import { writeCsvTerms, writeXlsxTerms } from '../../../formats/term-sheets.js';
import { langsOf } from './term-bases.repository.js';
import type { TermBaseRow } from './term-bases.repository.js';
import type { ConceptRow, TermRow } from './terms.repository.js';
import { conceptReferenceLookup } from './terms.views.js';

/**
 * The term base export (exportTermBase; docs/terminology.md, "Import and export"): the concepts,
 * a page at a time in id order, each with its terms, as TBX, XLSX or CSV, written to the response
 * as they are read. `termStatus` keeps only terms of that status (NEW: new and rejected terms;
 * APPROVED); a concept left without terms is not written.
 */

export type TermExportFormat = 'Tbx' | 'Xlsx' | 'Csv';
export const EXPORT_PAGE_CONCEPTS = 500;

const bool = (value: unknown) => value === true || value === 1 || value === '1';

function entryTerm(row: TermRow, userNames: Map<string, string>): TermEntryTerm {
  const term: TermEntryTerm = { lang: row.lang, text: row.text, status: row.status as TermEntryStatus };
  if (row.usage !== null) term.usage = row.usage;
  term.forbidden = bool(row.forbidden);
  term.preferred = bool(row.preferred);
  term.caseSensitive = bool(row.caseSensitive);
  term.exactMatch = bool(row.exactMatch);
  if (row.termType !== null) term.termType = row.termType as TermEntryTerm['termType'];
  if (row.partOfSpeech !== null) term.partOfSpeech = row.partOfSpeech as TermEntryTerm['partOfSpeech'];
  if (row.gender !== null) term.gender = row.gender as TermEntryTerm['gender'];
  if (row.number !== null) term.number = row.number as TermEntryTerm['number'];
  if (row.note !== null) term.note = row.note;
  if (row.shortTranslation !== null) term.shortTranslation = row.shortTranslation;
  term.createdAt = row.createdAt;
  term.modifiedAt = row.modifiedAt;
  const createdBy = row.createdById === null ? undefined : userNames.get(String(row.createdById));
  const modifiedBy = row.modifiedById === null ? undefined : userNames.get(String(row.modifiedById));
  if (createdBy) term.createdBy = createdBy;
  if (modifiedBy) term.modifiedBy = modifiedBy;
  return term;
}

/** The term base's entries, a page of concepts at a time. */
export async function* termBaseEntries(
  db: Kysely<DB>,
  termBase: TermBaseRow,
  termStatus: 'NEW' | 'APPROVED' | undefined,
): AsyncGenerator<TermEntry[]> {
  const order = langsOf(termBase);
  const rank = (lang: string) => (order.includes(lang) ? order.indexOf(lang) : order.length);
  const userNames = new Map<string, string>();
  let after: Id | null = null;
  for (;;) {
    let query = db.selectFrom('tbConcepts').selectAll().where('termBaseId', '=', termBase.id).orderBy('id').limit(EXPORT_PAGE_CONCEPTS);
    if (after !== null) query = query.where('id', '>', after);
    const concepts: ConceptRow[] = await query.execute();
    if (concepts.length === 0) return;
    after = concepts[concepts.length - 1]!.id;
    let termQuery = db
      .selectFrom('tbTerms')
      .selectAll()
      .where(
        'conceptId',
        'in',
        concepts.map((c) => c.id),
      )
      .orderBy('conceptId')
      .orderBy('id');
    if (termStatus === 'APPROVED') termQuery = termQuery.where('status', '=', 'Approved');
    else if (termStatus === 'NEW') termQuery = termQuery.where('status', '<>', 'Approved');
    const terms = await termQuery.execute();
    const unknownUsers = [
      ...new Set(terms.flatMap((t) => [t.createdById, t.modifiedById]).filter((id): id is Id => id !== null && !userNames.has(String(id)))),
    ];
    if (unknownUsers.length) {
      const users = await db.selectFrom('users').select(['id', 'userName']).where('id', 'in', unknownUsers).execute();
      for (const user of users) userNames.set(String(user.id), user.userName);
    }
    const references = await conceptReferenceLookup(db, concepts);
    const byConcept = new Map<string, TermRow[]>();
    for (const term of terms) {
      const list = byConcept.get(String(term.conceptId));
      if (list) list.push(term);
      else byConcept.set(String(term.conceptId), [term]);
    }
    const entries: TermEntry[] = [];
    for (const concept of concepts) {
      const own = byConcept.get(String(concept.id));
      if (!own) continue;
      own.sort((a, b) => rank(a.lang) - rank(b.lang));
      const { domain, subdomains } = references(concept);
      const entry: TermEntry = { id: String(concept.id), terms: own.map((t) => entryTerm(t, userNames)) };
      if (concept.definition !== null) entry.definition = concept.definition;
      if (domain?.name) entry.domain = domain.name;
      if (subdomains.length) entry.subdomains = subdomains.map((s) => s.name);
      if (concept.note !== null) entry.note = concept.note;
      if (concept.url !== null) entry.url = concept.url;
      entries.push(entry);
    }
    if (entries.length) yield entries;
  }
}

export const EXPORT_FILE = {
  Tbx: { extension: 'tbx', contentType: 'application/x-tbx+xml' },
  Xlsx: { extension: 'xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  Csv: { extension: 'csv', contentType: 'text/csv; charset=utf-8' },
} as const;

/** Writes the whole export to `output` (which the writer ends). */
export async function writeTermBaseExport(
  db: Kysely<DB>,
  termBase: TermBaseRow,
  format: TermExportFormat,
  termStatus: 'NEW' | 'APPROVED' | undefined,
  output: Writable,
): Promise<{ entries: number; terms: number }> {
  const entries = termBaseEntries(db, termBase, termStatus);
  const langs = langsOf(termBase);
  if (format === 'Tbx') return writeTbx(entries, output, { langs, title: termBase.name, sourceLang: langs[0] });
  if (format === 'Xlsx') return writeXlsxTerms(entries, output, { langs });
  return writeCsvTerms(entries, output, { langs });
}
