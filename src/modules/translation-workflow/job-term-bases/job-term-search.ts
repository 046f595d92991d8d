import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB, Id } from '../../../db/schema.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import {
  conceptReferenceLookup,
  conceptTermsIn,
  createTermIn,
  findConcepts,
  searchTerms,
  termRecognizer,
  toTermDtos,
} from '../../language-resources/term-bases/index.js';
import type { ConceptRow, TermBaseRow, TermDto, TermRow } from '../../language-resources/term-bases/index.js';
import type { JobRow, ProjectRow } from '../kernel/index.js';
import { contextTermBases, termBaseLangsFor } from './tb-settings.js';

/**
 * The term-base operations of a job (docs/terminology.md, "Term bases of jobs"): the term bases
 * are the project's, read in the context of the job's target language and workflow step, in
 * their priority order. The source side is the project's source language and the target side the
 * job's target language (`reverse` swaps them); a term base's language of the same family stands
 * in (`en_us` for `en`).
 */

const owner = (project: ProjectRow) => ({ kind: 'project' as const, id: project.id });

/** Every language of the term bases that stands for `lang`. */
function langsFor(termBases: readonly TermBaseRow[], lang: string): string[] {
  return [...new Set(termBases.flatMap((tb) => termBaseLangsFor(tb, lang)))];
}

/** TermV2Dto: a TermDto without its concept's fields. */
function termV2(dto: TermDto) {
  const { definition, domain, subDomains, url, conceptNote, ...term } = dto;
  void [definition, domain, subDomains, url, conceptNote];
  return term;
}

/** ConceptDtov2 of concepts, by id. */
async function conceptV2Lookup(db: Kysely<DB>, concepts: readonly ConceptRow[]) {
  const references = await conceptReferenceLookup(db, concepts);
  return new Map(
    concepts.map((concept) => {
      const { domain, subdomains } = references(concept);
      const dto: { id: string; definition?: string; domain?: string; subDomains: string[]; url?: string; note?: string } = {
        id: String(concept.id),
        subDomains: subdomains.map((s) => s.name),
      };
      if (concept.definition !== null) dto.definition = concept.definition;
      if (domain?.name) dto.domain = domain.name;
      if (concept.url !== null) dto.url = concept.url;
      if (concept.note !== null) dto.note = concept.note;
      return [String(concept.id), dto] as const;
    }),
  );
}

interface Sides {
  termBases: TermBaseRow[];
  /** The languages searched (source side, or target side with `reverse`). */
  from: string;
  to: string;
}

async function sidesOf(db: Kysely<DB>, project: ProjectRow, job: JobRow, reverse: boolean): Promise<Sides> {
  const termBases = await contextTermBases(db, owner(project), job.targetLang, job.projectWorkflowStepId, 'read');
  return reverse
    ? { termBases, from: job.targetLang, to: project.sourceLang }
    : { termBases, from: project.sourceLang, to: job.targetLang };
}

/** Answers for hits: each hit's term base, concept, term and the concept's terms on the other side. */
async function hitAnswers(deps: AppDeps, project: ProjectRow, sides: Sides, hits: readonly { term: TermRow }[]) {
  const db = deps.database.db;
  const byId = new Map(sides.termBases.map((tb) => [String(tb.id), tb]));
  const concepts: ConceptRow[] = [];
  for (const tb of sides.termBases) {
    const ids = hits.filter((h) => String(h.term.termBaseId) === String(tb.id)).map((h) => String(h.term.conceptId));
    if (ids.length) concepts.push(...(await findConcepts(db, tb.id, ids)));
  }
  const conceptIds = concepts.map((c) => c.id);
  const translations = await conceptTermsIn(db, conceptIds, langsFor(sides.termBases, sides.to));
  const terms = [...hits.map((h) => h.term), ...[...translations.values()].flat()];
  const dtos = new Map((await toTermDtos(db, project.organizationId, terms, concepts, false)).map((dto) => [dto.id, termV2(dto)] as const));
  const conceptDtos = await conceptV2Lookup(db, concepts);
  return hits.map(({ term }) => {
    const tb = byId.get(String(term.termBaseId))!;
    return {
      termBase: { id: String(tb.id), uid: tb.uid, name: tb.name },
      concept: conceptDtos.get(String(term.conceptId)) ?? { id: String(term.conceptId), subDomains: [] },
      sourceTerm: dtos.get(String(term.id))!,
      translationTerms: (translations.get(String(term.conceptId)) ?? []).map((t) => dtos.get(String(t.id))!),
    };
  });
}

export interface SearchByJobBody {
  query: string;
  count?: number | undefined;
  offset?: number | undefined;
  reverse?: boolean | undefined;
}

/** searchTermsByJob: the terms of the job's term bases matching `query` (search.ts's order: exact, prefix, fuzzy). */
export async function searchByJob(deps: AppDeps, project: ProjectRow, job: JobRow, body: SearchByJobBody) {
  const db = deps.database.db;
  const sides = await sidesOf(db, project, job, body.reverse === true);
  // One search over every language of the term bases that stands for the searched side.
  const langs = langsFor(sides.termBases, sides.from);
  const found: { term: TermRow; score: number }[] = [];
  for (const lang of langs) {
    found.push(
      ...(await searchTerms(db, {
        termBaseIds: sides.termBases.map((tb) => tb.id),
        lang,
        query: body.query,
        limit: (body.offset ?? 0) + (body.count ?? 15),
      })),
    );
  }
  const priority = new Map(sides.termBases.map((tb, i) => [String(tb.id), i]));
  found.sort(
    (a, b) =>
      b.score - a.score ||
      priority.get(String(a.term.termBaseId))! - priority.get(String(b.term.termBaseId))! ||
      Number(a.term.id) - Number(b.term.id),
  );
  const offset = body.offset ?? 0;
  const page = found.slice(offset, offset + (body.count ?? 15));
  return { searchResults: await hitAnswers(deps, project, sides, page) };
}

