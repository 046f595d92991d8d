import { Readable } from 'node:stream';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SaxesTagPlain } from 'saxes';
import { decodeStream } from './encoding.js';
import { termLanguage, warningSink } from './term-entries.js';
import type {
  Gender,
  GrammaticalNumber,
  PartOfSpeech,
  TermEntry,
  TermEntryStatus,
  TermEntryTerm,
  TermReadOptions,
  TermType,
  TermWriteOptions,
} from './term-entries.js';
import { FormatError } from './types.js';
import { chooseXmlEncoding } from './xliff12.js';
import { escapeXmlAttribute, escapeXmlText, hasNonXmlCharacter, XmlScanner } from './xml.js';

/**
 * TBX (TermBase eXchange, ISO 30042): a streaming, lenient reader and a strict writer over the
 * terminology model of term-entries.ts. No database code: the term-base import and export feed and
 * drain these.
 *
 * Reading streams the file through saxes (as tmx.ts does), one concept entry at a time: memory is
 * bounded by the largest entry (more than {@link MAX_ENTRY_CHARS} characters of text and markup is
 * a FormatError) plus the batch being yielded. It reads TBX-Basic and TBX v2 (ISO 30042:2008:
 * `martif` root, `termEntry` / `langSet` / `tig` or `ntig`+`termGrp` / `term`) and the TBX v3 core
 * structure (`tbx` root, `conceptEntry` / `langSec` / `termSec`), including v3 DCT-style data
 * category elements (`<basic:partOfSpeech>`…) where they map one to one. Namespace prefixes are
 * ignored (local names are matched); `lang` is accepted where `xml:lang` belongs. A data category
 * is recognized by its `type` whatever element carries it (`descrip`, `admin`, `termNote`, `ref`),
 * so tools that put one where another belongs still read; `descripGrp`/`adminGrp`/`termNoteGrp`
 * contribute their main element only. Values are trimmed at both ends (a blank value is absent);
 * inline markup inside `term` (`hi`, `ph`…) contributes its text. Unknown elements are ignored with
 * their content; an entry with no terms, a term with empty text or without a language is skipped
 * with a warning naming its line. Malformed XML is a FormatError with line and column; elements
 * nested deeper than `maxDepth` (default 512) are a FormatError. Encodings: UTF-8, UTF-16 (BOM),
 * and the XML declaration's encoding (ISO-8859-1, US-ASCII), via encoding.ts as tmx.ts does.
 *
 * Mapping (term-level fields are read inside `tig`, `ntig` and `termSec`):
 * - `termEntry/@id`, `conceptEntry/@id` → `id` (the writer's `_.` escape undone, see below);
 * - `definition` → `definition` (entry level; else the first at language or term level);
 *   `subjectField` / `domain` → `domain`; `subdomain` (repeatable) → `subdomains`;
 *   `descrip type="url"`, `xref type="externalCrossReference"` (its `target`, else its text) → `url`;
 *   entry-level `note`s → `note` (joined with "\n");
 * - `administrativeStatus` / `normativeAuthorization`: a value containing `forbidden` → usage
 *   "forbidden" and forbidden; `preferred…` → usage "preferred" and preferred; `admitted…`,
 *   `deprecated…`, `superseded…` → that usage. `usageNote` / `usage` → usage when no status set it.
 *   Explicit `x-preferred` / `x-forbidden` win over what the status implies;
 * - `partOfSpeech` (noun, verb, adjective, adverb), `grammaticalGender` (masculine, feminine,
 *   neuter|neutral), `grammaticalNumber` (singular, plural, mass|uncountable), `termType` (fullForm,
 *   shortForm, acronym, abbreviation, phrase, variant), any case; unknown values are ignored;
 * - `x-status` / `status` (new, approved, rejected) → status; `x-caseSensitive`, `x-exactMatch`,
 *   `x-forbidden`, `x-preferred` (true/false/yes/no/1/0) → booleans; `x-shortTranslation` →
 *   shortTranslation; term-level `note`s → note (joined with "\n");
 * - `transacGrp`: `transac` (type `transactionType`, or the type itself) origination|creation →
 *   createdAt (its `date`) / createdBy (`transacNote` `responsibility`|`responsiblePerson`);
 *   modification → modifiedAt / modifiedBy (the last one wins).
 *
 * Writing emits TBX-Basic-style ISO 30042:2008 TBX in UTF-8 that validates against the TBX schema
 * shipped in Debian's omegat package: `schemas/tbx.xsd` of /usr/share/omegat/OmegaT.jar, with the
 * `schemas/xml.xsd` beside it that it imports, checked in tbx.test.ts by
 * `xmllint --nonet --noout --schema tbx.xsd out.tbx`. Shape: `<martif type="TBX" xml:lang>` (the
 * `sourceLang` option, else the first of `langs`), `martifHeader/fileDesc/sourceDesc/p` (the title),
 * then `text/body/termEntry`: concept fields as `descrip` (definition, subjectField, subdomain),
 * `xref type="externalCrossReference" target` (url) and `note`, then one `langSet xml:lang` per
 * language in `langs` order, each term a `tig`: `term`, `termNote`s (administrativeStatus or
 * usageNote, partOfSpeech, grammaticalGender, grammaticalNumber, termType, x-caseSensitive,
 * x-exactMatch, x-forbidden, x-preferred), `admin`s (x-status, x-shortTranslation), `transacGrp`s
 * (origination, modification) and `note`, so `readTbx(writeTbx(x))` gives `x` back. The xml:lang
 * written is the BCP 47 form (`en_us` → `en-US`); a language that is no xs:language is refused.
 *
 * Entry ids: the schema types `termEntry/@id` as xs:ID (an NCName, unique in the file). An id made
 * of ASCII letters, digits, `_`, `-`, `.` that starts with a letter or `_` (and not with `_.`) is
 * written as is; any other is written as `_.` followed by the id with every character other than
 * an ASCII letter, digit or `-` as `_<hex code point>.` (`12 3` → `_.12_20.3`), which the reader
 * decodes back. A repeated id is written once; later entries with it are written without an id
 * (with a warning) — the writer keeps the set of ids written, so memory grows with the entry count
 * by their ids only.
 *
 * The writer skips with a warning: terms in a language not in `langs`, terms with empty text, terms
 * holding a character XML 1.0 cannot hold (also as a reference) in any field, entries whose concept
 * fields hold one, and entries left with no terms (a termEntry needs a langSet). Blank optional
 * values are not written (the reader reads them as absent); values are written as they are (the
 * reader trims them). It streams with backpressure through `stream.pipeline` and, like writeTmx,
 * ends `output` (on failure `output` is destroyed). A file with no entries is well-formed but not
 * schema-valid (the schema requires a termEntry in `body`).
 */

