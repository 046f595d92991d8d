import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { isRightToLeft } from '../../../domain/languages/supported-languages.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { namedReferences } from '../../organization-setup/setup-records/index.js';
import { langsOf } from './term-bases.repository.js';
import type { TermBaseRow } from './term-bases.repository.js';
import type { ConceptRow, TermRow } from './terms.repository.js';
import type { ConceptDto, TermDto } from './terms.schemas.js';

/** Concepts and terms in the published shapes, the references of a page loaded once. */

const bool = (value: unknown) => value === true || value === 1 || value === '1';
const jsonList = <T>(text: string): T[] => {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
};
const present = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;

/** The subdomain ids of a concept (JSON in the row). */
export const subdomainIdsOf = (row: Pick<ConceptRow, 'subdomains'>): string[] => jsonList<string | number>(row.subdomains).map(String);
/** The subdomain names an imported file gave that no record has. */
export const subdomainNamesOf = (row: Pick<ConceptRow, 'subdomainNames'>): string[] =>
  jsonList<unknown>(row.subdomainNames).filter((n): n is string => typeof n === 'string');

/** Domain and subdomain names and references of concepts, in one query each. */
export async function conceptReferenceLookup(db: Kysely<DB>, concepts: readonly ConceptRow[]) {
  const domains = await namedReferences(
    db,
    'domain',
    concepts.map((c) => c.domainId).filter((id): id is Id => id !== null),
  );
  const subDomains = await namedReferences(db, 'subDomain', concepts.flatMap(subdomainIdsOf));
  return (concept: ConceptRow) => {
    const domain = concept.domainId !== null ? domains.get(String(concept.domainId)) : undefined;
    const subdomains = subdomainIdsOf(concept)
      .map((id) => subDomains.get(id))
      .filter((s) => s !== undefined);
    return {
      domain: domain ?? (concept.domainName !== null ? { name: concept.domainName } : undefined),
      subdomains: [...subdomains, ...subdomainNamesOf(concept).map((name) => ({ name }))],
    };
  };
}

export async function toConceptDtos(db: Kysely<DB>, concepts: readonly ConceptRow[]): Promise<ConceptDto[]> {
  const references = await conceptReferenceLookup(db, concepts);
  return concepts.map((concept) => {
    const { domain, subdomains } = references(concept);
    return present({
      id: String(concept.id),
      domain,
      subdomains,
      url: concept.url ?? undefined,
      definition: concept.definition ?? undefined,
      conceptNote: concept.note ?? undefined,
    });
  });
}

/** Terms in the published shape, with their concepts' fields (`definition`, `domain`, …). */
export async function toTermDtos(
  db: Kysely<DB>,
  organizationId: Id,
  terms: readonly TermRow[],
  concepts: readonly ConceptRow[],
  writable: boolean,
): Promise<TermDto[]> {
  const references = await conceptReferenceLookup(db, concepts);
  const conceptById = new Map(concepts.map((c) => [String(c.id), c]));
  const users = await userReferenceLookup(
    db,
    organizationId,
    terms.flatMap((t) => [t.createdById, t.modifiedById]),
  );
  return terms.map((term) => {
    const concept = conceptById.get(String(term.conceptId));
    const conceptFields = concept ? references(concept) : { domain: undefined, subdomains: [] };
    return present({
      id: String(term.id),
      text: term.text,
      lang: term.lang,
      rtl: isRightToLeft(term.lang),
      modifiedAt: term.modifiedAt,
      createdAt: term.createdAt,
      modifiedBy: users(term.modifiedById) ?? undefined,
      createdBy: users(term.createdById) ?? undefined,
      caseSensitive: bool(term.caseSensitive),
      exactMatch: bool(term.exactMatch),
      forbidden: bool(term.forbidden),
      preferred: bool(term.preferred),
      // The published enum has New and Approved; a rejected term is answered as New (docs/terminology.md).
      status: term.status === 'Approved' ? ('Approved' as const) : ('New' as const),
      conceptId: String(term.conceptId),
      usage: term.usage ?? undefined,
      note: term.note ?? undefined,
      writable,
      shortTranslation: term.shortTranslation ?? undefined,
      termType: term.termType ?? undefined,
      partOfSpeech: term.partOfSpeech ?? undefined,
      gender: term.gender ?? undefined,
      number: term.number ?? undefined,
      definition: concept?.definition ?? undefined,
      domain: conceptFields.domain?.name,
      subDomains: conceptFields.subdomains.map((s) => s.name),
      url: concept?.url ?? undefined,
      conceptNote: concept?.note ?? undefined,
    });
  });
}

/** A concept's terms, one array per language in the term base's order (languages without terms left out). */
export function termsByLanguage<T extends { lang: string }>(termBase: Pick<TermBaseRow, 'langs'>, terms: readonly T[]): T[][] {
  const order = langsOf(termBase);
  const groups = new Map<string, T[]>();
  for (const term of terms) {
    const group = groups.get(term.lang);
    if (group) group.push(term);
    else groups.set(term.lang, [term]);
  }
  const rank = (lang: string) => {
    const at = order.indexOf(lang);
    return at === -1 ? order.length : at;
  };
  return [...groups.entries()].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b)).map(([, group]) => group);
}
