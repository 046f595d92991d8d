import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { nowIso } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import { assertLanguage } from '../../../domain/languages/language-validation.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import type { PageRequest } from '../../../http/paging.js';
import { resolveReferences } from '../../organization-setup/setup-records/index.js';
import { langsOf, mayOnTermBase } from './term-bases.repository.js';
import type { TermBaseRow } from './term-bases.repository.js';
import { requireTermBase } from './term-bases.service.js';
import {
  bumpTermBaseVersion,
  clearTermBaseContent,
  deleteConceptRows,
  deleteTermRow,
  findConcept,
  findConcepts,
  findTerm,
  insertConcept,
  insertTerm,
  listConceptRows,
  termCountsByLanguage,
  termsOfConcepts,
  updateConcept,
  updateTermRow,
} from './terms.repository.js';
import type { ConceptRow, NewTerm, TermRow } from './terms.repository.js';
import type { ConceptEditBody, TermCreateBody, TermEditBody } from './terms.schemas.js';

/**
 * Rules of concepts and terms (docs/terminology.md, "Records"): a term is in one of the term base's
 * languages and belongs to exactly one concept; creating a term without a concept creates one;
 * deleting a concept's last term deletes the concept. Every write moves the term base's version.
 */

const db = (deps: AppDeps) => deps.database.db;

/** The term base to read (visible to the caller) or to change (and the caller may edit it). */
async function termBaseFor(deps: AppDeps, caller: Caller, uid: string, write: boolean): Promise<TermBaseRow> {
  return requireTermBase(deps, caller, uid, write ? 'termBaseEditOther' : undefined);
}

/** Whether the caller may change the term base's content (the `writable` of the answers). */
export function contentWritable(caller: Caller, termBase: TermBaseRow): boolean {
  return mayOnTermBase(caller, termBase, 'termBaseEditOther');
}

async function requireConceptRow(deps: AppDeps, termBase: TermBaseRow, conceptKey: string): Promise<ConceptRow> {
  const concept = await findConcept(db(deps), termBase.id, conceptKey);
  if (!concept) throw errors.ResourceNotFound({ what: 'Concept' });
  return concept;
}

async function requireTermRow(deps: AppDeps, termBase: TermBaseRow, termKey: string): Promise<TermRow> {
  const term = await findTerm(db(deps), termBase.id, termKey);
  if (!term) throw errors.ResourceNotFound({ what: 'Term' });
  return term;
}

/** The concept columns a ConceptEditDto sets (omitted fields clear). */
async function conceptColumns(trx: Kysely<DB>, organizationId: Id, body: ConceptEditBody) {
  const [domainId] = body.domain ? await resolveReferences(trx, organizationId, 'domain', 'domain', [body.domain]) : [];
  const subdomains = await resolveReferences(trx, organizationId, 'subDomain', 'subdomains', body.subdomains ?? []);
  return {
    domainId: domainId ?? null,
    domainName: null,
    subdomains: JSON.stringify(subdomains),
    subdomainNames: '[]',
    definition: body.definition ?? null,
    url: body.url ?? null,
    note: body.conceptNote ?? null,
  };
}

export async function listConcepts(deps: AppDeps, caller: Caller, termBaseUid: string, page: PageRequest) {
  const termBase = await termBaseFor(deps, caller, termBaseUid, false);
  return listConceptRows(db(deps), termBase.id, page);
}

export async function getConcept(deps: AppDeps, caller: Caller, termBaseUid: string, conceptKey: string): Promise<ConceptRow> {
  const termBase = await termBaseFor(deps, caller, termBaseUid, false);
  return requireConceptRow(deps, termBase, conceptKey);
}

/** A concept's terms and whether the caller may change them. */
export async function conceptTerms(deps: AppDeps, caller: Caller, termBaseUid: string, conceptKey: string) {
  const termBase = await termBaseFor(deps, caller, termBaseUid, false);
  const concept = await requireConceptRow(deps, termBase, conceptKey);
  return { termBase, concept, terms: await termsOfConcepts(db(deps), [concept.id]), writable: contentWritable(caller, termBase) };
}