export interface TbxReadOptions extends TermReadOptions {
  /** Elements nested deeper than this are a FormatError (default 512). */
  maxDepth?: number;
}

export interface TbxWriteOptions extends TermWriteOptions {
  /** Written in `martifHeader/fileDesc/sourceDesc/p`. */
  title?: string;
  /** The `martif` element's `xml:lang` (default: the first of `langs`). */
  sourceLang?: string;
}

const DEFAULT_BATCH = 1000;
/** An entry holding more characters (text and markup) than this is refused: entries are held in memory whole. */
export const MAX_ENTRY_CHARS = 10_000_000;

// ---------------------------------------------------------------------------------------------
// Entry ids

const PLAIN_ID = /^[A-Za-z_][A-Za-z0-9._-]*$/;
const ENCODED_ID = /^_\.((?:[A-Za-z0-9-]|_[0-9A-Fa-f]{1,6}\.)*)$/;

/** The xs:ID the writer uses for an entry id (see the module comment). */
export function tbxEntryId(id: string): string {
  if (PLAIN_ID.test(id) && !id.startsWith('_.')) return id;
  let out = '_.';
  for (const char of id) out += /^[A-Za-z0-9-]$/.test(char) ? char : `_${char.codePointAt(0)!.toString(16)}.`;
  return out;
}

/** The entry id a file's `id` attribute stands for: the writer's `_.` escape undone. */
export function entryIdOfTbx(raw: string): string {
  const match = ENCODED_ID.exec(raw);
  if (!match) return raw;
  let valid = true;
  const decoded = match[1]!.replace(/_([0-9A-Fa-f]{1,6})\./g, (_all, hex: string) => {
    const code = parseInt(hex, 16);
    if (code > 0x10ffff) {
      valid = false;
      return '';
    }
    return String.fromCodePoint(code);
  });
  return valid ? decoded : raw;
}

// ---------------------------------------------------------------------------------------------
// Values

const PARTS_OF_SPEECH: Record<string, PartOfSpeech> = { noun: 'NOUN', verb: 'VERB', adjective: 'ADJECTIVE', adverb: 'ADVERB' };
const GENDERS: Record<string, Gender> = { masculine: 'MASCULINE', feminine: 'FEMININE', neuter: 'NEUTRAL', neutral: 'NEUTRAL' };
const NUMBERS: Record<string, GrammaticalNumber> = {
  singular: 'SINGULAR',
  plural: 'PLURAL',
  mass: 'UNCOUNTABLE',
  uncountable: 'UNCOUNTABLE',
  massnoun: 'UNCOUNTABLE',
};
const TERM_TYPES_READ: Record<string, TermType> = {
  fullform: 'FULL_FORM',
  shortform: 'SHORT_FORM',
  acronym: 'ACRONYM',
  abbreviation: 'ABBREVIATION',
  abbreviatedform: 'ABBREVIATION',
  phrase: 'PHRASE',
  variant: 'VARIANT',
};
const STATUSES: Record<string, TermEntryStatus> = { new: 'New', approved: 'Approved', rejected: 'Rejected' };