export interface SearchInTextBody {
  text: string;
  reverse?: boolean | undefined;
  zeroLengthSeparator?: string | undefined;
}

/**
 * searchTermsInTextByJobV2: every term of the job's term bases found in `text` (the recognizer's
 * rules: inflection, case, exact, compounds, CJK and Thai by character, tags ignored, the longest
 * of overlapping matches), one result per term with all its occurrences, in the order they first
 * occur; forbidden terms are found like the others and say so (`forbidden`).
 */
export async function searchInTextByJob(deps: AppDeps, project: ProjectRow, job: JobRow, body: SearchInTextBody) {
  const db = deps.database.db;
  const sides = await sidesOf(db, project, job, body.reverse === true);
  const langs = langsFor(sides.termBases, sides.from);
  if (sides.termBases.length === 0 || langs.length === 0) return { searchResults: [] };
  const matcher = await termRecognizer(db, sides.termBases, langs, sides.from);
  const separator = body.zeroLengthSeparator ? body.zeroLengthSeparator : undefined;
  const occurrences = matcher.find(body.text, separator ? { ignore: separator } : {});
  const grouped = new Map<string, { termId: Id; subTerm: boolean; matches: { beginIndex: number; text: string }[] }>();
  for (const occurrence of occurrences) {
    const id = occurrence.term.id;
    let group = grouped.get(id);
    if (!group) {
      group = { termId: id, subTerm: occurrence.subTerm, matches: [] };
      grouped.set(id, group);
    }
    group.subTerm &&= occurrence.subTerm;
    group.matches.push({ beginIndex: occurrence.begin, text: body.text.slice(occurrence.begin, occurrence.end) });
  }
  if (grouped.size === 0) return { searchResults: [] };
  const ids = [...grouped.keys()];
  const terms: TermRow[] = [];
  for (let at = 0; at < ids.length; at += 500) {
    terms.push(
      ...(await db
        .selectFrom('tbTerms')
        .selectAll()
        .where('id', 'in', ids.slice(at, at + 500))
        .execute()),
    );
  }
  const byId = new Map(terms.map((t) => [String(t.id), t]));
  const ordered = ids.flatMap((id) => byId.get(id) ?? []).map((term) => ({ term }));
  const answers = await hitAnswers(deps, project, sides, ordered);
  return {
    searchResults: answers.map((answer, i) => {
      const group = grouped.get(String(ordered[i]!.term.id))!;
      return { ...answer, subTerm: group.subTerm, matches: group.matches };
    }),
  };
}

export interface TermByJob {
  text: string;
  caseSensitive?: boolean | undefined;
  exactMatch?: boolean | undefined;
  forbidden?: boolean | undefined;
  preferred?: boolean | undefined;
  usage?: string | undefined;
  note?: string | undefined;
  shortTranslation?: string | undefined;
  termType?: 'FULL_FORM' | 'SHORT_FORM' | 'ACRONYM' | 'ABBREVIATION' | 'PHRASE' | 'VARIANT' | undefined;
  partOfSpeech?: 'ADJECTIVE' | 'NOUN' | 'VERB' | 'ADVERB' | undefined;
  gender?: 'MASCULINE' | 'FEMININE' | 'NEUTRAL' | undefined;
  number?: 'SINGULAR' | 'PLURAL' | 'UNCOUNTABLE' | undefined;
}

/**
 * createTermByJob: a new concept in the term base the project writes to for the job's context,
 * with the source term (project source language) and the target term (job target language).
 * 400 when the project writes to no term base there, or when it lacks one of the two languages.
 */
export async function createTermByJob(
  deps: AppDeps,
  caller: Caller,
  project: ProjectRow,
  job: JobRow,
  body: { sourceTerm: TermByJob; targetTerm: TermByJob },
) {
  const db = deps.database.db;
  for (const side of ['sourceTerm', 'targetTerm'] as const) {
    if (!body[side].text.trim()) {
      throw errors.InvalidArguments({ reason: 'A term needs a text.', details: [{ field: `${side}.text`, message: 'blank' }] });
    }
  }
  const [termBase] = await contextTermBases(db, owner(project), job.targetLang, job.projectWorkflowStepId, 'write');
  if (!termBase) {
    throw errors.InvalidArguments({
      reason: `The project writes to no term base for ${job.targetLang}: set a write term base (PUT /api2/v1/projects/{projectUid}/termBases).`,
      details: [{ field: 'termBase', message: 'no write term base for the job' }],
    });
  }
  const sourceLang = termBaseLangsFor(termBase, project.sourceLang)[0];
  const targetLang = termBaseLangsFor(termBase, job.targetLang)[0];
  if (!sourceLang || !targetLang) {
    throw errors.InvalidArguments({
      reason: `The write term base "${termBase.name}" lacks ${!sourceLang ? project.sourceLang : job.targetLang}.`,
      details: [{ field: !sourceLang ? 'sourceTerm' : 'targetTerm', message: 'language not in the write term base' }],
    });
  }
  // The job's caller writes on behalf of the project's settings: the term base's own rights are not asked.
  const source = await createTermIn(deps, caller, termBase, { ...body.sourceTerm, lang: sourceLang });
  const target = await createTermIn(deps, caller, termBase, { ...body.targetTerm, lang: targetLang, conceptId: String(source.concept.id) });
  const dtos = await toTermDtos(db, project.organizationId, [source.term, target.term], [target.concept], true);
  return { sourceTerm: dtos[0]!, targetTerm: dtos[1]! };
}