export async function createConcept(deps: AppDeps, caller: Caller, termBaseUid: string, body: ConceptEditBody): Promise<ConceptRow> {
  const termBase = await termBaseFor(deps, caller, termBaseUid, true);
  const now = nowIso(deps.clock);
  return db(deps)
    .transaction()
    .execute(async (trx) => {
      const columns = await conceptColumns(trx, caller.organizationId, body);
      await bumpTermBaseVersion(trx, termBase.id);
      return insertConcept(trx, {
        termBaseId: termBase.id,
        ...columns,
        createdAt: now,
        createdById: caller.userId,
        modifiedAt: now,
        modifiedById: caller.userId,
      });
    });
}

export async function editConcept(
  deps: AppDeps,
  caller: Caller,
  termBaseUid: string,
  conceptKey: string,
  body: ConceptEditBody,
): Promise<ConceptRow> {
  const termBase = await termBaseFor(deps, caller, termBaseUid, true);
  const concept = await requireConceptRow(deps, termBase, conceptKey);
  return db(deps)
    .transaction()
    .execute(async (trx) => {
      const columns = await conceptColumns(trx, caller.organizationId, body);
      await bumpTermBaseVersion(trx, termBase.id);
      return updateConcept(trx, concept.id, { ...columns, modifiedAt: nowIso(deps.clock), modifiedById: caller.userId });
    });
}

export async function deleteConcept(deps: AppDeps, caller: Caller, termBaseUid: string, conceptKey: string): Promise<void> {
  const termBase = await termBaseFor(deps, caller, termBaseUid, true);
  const concept = await requireConceptRow(deps, termBase, conceptKey);
  await db(deps)
    .transaction()
    .execute(async (trx) => {
      await bumpTermBaseVersion(trx, termBase.id);
      await deleteConceptRows(trx, termBase.id, [concept.id]);
    });
}

/** Deletes up to 100 concepts; when one is not in the term base, 404 naming it and nothing is deleted. */
export async function deleteConcepts(deps: AppDeps, caller: Caller, termBaseUid: string, keys: readonly string[]): Promise<void> {
  const termBase = await termBaseFor(deps, caller, termBaseUid, true);
  const found = await findConcepts(db(deps), termBase.id, keys);
  const foundIds = new Set(found.map((c) => String(c.id)));
  const missing = [...new Set(keys.filter((key) => !foundIds.has(key)))];
  if (missing.length) throw errors.ResourceNotFound({ what: 'Concept', uids: missing, field: 'concepts' });
  await db(deps)
    .transaction()
    .execute(async (trx) => {
      await bumpTermBaseVersion(trx, termBase.id);
      await deleteConceptRows(
        trx,
        termBase.id,
        found.map((c) => c.id),
      );
    });
}

/** The term's language: a supported code that is one of the term base's languages (400 naming `lang` otherwise). */
function termLanguageOf(termBase: TermBaseRow, code: string): string {
  const lang = assertLanguage('lang', code);
  const langs = langsOf(termBase);
  if (!langs.includes(lang)) {
    throw errors.InvalidArguments({
      reason: `"${code}" is not a language of the term base (${langs.join(', ')}); add it to the term base first.`,
      details: [{ field: 'lang', message: 'not a language of the term base' }],
    });
  }
  return lang;
}

/** The term columns a TermCreateDto or TermEditDto sets (omitted flags are false, omitted texts null). */
function termColumns(body: TermCreateBody | TermEditBody) {
  const text = body.text.trim();
  if (!text) throw errors.InvalidArguments({ reason: 'A term needs a text.', details: [{ field: 'text', message: 'blank' }] });
  return {
    text,
    caseSensitive: body.caseSensitive ?? false,
    exactMatch: body.exactMatch ?? false,
    forbidden: body.forbidden ?? false,
    preferred: body.preferred ?? false,
    usage: body.usage ?? null,
    note: body.note ?? null,
    shortTranslation: body.shortTranslation ?? null,
    termType: body.termType ?? null,
    partOfSpeech: body.partOfSpeech ?? null,
    gender: body.gender ?? null,
    number: body.number ?? null,
  } satisfies Partial<NewTerm>;
}

export async function createTerm(deps: AppDeps, caller: Caller, termBaseUid: string, body: TermCreateBody) {
  const termBase = await termBaseFor(deps, caller, termBaseUid, true);
  return createTermIn(deps, caller, termBase, body);
}