/** Written values (TBX picklist values where TBX has them). */
const PART_OF_SPEECH_OUT: Record<PartOfSpeech, string> = { NOUN: 'noun', VERB: 'verb', ADJECTIVE: 'adjective', ADVERB: 'adverb' };
const GENDER_OUT: Record<Gender, string> = { MASCULINE: 'masculine', FEMININE: 'feminine', NEUTRAL: 'neuter' };
const NUMBER_OUT: Record<GrammaticalNumber, string> = { SINGULAR: 'singular', PLURAL: 'plural', UNCOUNTABLE: 'mass' };
const TERM_TYPE_OUT: Record<TermType, string> = {
  FULL_FORM: 'fullForm',
  SHORT_FORM: 'shortForm',
  ACRONYM: 'acronym',
  ABBREVIATION: 'abbreviation',
  PHRASE: 'phrase',
  VARIANT: 'variant',
};
/** Usages written as an administrativeStatus, and what the reader derives from each. */
const ADMIN_STATUS_OUT: Record<string, { value: string; preferred?: true; forbidden?: true }> = {
  preferred: { value: 'preferredTerm-admn-sts', preferred: true },
  admitted: { value: 'admittedTerm-admn-sts' },
  deprecated: { value: 'deprecatedTerm-admn-sts' },
  superseded: { value: 'supersededTerm-admn-sts' },
  forbidden: { value: 'forbiddenTerm-admn-sts', forbidden: true },
};

/** A picklist key: lower case, letters and digits only (`fullForm`, `full-form`, `FULL_FORM` → `fullform`). */
function picklistKey(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** `table[key]` when `key` is the table's own (never something inherited, such as `constructor`). */
function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

function lookup<T>(table: Record<string, T>, value: string): T | undefined {
  return own(table, picklistKey(value));
}

function parseBoolean(value: string): boolean | undefined {
  const key = value.toLowerCase();
  if (key === 'true' || key === 'yes' || key === '1') return true;
  if (key === 'false' || key === 'no' || key === '0') return false;
  return undefined;
}

interface AdminStatus {
  usage: string;
  preferred?: boolean;
  forbidden?: boolean;
}

function adminStatus(value: string): AdminStatus | null {
  const key = value.toLowerCase();
  if (key.includes('forbidden')) return { usage: 'forbidden', forbidden: true };
  if (key.includes('preferred')) return { usage: 'preferred', preferred: true };
  if (key.includes('admitted')) return { usage: 'admitted' };
  if (key.includes('deprecated')) return { usage: 'deprecated' };
  if (key.includes('superseded')) return { usage: 'superseded' };
  return null;
}

// ---------------------------------------------------------------------------------------------
// Reader

/** Element local names that hold a data category named by their `type` attribute. */
const TYPED_ELEMENTS = new Set(['descrip', 'admin', 'termnote', 'ref']);
/** TBX v3 DCT-style elements: the element's name is the data category. */
const DCT_ELEMENTS = new Set([
  'definition',
  'subjectfield',
  'subdomain',
  'externalcrossreference',
  'administrativestatus',
  'normativeauthorization',
  'usagenote',
  'partofspeech',
  'grammaticalgender',
  'grammaticalnumber',
  'termtype',
]);
const GROUP_ELEMENTS = new Set(['descripgrp', 'admingrp', 'termnotegrp']);
const ENTRY_ELEMENTS = new Set(['termentry', 'conceptentry']);
const LANG_ELEMENTS = new Set(['langset', 'langsec']);
const TERM_ELEMENTS = new Set(['tig', 'ntig', 'termsec']);

type Level = 'entry' | 'lang' | 'term';
type Role = 'outer' | 'entry' | 'lang' | 'term' | 'termGrp' | 'group' | 'transacGrp' | 'capture' | 'inner' | 'skip';
type CaptureKind = 'category' | 'xref' | 'note' | 'termText' | 'transac' | 'transacNote' | 'date';

interface Capture {
  kind: CaptureKind;
  /** The data category (lower case): the `type` attribute, or the element's name (DCT style). */
  type: string;
  target: string | undefined;
  level: Level;
  parts: string[];
}

interface Frame {
  role: Role;
  level: Level;
  /** A group frame: whether its main element was read. */
  taken: boolean;
  capture: Capture | null;
}

interface EntryState {
  element: string;
  line: number;
  chars: number;
  id: string | undefined;
  definition: string | undefined;
  otherDefinition: string | undefined;
  domain: string | undefined;
  otherDomain: string | undefined;
  subdomains: string[];
  otherSubdomains: string[];
  url: string | undefined;
  otherUrl: string | undefined;
  notes: string[];
  terms: TermEntryTerm[];
}

interface LangState {
  rawLang: string | undefined;
}

interface TermState {
  line: number;
  rawLang: string | undefined;
  text: string | undefined;
  status: TermEntryStatus | undefined;
  statusUsage: AdminStatus | undefined;
  usageText: string | undefined;
  preferred: boolean | undefined;
  forbidden: boolean | undefined;
  caseSensitive: boolean | undefined;
  exactMatch: boolean | undefined;
  termType: TermType | undefined;
  partOfSpeech: PartOfSpeech | undefined;
  gender: Gender | undefined;
  number: GrammaticalNumber | undefined;
  shortTranslation: string | undefined;
  notes: string[];
  createdAt: string | undefined;
  createdBy: string | undefined;
  modifiedAt: string | undefined;
  modifiedBy: string | undefined;
}

interface TransacState {
  kind: string | undefined;
  date: string | undefined;
  by: string | undefined;
}

function localName(name: string): string {
  const colon = name.lastIndexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function attribute(attributes: Record<string, string>, name: string): string | undefined {
  if (attributes[name] !== undefined) return attributes[name];
  for (const key in attributes) if (localName(key) === name) return attributes[key];
  return undefined;
}

function languageAttribute(attributes: Record<string, string>): string | undefined {
  return attributes['xml:lang'] ?? attributes['lang'] ?? attribute(attributes, 'lang');
}

function newTerm(line: number, rawLang: string | undefined): TermState {
  return {
    line,
    rawLang,
    text: undefined,
    status: undefined,
    statusUsage: undefined,
    usageText: undefined,
    preferred: undefined,
    forbidden: undefined,
    caseSensitive: undefined,
    exactMatch: undefined,
    termType: undefined,
    partOfSpeech: undefined,
    gender: undefined,
    number: undefined,
    shortTranslation: undefined,
    notes: [],
    createdAt: undefined,
    createdBy: undefined,
    modifiedAt: undefined,
    modifiedBy: undefined,
  };
}

/** Feeds decoded text to saxes; complete entries collect in `entries`. */
class TbxScanner extends XmlScanner {
  readonly entries: TermEntry[] = [];
  private readonly stack: Frame[] = [];
  private readonly warnings: ReturnType<typeof warningSink>;
  private entry: EntryState | null = null;
  private lang: LangState | null = null;
  private term: TermState | null = null;
  private transac: TransacState | null = null;
  private capture: Capture | null = null;

  constructor(options: TbxReadOptions) {
    super({ maxDepth: options.maxDepth });
    this.warnings = warningSink(options);
  }

  private warnAt(message: string, line: number): void {
    this.warnings.add({ message, line });
  }

  private count(length: number): void {
    const entry = this.entry;
    if (!entry) return;
    entry.chars += length;
    if (entry.chars > MAX_ENTRY_CHARS) this.fail(`a <${entry.element}> (line ${entry.line}) is larger than ${MAX_ENTRY_CHARS} characters`);
  }

  protected onText(text: string): void {
    if (this.failure) return;
    this.count(text.length);
    this.capture?.parts.push(text);
  }

  private enter(role: Role, level: Level, capture: Capture | null = null): void {
    this.stack.push({ role, level, taken: false, capture });
    if (capture) this.capture = capture;
  }

  private startCapture(kind: CaptureKind, type: string, level: Level, attributes: Record<string, string>): void {
    this.enter('capture', level, { kind, type: type.toLowerCase(), target: attribute(attributes, 'target'), level, parts: [] });
  }

  /** Starts a data-category capture if `name` holds one; false when it is no data category. */
  private category(name: string, attributes: Record<string, string>, level: Level): boolean {
    if (TYPED_ELEMENTS.has(name)) this.startCapture('category', attribute(attributes, 'type') ?? '', level, attributes);
    else if (name === 'note') this.startCapture('note', 'note', level, attributes);
    else if (name === 'xref') this.startCapture('xref', attribute(attributes, 'type') ?? '', level, attributes);
    else if (DCT_ELEMENTS.has(name)) this.startCapture(name === 'externalcrossreference' ? 'xref' : 'category', name, level, attributes);
    else return false;
    return true;
  }

  protected onOpen(tag: SaxesTagPlain): void {
    if (this.stack.length >= this.maxDepth) return this.fail(`elements are nested deeper than ${this.maxDepth} levels`);
    const name = localName(tag.name).toLowerCase();
    const attributes = tag.attributes as Record<string, string>;
    if (!this.sawRoot) {
      this.sawRoot = true;
      if (name !== 'martif' && name !== 'tbx') return this.fail(`not a TBX document: the root element is <${tag.name}>`);
      return this.enter('outer', 'entry');
    }
    const parent = this.stack[this.stack.length - 1]!;
    // Markup counts towards the entry's size too (an entry of a million empty elements has no text).
    this.count(name.length + 2);
    switch (parent.role) {
      case 'skip':
        return this.enter('skip', parent.level);
      case 'capture':
      case 'inner':
        return this.enter('inner', parent.level);
      case 'outer':
        if (ENTRY_ELEMENTS.has(name)) return this.openEntry(localName(tag.name), attributes);
        return this.enter('outer', 'entry');
      case 'entry':
        if (LANG_ELEMENTS.has(name)) {
          this.lang = { rawLang: languageAttribute(attributes) };
          if (this.lang.rawLang === undefined || this.lang.rawLang.trim() === '') {
            this.warnAt(`a <${localName(tag.name)}> without a language: its terms are skipped`, this.parser.line);
          }
          return this.enter('lang', 'lang');
        }
        return this.openData(name, attributes, 'entry');
      case 'lang':
        if (TERM_ELEMENTS.has(name)) {
          this.term = newTerm(this.parser.line, languageAttribute(attributes) ?? this.lang?.rawLang);
          return this.enter('term', 'term');
        }
        return this.openData(name, attributes, 'lang');
      case 'term':
      case 'termGrp':
        if (name === 'term') return this.startCapture('termText', 'term', 'term', attributes);
        if (name === 'termgrp' && parent.role === 'term') return this.enter('termGrp', 'term');
        if (name === 'transacgrp' && parent.role === 'term') {
          this.transac = { kind: undefined, date: undefined, by: undefined };
          return this.enter('transacGrp', 'term');
        }
        return this.openData(name, attributes, 'term');
      case 'group':
        if (!parent.taken && this.category(name, attributes, parent.level)) {
          parent.taken = true;
          return;
        }
        return this.enter('skip', parent.level);
      case 'transacGrp':
        if (name === 'transac' || name === 'transactiontype') {
          return this.startCapture('transac', name === 'transac' ? (attribute(attributes, 'type') ?? '') : name, 'term', attributes);
        }
        if (name === 'transacnote' || name === 'responsibility') {
          return this.startCapture(
            'transacNote',
            name === 'transacnote' ? (attribute(attributes, 'type') ?? '') : name,
            'term',
            attributes,
          );
        }
        if (name === 'date') return this.startCapture('date', 'date', 'term', attributes);
        return this.enter('skip', 'term');
    }
  }

  private openEntry(element: string, attributes: Record<string, string>): void {
    const rawId = attribute(attributes, 'id');
    this.entry = {
      element,
      line: this.parser.line,
      chars: 0,
      id: rawId === undefined || rawId === '' ? undefined : entryIdOfTbx(rawId),
      definition: undefined,
      otherDefinition: undefined,
      domain: undefined,
      otherDomain: undefined,
      subdomains: [],
      otherSubdomains: [],
      url: undefined,
      otherUrl: undefined,
      notes: [],
      terms: [],
    };
    this.enter('entry', 'entry');
  }

  /** A child of an entry, language or term holding data: a data category, a group of one, or something ignored. */
  private openData(name: string, attributes: Record<string, string>, level: Level): void {
    if (GROUP_ELEMENTS.has(name)) return this.enter('group', level);
    if (!this.category(name, attributes, level)) this.enter('skip', level);
  }

  protected onClose(): void {
    const frame = this.stack.pop();
    if (!frame) return;
    switch (frame.role) {
      case 'capture':
        this.capture = null;
        if (frame.capture) this.closeCapture(frame.capture);
        return;
      case 'transacGrp':
        return this.closeTransac();
      case 'term':
        return this.closeTerm();
      case 'lang':
        this.lang = null;
        return;
      case 'entry':
        return this.closeEntry();
      default:
        return;
    }
  }

  private closeCapture(capture: Capture): void {
    const value = capture.parts.join('').trim();
    const target = capture.target?.trim();
    switch (capture.kind) {
      case 'termText':
        if (this.term && this.term.text === undefined) this.term.text = value;
        return;
      case 'transac': {
        // `<transac type="transactionType">origination</transac>`, or the kind as the type itself.
        const kind = capture.type === 'transactiontype' || capture.type === '' ? value : capture.type;
        if (this.transac && kind !== '') this.transac.kind ??= kind;
        return;
      }
      case 'transacNote':
        if (this.transac && value !== '' && /^(?:responsibility|responsibleperson|responsible|author|user)?$/.test(capture.type)) {
          this.transac.by ??= value;
        }
        return;
      case 'date':
        if (this.transac && value !== '') this.transac.date ??= value;
        return;
      case 'xref': {
        const url = target || value;
        if (
          url !== '' &&
          (capture.type === 'externalcrossreference' || capture.type === 'url' || (capture.type === '' && /^[a-z][a-z0-9+.-]*:/i.test(url)))
        ) {
          this.setUrl(url, capture.level);
        }
        return;
      }
      case 'note':
        if (value === '') return;
        if (capture.level === 'entry') this.entry?.notes.push(value);
        else if (capture.level === 'term') this.term?.notes.push(value);
        return;
      case 'category':
        if (value !== '') this.applyCategory(capture.type, value, capture.level);
        return;
    }
  }

  private setUrl(url: string, level: Level): void {
    const entry = this.entry;
    if (!entry) return;
    if (level === 'entry') entry.url ??= url;
    else entry.otherUrl ??= url;
  }

  private applyCategory(type: string, value: string, level: Level): void {
    const entry = this.entry;
    if (!entry) return;
    switch (type) {
      case 'definition':
        if (level === 'entry') entry.definition ??= value;
        else entry.otherDefinition ??= value;
        return;
      case 'subjectfield':
      case 'domain':
        if (level === 'entry') entry.domain ??= value;
        else entry.otherDomain ??= value;
        return;
      case 'subdomain':
        (level === 'entry' ? entry.subdomains : entry.otherSubdomains).push(value);
        return;
      case 'url':
      case 'externalcrossreference':
        return this.setUrl(value, level);
      case 'note':
        if (level === 'entry') entry.notes.push(value);
        else if (level === 'term') this.term?.notes.push(value);
        return;
      default:
        if (level === 'term' && this.term) this.applyTermCategory(this.term, type, value);
    }
  }

  private applyTermCategory(term: TermState, type: string, value: string): void {
    switch (type) {
      case 'administrativestatus':
      case 'normativeauthorization':
        term.statusUsage ??= adminStatus(value) ?? undefined;
        return;
      case 'usagenote':
      case 'usage':
        term.usageText ??= value;
        return;
      case 'partofspeech':
        term.partOfSpeech ??= lookup(PARTS_OF_SPEECH, value);
        return;
      case 'grammaticalgender':
        term.gender ??= lookup(GENDERS, value);
        return;
      case 'grammaticalnumber':
        term.number ??= lookup(NUMBERS, value);
        return;
      case 'termtype':
        term.termType ??= lookup(TERM_TYPES_READ, value);
        return;
      case 'x-status':
      case 'status':
        term.status ??= lookup(STATUSES, value);
        return;
      case 'x-casesensitive':
      case 'casesensitive':
        term.caseSensitive ??= parseBoolean(value);
        return;
      case 'x-exactmatch':
      case 'exactmatch':
        term.exactMatch ??= parseBoolean(value);
        return;
      case 'x-forbidden':
      case 'forbidden':
        term.forbidden ??= parseBoolean(value);
        return;
      case 'x-preferred':
      case 'preferred':
        term.preferred ??= parseBoolean(value);
        return;
      case 'x-shorttranslation':
      case 'shorttranslation':
        term.shortTranslation ??= value;
        return;
      default:
        return;
    }
  }

  private closeTransac(): void {
    const transac = this.transac;
    const term = this.term;
    this.transac = null;
    if (!transac || !term || transac.kind === undefined) return;
    const kind = transac.kind.toLowerCase();
    if (kind === 'origination' || kind === 'creation' || kind === 'created') {
      term.createdAt ??= transac.date;
      term.createdBy ??= transac.by;
    } else if (kind === 'modification' || kind === 'modified' || kind === 'modify') {
      // The last modification is the latest (files list them in order).
      if (transac.date !== undefined) term.modifiedAt = transac.date;
      if (transac.by !== undefined) term.modifiedBy = transac.by;
    }
  }

  private closeTerm(): void {
    const state = this.term;
    this.term = null;
    const entry = this.entry;
    if (!state || !entry) return;
    if (state.text === undefined || state.text === '')
      return this.warnAt(`a term with empty text (line ${state.line}) is skipped`, state.line);
    if (state.rawLang === undefined || state.rawLang.trim() === '') return;
    const term: TermEntryTerm = { lang: termLanguage(state.rawLang), text: state.text };
    if (state.status !== undefined) term.status = state.status;
    const usage = state.statusUsage?.usage ?? state.usageText;
    if (usage !== undefined) term.usage = usage;
    const forbidden = state.forbidden ?? state.statusUsage?.forbidden;
    if (forbidden !== undefined) term.forbidden = forbidden;
    const preferred = state.preferred ?? state.statusUsage?.preferred;
    if (preferred !== undefined) term.preferred = preferred;
    if (state.caseSensitive !== undefined) term.caseSensitive = state.caseSensitive;
    if (state.exactMatch !== undefined) term.exactMatch = state.exactMatch;
    if (state.termType !== undefined) term.termType = state.termType;
    if (state.partOfSpeech !== undefined) term.partOfSpeech = state.partOfSpeech;
    if (state.gender !== undefined) term.gender = state.gender;
    if (state.number !== undefined) term.number = state.number;
    if (state.notes.length) term.note = state.notes.join('\n');
    if (state.shortTranslation !== undefined) term.shortTranslation = state.shortTranslation;
    if (state.createdAt !== undefined) term.createdAt = state.createdAt;
    if (state.createdBy !== undefined) term.createdBy = state.createdBy;
    if (state.modifiedAt !== undefined) term.modifiedAt = state.modifiedAt;
    if (state.modifiedBy !== undefined) term.modifiedBy = state.modifiedBy;
    entry.terms.push(term);
  }

  private closeEntry(): void {
    const state = this.entry;
    this.entry = null;
    this.lang = null;
    if (!state) return;
    if (state.terms.length === 0) {
      return this.warnAt(
        `a <${state.element}>${state.id !== undefined ? ` (id "${state.id}")` : ''} at line ${state.line} has no terms: skipped`,
        state.line,
      );
    }
    const entry: TermEntry = { terms: state.terms };
    if (state.id !== undefined) entry.id = state.id;
    const definition = state.definition ?? state.otherDefinition;
    if (definition !== undefined) entry.definition = definition;
    const domain = state.domain ?? state.otherDomain;
    if (domain !== undefined) entry.domain = domain;
    const subdomains = state.subdomains.length ? state.subdomains : state.otherSubdomains;
    if (subdomains.length) entry.subdomains = subdomains;
    if (state.notes.length) entry.note = state.notes.join('\n');
    const url = state.url ?? state.otherUrl;
    if (url !== undefined) entry.url = url;
    this.entries.push(entry);
  }
}

/**
 * Reads a TBX file as batches of entries (at most `batchSize` each, one or more per chunk of the
 * file). Warnings go to `options.warnings`; a malformed file rejects with FormatError.
 */
export async function* readTbx(input: Readable, options: TbxReadOptions = {}): AsyncGenerator<TermEntry[]> {
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  const { chunks } = await decodeStream(input, chooseXmlEncoding);
  const scanner = new TbxScanner(options);
  function* drain(): Generator<TermEntry[]> {
    while (scanner.entries.length > 0) yield scanner.entries.splice(0, batchSize);
  }
  for await (const chunk of chunks) {
    scanner.push(chunk);
    yield* drain();
  }
  scanner.end();
  yield* drain();
}

// ---------------------------------------------------------------------------------------------
// Writer

const XS_LANGUAGE = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The `xml:lang` value of a term-base language code (`en_us` → `en-US`), or null when it is no xs:language. */
export function tbxLanguage(code: string): string | null {
  const parts = termLanguage(code).split('_');
  const out = parts
    .map((part, index) => {
      if (index === 0) return part;
      if (part.length === 2) return part.toUpperCase();
      if (part.length === 4) return part[0]!.toUpperCase() + part.slice(1);
      return part;
    })
    .join('-');
  return XS_LANGUAGE.test(out) ? out : null;
}

/** Whether `text` cannot be written to XML 1.0 in UTF-8 (a forbidden character, or a lone surrogate). */
function unwritable(text: string): boolean {
  return hasNonXmlCharacter(text) || LONE_SURROGATE.test(text);
}

/** Element content: `&`, `<`, `>` escaped, and CR as a reference (a literal one would be read as LF). */
function xmlText(text: string): string {
  return escapeXmlText(text).replace(/\r/g, '&#13;');
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

function termXml(term: TermEntryTerm): string {
  let notes = '';
  const termNote = (type: string, value: string) => {
    notes += `            <termNote type="${type}">${xmlText(value)}</termNote>\n`;
  };
  const usage = present(term.usage) ? term.usage : undefined;
  const implied = usage === undefined ? undefined : own(ADMIN_STATUS_OUT, usage);
  // An administrativeStatus implies preferred/forbidden on read: used only when the term says the same.
  const status =
    implied && (implied.preferred === undefined || term.preferred === true) && (implied.forbidden === undefined || term.forbidden === true)
      ? implied
      : undefined;
  if (status) termNote('administrativeStatus', status.value);
  else if (usage !== undefined) termNote('usageNote', usage);
  const partOfSpeech = term.partOfSpeech === undefined ? undefined : own(PART_OF_SPEECH_OUT, term.partOfSpeech);
  if (partOfSpeech) termNote('partOfSpeech', partOfSpeech);
  const gender = term.gender === undefined ? undefined : own(GENDER_OUT, term.gender);
  if (gender) termNote('grammaticalGender', gender);
  const number = term.number === undefined ? undefined : own(NUMBER_OUT, term.number);
  if (number) termNote('grammaticalNumber', number);
  const termType = term.termType === undefined ? undefined : own(TERM_TYPE_OUT, term.termType);
  if (termType) termNote('termType', termType);
  if (typeof term.caseSensitive === 'boolean') termNote('x-caseSensitive', String(term.caseSensitive));
  if (typeof term.exactMatch === 'boolean') termNote('x-exactMatch', String(term.exactMatch));
  if (typeof term.forbidden === 'boolean' && !status?.forbidden) termNote('x-forbidden', String(term.forbidden));
  if (typeof term.preferred === 'boolean' && !status?.preferred) termNote('x-preferred', String(term.preferred));
  let rest = '';
  if (term.status !== undefined && Object.values(STATUSES).includes(term.status)) {
    rest += `            <admin type="x-status">${term.status}</admin>\n`;
  }
  if (present(term.shortTranslation)) rest += `            <admin type="x-shortTranslation">${xmlText(term.shortTranslation)}</admin>\n`;
  const transac = (kind: string, at: string | undefined, by: string | undefined) => {
    if (!present(at) && !present(by)) return;
    rest += `            <transacGrp>\n              <transac type="transactionType">${kind}</transac>\n`;
    if (present(by)) rest += `              <transacNote type="responsibility">${xmlText(by)}</transacNote>\n`;
    if (present(at)) rest += `              <date>${xmlText(at)}</date>\n`;
    rest += '            </transacGrp>\n';
  };
  transac('origination', term.createdAt, term.createdBy);
  transac('modification', term.modifiedAt, term.modifiedBy);
  if (present(term.note)) rest += `            <note>${xmlText(term.note)}</note>\n`;
  return `          <tig>\n            <term>${xmlText(term.text)}</term>\n${notes}${rest}          </tig>\n`;
}

/** Every string a term writes, for the XML character check. */
function termStrings(term: TermEntryTerm): (string | undefined)[] {
  return [term.text, term.usage, term.note, term.shortTranslation, term.createdAt, term.createdBy, term.modifiedAt, term.modifiedBy];
}

interface WriterState {
  langs: { key: string; xml: string }[];
  ids: Set<string>;
  sink: ReturnType<typeof warningSink>;
  entries: number;
  terms: number;
}

function entryXml(entry: TermEntry, index: number, state: WriterState): string | null {
  const what = `entry ${entry.id !== undefined ? `"${entry.id}"` : index + 1}`;
  const conceptStrings = [entry.definition, entry.domain, entry.note, entry.url, ...(entry.subdomains ?? [])];
  if (conceptStrings.some((value) => value !== undefined && unwritable(value))) {
    state.sink.add({ message: `${what} is skipped: a concept field holds a character XML cannot hold` });
    return null;
  }
  const byLang = new Map<string, string[]>();
  let termCount = 0;
  for (const term of entry.terms) {
    const key = termLanguage(term.lang);
    const bucket = state.langs.some((lang) => lang.key === key) ? byLang : null;
    if (!bucket) {
      state.sink.add({ message: `${what}: a term in ${term.lang} is skipped (not one of the languages exported)` });
      continue;
    }
    if (!present(term.text)) {
      state.sink.add({ message: `${what}: a term in ${term.lang} with empty text is skipped` });
      continue;
    }
    if (termStrings(term).some((value) => value !== undefined && unwritable(value))) {
      state.sink.add({ message: `${what}: the ${term.lang} term "${term.text.slice(0, 80)}" holds a character XML cannot hold: skipped` });
      continue;
    }
    const list = bucket.get(key) ?? [];
    list.push(termXml(term));
    bucket.set(key, list);
    termCount += 1;
  }
  if (termCount === 0) {
    state.sink.add({ message: `${what} has no term that can be written: skipped` });
    return null;
  }
  let out = '      <termEntry';
  if (entry.id !== undefined) {
    const id = tbxEntryId(entry.id);
    if (state.ids.has(id)) state.sink.add({ message: `${what}: the id is repeated; this entry is written without it` });
    else {
      state.ids.add(id);
      out += ` id="${escapeXmlAttribute(id)}"`;
    }
  }
  out += '>\n';
  if (present(entry.definition)) out += `        <descrip type="definition">${xmlText(entry.definition)}</descrip>\n`;
  if (present(entry.domain)) out += `        <descrip type="subjectField">${xmlText(entry.domain)}</descrip>\n`;
  for (const subdomain of entry.subdomains ?? []) {
    if (present(subdomain)) out += `        <descrip type="subdomain">${xmlText(subdomain)}</descrip>\n`;
  }
  if (present(entry.url)) out += `        <xref type="externalCrossReference" target="${escapeXmlAttribute(entry.url)}"/>\n`;
  if (present(entry.note)) out += `        <note>${xmlText(entry.note)}</note>\n`;
  for (const lang of state.langs) {
    const terms = byLang.get(lang.key);
    if (!terms) continue;
    out += `        <langSet xml:lang="${lang.xml}">\n${terms.join('')}        </langSet>\n`;
  }
  state.entries += 1;
  state.terms += termCount;
  return `${out}      </termEntry>\n`;
}

const FLUSH_CHARS = 64 * 1024;

/**
 * Writes entries as a TBX document in UTF-8 (see the module comment for the shape and what it
 * validates against), streaming with backpressure; ends `output`. Rejects with FormatError when
 * the title or the source language cannot be written, leaving `output` destroyed.
 */
export async function writeTbx(
  entries: AsyncIterable<TermEntry[]> | Iterable<TermEntry[]>,
  output: Writable,
  options: TbxWriteOptions,
): Promise<{ entries: number; terms: number }> {
  const sink = warningSink(options);
  const state: WriterState = { langs: [], ids: new Set(), sink, entries: 0, terms: 0 };
  for (const code of options.langs) {
    const key = termLanguage(code);
    if (state.langs.some((lang) => lang.key === key)) continue;
    const xml = tbxLanguage(code);
    if (xml === null) sink.add({ message: `the language "${code}" is no language tag TBX can hold: its terms are skipped` });
    else state.langs.push({ key, xml });
  }
  const rootCode = options.sourceLang ?? options.langs[0];
  const rootLang = rootCode === undefined ? 'und' : tbxLanguage(rootCode);
  if (rootLang === null) throw new FormatError(`the source language "${rootCode}" is no language tag TBX can hold`);
  const title = options.title ?? 'OpenTMS term base export';
  if (unwritable(title)) throw new FormatError('the title contains a character XML cannot hold');

  async function* document(): AsyncGenerator<Buffer> {
    let buffer =
      `<?xml version="1.0" encoding="UTF-8"?>\n<martif type="TBX" xml:lang="${rootLang}">\n` +
      `  <martifHeader>\n    <fileDesc>\n      <sourceDesc>\n        <p>${xmlText(title)}</p>\n      </sourceDesc>\n    </fileDesc>\n  </martifHeader>\n` +
      '  <text>\n    <body>\n';
    let index = 0;
    for await (const batch of entries) {
      for (const entry of batch) {
        const xml = entryXml(entry, index++, state);
        if (xml === null) continue;
        buffer += xml;
        if (buffer.length >= FLUSH_CHARS) {
          yield Buffer.from(buffer, 'utf8');
          buffer = '';
        }
      }
    }
    yield Buffer.from(`${buffer}    </body>\n  </text>\n</martif>\n`, 'utf8');
  }
  // One chunk buffered ahead at most: the rest waits for the output's 'drain'.
  await pipeline(Readable.from(document(), { objectMode: true, highWaterMark: 1 }), output);
  return { entries: state.entries, terms: state.terms };
}