/** Creates a term in a term base the caller may write to (the term-base operations and createTermByJob). */
export async function createTermIn(deps: AppDeps, caller: Caller, termBase: TermBaseRow, body: TermCreateBody) {
  const lang = termLanguageOf(termBase, body.lang);
  const existing = body.conceptId !== undefined ? await findConcept(db(deps), termBase.id, body.conceptId) : undefined;
  if (body.conceptId !== undefined && !existing) {
    throw errors.ReferenceNotFound({ what: 'concept of this term base', key: body.conceptId, keyName: 'id', field: 'conceptId' });
  }
  const now = nowIso(deps.clock);
  const stamps = { createdAt: now, createdById: caller.userId, modifiedAt: now, modifiedById: caller.userId };
  const { term, concept } = await db(deps)
    .transaction()
    .execute(async (trx) => {
      await bumpTermBaseVersion(trx, termBase.id);
      const concept = existing ?? (await insertConcept(trx, { termBaseId: termBase.id, ...stamps }));
      if (existing) await updateConcept(trx, existing.id, { modifiedAt: now, modifiedById: caller.userId });
      const term = await insertTerm(trx, {
        conceptId: concept.id,
        termBaseId: termBase.id,
        lang,
        status: body.status ?? 'New',
        ...termColumns(body),
        ...stamps,
      });
      return { term, concept };
    });
  return { termBase, term, concept };
}

export async function getTerm(deps: AppDeps, caller: Caller, termBaseUid: string, termKey: string) {
  const termBase = await termBaseFor(deps, caller, termBaseUid, false);
  const term = await requireTermRow(deps, termBase, termKey);
  const concept = await requireConceptRow(deps, termBase, String(term.conceptId));
  return { termBase, term, concept };
}

/** Replaces a term: omitted flags become false and omitted texts null; `lang` and `status` are kept when omitted. */
export async function editTerm(deps: AppDeps, caller: Caller, termBaseUid: string, termKey: string, body: TermEditBody) {
  const termBase = await termBaseFor(deps, caller, termBaseUid, true);
  const current = await requireTermRow(deps, termBase, termKey);
  const lang = body.lang !== undefined ? termLanguageOf(termBase, body.lang) : current.lang;
  const now = nowIso(deps.clock);
  const term = await db(deps)
    .transaction()
    .execute(async (trx) => {
      await bumpTermBaseVersion(trx, termBase.id);
      return updateTermRow(trx, current.id, {
        lang,
        status: body.status ?? current.status,
        ...termColumns(body),
        modifiedAt: now,
        modifiedById: caller.userId,
      });
    });
  const concept = await requireConceptRow(deps, termBase, String(term.conceptId));
  return { termBase, term, concept };
}

/** Deletes a term, and its concept with it when it was the concept's last term. */
export async function deleteTerm(deps: AppDeps, caller: Caller, termBaseUid: string, termKey: string): Promise<void> {
  const termBase = await termBaseFor(deps, caller, termBaseUid, true);
  const term = await requireTermRow(deps, termBase, termKey);
  await db(deps)
    .transaction()
    .execute(async (trx) => {
      await bumpTermBaseVersion(trx, termBase.id);
      await deleteTermRow(trx, term);
    });
}

/** Deletes every term and concept of the term base. */
export async function clearTermBase(deps: AppDeps, caller: Caller, termBaseUid: string): Promise<void> {
  const termBase = await termBaseFor(deps, caller, termBaseUid, true);
  await db(deps)
    .transaction()
    .execute(async (trx) => {
      await bumpTermBaseVersion(trx, termBase.id);
      await clearTermBaseContent(trx, termBase.id);
    });
}

/** Spec MetadataTbDto: the number of terms, in all and per language of the term base. */
export async function termBaseMetadata(deps: AppDeps, caller: Caller, termBaseUid: string) {
  const termBase = await termBaseFor(deps, caller, termBaseUid, false);
  const counts = await termCountsByLanguage(db(deps), termBase.id);
  const metadataByLanguage: Record<string, number> = {};
  for (const lang of langsOf(termBase)) metadataByLanguage[lang] = counts.get(lang) ?? 0;
  for (const [lang, count] of counts) metadataByLanguage[lang] ??= count;
  const termsCount = [...counts.values()].reduce((sum, n) => sum + n, 0);
  return { termsCount, metadataByLanguage };
}
