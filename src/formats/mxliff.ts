import { Readable } from 'node:stream';
import type { SaxesTagPlain } from 'saxes';
import { decodeStream, encodingFromBom, encoding } from './encoding.js';
import type { InlineTag } from './types.js';
import { FormatError } from './types.js';
import { escapeXmlAttribute, escapeXmlText, hasNonXmlCharacter, XmlScanner } from './xml.js';

/**
 * Phrase's bilingual MXLIFF (docs/formats/mxliff.md): XLIFF 1.2 with the extension namespace
 * `http://www.memsource.com/mxlf/2.0` (prefix `m`). One `<file>` per job, one `<group>` per
 * segment with one `<trans-unit>` whose id is `<job uid>:<segment index>`; segment state on the
 * trans-unit (`m:confirmed`, `m:locked`, `m:score`, `m:gross-score`, `m:trans-origin`, …); inline
 * tags in Phrase's brace notation inside the text (`{1>`, `<1}`, `{1}`), so a closing tag appears
 * as `&lt;1}` in the file. The tags' original markup is listed per trans-unit in
 * `<m:tunit-metadata>` for tools that render it; reading ignores it.
 *
 * Written from the job's segments (never from the original file) and read back by trans-unit id;
 * attribute order and prefixes are read with an XML parser, never by pattern.
 */

export const MXLIFF_NAMESPACE = 'http://www.memsource.com/mxlf/2.0';
/** The format version we write (Phrase has written 2.13 to 2.17). */
export const MXLIFF_VERSION = '2.17';

export interface BilingualSegment {
  /** The segment's index in the job's file (from 0). */
  index: number;
  /** The unit (paragraph) the segment belongs to: `m:para-id` of its group. */
  paraId: number;
  source: string;
  target: string;
  /** Confirmed at `confirmedLevel` (0: not confirmed). */
  confirmedLevel: number;
  locked: boolean;
  /** Match score 0–1.01 of the target's origin; 0 when none. */
  score: number;
  grossScore: number;
  /** `tm`, `mt`, `nt` or null (a person, or unknown). */
  origin: string | null;
  /** The file's key for the unit (x-key context), if any. */
  key: string | null;
  /** The source segment's tags, for `<m:tunit-metadata>` (reading leaves it empty). */
  tags: readonly InlineTag[];
  /** Epoch milliseconds of the last change of the target, or null. */
  modifiedAt: number | null;
  modifiedBy: string | null;
}

export interface BilingualJob {
  jobUid: string;
  /** The file's name (`original`). */
  filename: string;
  sourceLang: string;
  targetLang: string;
  workflowLevel: number;
}

export interface ReadBilingualJob extends BilingualJob {
  segments: BilingualSegment[];
}

/** The trans-unit id of a segment: `<job uid>:<index>`. */
export function transUnitId(jobUid: string, index: number): string {
  return `${jobUid}:${index}`;
}

const attr = (name: string, value: string) => ` ${name}="${escapeXmlAttribute(value)}"`;

function text(value: string, where: string): string {
  if (hasNonXmlCharacter(value)) throw new FormatError(`${where} holds a character XML cannot hold`);
  return escapeXmlText(value);
}

/**
 * `mxliff`: Phrase's bilingual file. `xliff`: plain XLIFF 1.2 for other tools (export only, as
 * Phrase offers it): no m: attributes, the state as `state` (`new`, `translated`, `final`) and
 * `approved="yes"` on confirmed segments.
 */
export type BilingualFlavour = 'mxliff' | 'xliff';

function fileStart(job: BilingualJob, flavour: BilingualFlavour): string {
  const memsource =
    flavour === 'mxliff'
      ? `${attr('m:job-uid', job.jobUid)}${attr('m:task-id', job.jobUid)}${attr('m:level', String(job.workflowLevel))}`
      : '';
  return (
    `  <file${attr('original', job.filename)}${attr('source-language', job.sourceLang)}${attr('target-language', job.targetLang)}` +
    `${attr('datatype', 'x-undefined')}${memsource}>\n    <body>\n`
  );
}

function transUnit(jobUid: string, segment: BilingualSegment, flavour: BilingualFlavour): string {
  const id = transUnitId(jobUid, segment.index);
  const context =
    segment.key === null
      ? ''
      : `        <context-group${attr('name', 'x-key')}${attr('purpose', 'information')}><context${attr('context-type', 'x-key')}>${text(segment.key, `the key of ${id}`)}</context></context-group>\n`;
  const source = `          <source>${text(segment.source, `the source of ${id}`)}</source>\n`;
  if (flavour === 'xliff') {
    const state = segment.confirmedLevel > 0 ? 'final' : segment.target === '' ? 'new' : 'translated';
    return (
      `      <group${attr('id', String(segment.index))}>\n` +
      `        <trans-unit${attr('id', id)}${attr('xml:space', 'preserve')}${segment.confirmedLevel > 0 ? attr('approved', 'yes') : ''}${segment.locked ? attr('translate', 'no') : ''}>\n` +
      source +
      `          <target${attr('state', state)}>${text(segment.target, `the target of ${id}`)}</target>\n` +
      context +
      `        </trans-unit>\n      </group>\n`
    );
  }
  const seconds = (ms: number | null) => (ms === null ? '0' : String(Math.floor(ms / 1000)));
  const metadata =
    segment.tags.length === 0
      ? ''
      : `        <m:tunit-metadata>\n${segment.tags
          .filter((tag) => tag.kind !== 'close')
          .map(
            (tag) =>
              `          <m:mark${attr('id', String(tag.id))}><m:type>code</m:type><m:content>${text(tag.original, `the tag ${tag.display} of ${id}`)}</m:content></m:mark>\n`,
          )
          .join('')}        </m:tunit-metadata>\n`;
  return (
    `      <group${attr('id', String(segment.index))}${attr('m:para-id', String(segment.paraId))}>\n` +
    `        <trans-unit${attr('id', id)}${attr('xml:space', 'preserve')}${attr('m:trans-origin', segment.origin ?? 'null')}` +
    `${attr('m:score', String(segment.score))}${attr('m:gross-score', String(segment.grossScore))}` +
    `${attr('m:locked', segment.locked ? 'true' : 'false')}${attr('m:confirmed', String(segment.confirmedLevel))}` +
    `${attr('m:modified-at', seconds(segment.modifiedAt))}${attr('m:modified-by', segment.modifiedBy ?? '')}>\n` +
    source +
    `          <target>${text(segment.target, `the target of ${id}`)}</target>\n` +
    context +
    metadata +
    `        </trans-unit>\n      </group>\n`
  );
}

/**
 * The MXLIFF of `jobs` as a stream: each job with its segments in file order (an async source, so
 * that a job of half a million segments is never held whole).
 */
export function mxliffStream(
  jobs: AsyncIterable<{ job: BilingualJob; segments: AsyncIterable<BilingualSegment[]> }>,
  flavour: BilingualFlavour = 'mxliff',
): Readable {
  async function* chunks(): AsyncGenerator<string> {
    const memsource =
      flavour === 'mxliff'
        ? `${attr('xmlns:m', MXLIFF_NAMESPACE)}${attr('version', '1.2')}${attr('m:version', MXLIFF_VERSION)}`
        : attr('version', '1.2');
    yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2"${memsource}>\n`;
    for await (const { job, segments } of jobs) {
      yield fileStart(job, flavour);
      for await (const page of segments) yield page.map((segment) => transUnit(job.jobUid, segment, flavour)).join('');
      yield `    </body>\n  </file>\n`;
    }
    yield `</xliff>\n`;
  }
  return Readable.from(chunks(), { objectMode: false });
}

/**
 * The segments as XLIFF 2.0 (convertBilingualFile `to=XLIFF2`, an OpenTMS extension; export only):
 * one `<file>` per job, one `<unit id="u<index>" name="<job uid>:<index>">` with one `<segment>`
 * per segment, `state` `initial`/`translated`/`final` (confirmed), locked units `translate="no"`.
 * Tags stay brace tokens in the text. One document has one language pair: jobs of several target
 * languages are a FormatError.
 */
export function xliff2Stream(jobs: AsyncIterable<{ job: BilingualJob; segments: AsyncIterable<BilingualSegment[]> }>): Readable {
  async function* chunks(): AsyncGenerator<string> {
    let pair: string | null = null;
    let fileNumber = 0;
    for await (const { job, segments } of jobs) {
      const languages = `${job.sourceLang} → ${job.targetLang}`;
      if (pair === null) {
        pair = languages;
        yield `<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0"${attr('srcLang', job.sourceLang)}${attr('trgLang', job.targetLang)}>\n`;
      } else if (pair !== languages) {
        throw new FormatError(`XLIFF 2 holds one language pair, and the file has ${pair} and ${languages}`);
      }
      fileNumber += 1;
      yield `  <file${attr('id', `f${fileNumber}`)}${attr('original', job.filename)}>\n`;
      for await (const page of segments) {
        yield page
          .map((segment) => {
            const id = transUnitId(job.jobUid, segment.index);
            const state = segment.confirmedLevel > 0 ? 'final' : segment.target === '' ? 'initial' : 'translated';
            const target = segment.target === '' ? '' : `<target>${text(segment.target, `the target of ${id}`)}</target>`;
            return (
              `    <unit${attr('id', `u${segment.index}`)}${attr('name', id)}${segment.locked ? attr('translate', 'no') : ''}>` +
              `<segment${attr('state', state)}><source>${text(segment.source, `the source of ${id}`)}</source>${target}</segment></unit>\n`
            );
          })
          .join('');
      }
      yield `  </file>\n`;
    }
    if (pair === null) throw new FormatError('the bilingual file holds no job');
    yield `</xliff>\n`;
  }
  return Readable.from(chunks(), { objectMode: false });
}

// ---------------------------------------------------------------------------------------------
// Reading

/** The most trans-units one bilingual file may hold (Phrase allows 500,000 segments per job). */
export const MAX_BILINGUAL_SEGMENTS = 2_000_000;

class MxliffScanner extends XmlScanner {
  readonly jobs: ReadBilingualJob[] = [];
  private memsourcePrefix: string | null = null;
  private depth = 0;
  private job: ReadBilingualJob | null = null;
  private paraId = 0;
  private segment: BilingualSegment | null = null;
  /** The depth of the open trans-unit (its source and target are one deeper). */
  private transUnitDepth = 0;
  /** Where text goes: the segment's source or target, or its key, or nowhere. */
  private capture: 'source' | 'target' | 'key' | null = null;
  private captureDepth = 0;
  private parts: string[] = [];
  private count = 0;

  constructor(maxDepth?: number) {
    super({ maxDepth });
  }

  /** An m: attribute of `tag`. */
  private m(tag: SaxesTagPlain, name: string): string | undefined {
    return this.memsourcePrefix === null ? undefined : tag.attributes[`${this.memsourcePrefix}:${name}`];
  }

  protected onOpen(tag: SaxesTagPlain): void {
    this.depth += 1;
    if (this.depth > this.maxDepth) return this.fail(`elements are nested deeper than ${this.maxDepth} levels`);
    if (this.capture) {
      this.captureDepth += 1;
      return this.fail(`the ${this.capture} of trans-unit ${this.describe()} holds markup; MXLIFF writes tags as {1>, <1} and {1}`);
    }
    for (const name in tag.attributes) {
      if (name.startsWith('xmlns:') && tag.attributes[name] === MXLIFF_NAMESPACE) this.memsourcePrefix = name.slice(6);
    }
    const colon = tag.name.indexOf(':');
    const local = colon < 0 ? tag.name : tag.name.slice(colon + 1);
    if (!this.sawRoot) {
      this.sawRoot = true;
      if (local !== 'xliff') return this.fail(`not an MXLIFF file: the root element is <${tag.name}>, not <xliff>`);
      if (this.memsourcePrefix === null) return this.fail(`not an MXLIFF file: <xliff> does not declare the namespace ${MXLIFF_NAMESPACE}`);
      return;
    }
    if (local === 'file') {
      this.job = {
        jobUid: this.m(tag, 'job-uid') ?? this.m(tag, 'task-id') ?? '',
        filename: tag.attributes['original'] ?? '',
        sourceLang: tag.attributes['source-language'] ?? '',
        targetLang: tag.attributes['target-language'] ?? '',
        workflowLevel: Number(this.m(tag, 'level') ?? '1') || 1,
        segments: [],
      };
      this.jobs.push(this.job);
    } else if (local === 'group') {
      const paraId = Number(this.m(tag, 'para-id'));
      if (Number.isSafeInteger(paraId)) this.paraId = paraId;
    } else if (local === 'trans-unit') {
      this.openTransUnit(tag);
    } else if (this.segment && this.depth === this.transUnitDepth + 1 && (local === 'source' || local === 'target')) {
      this.startCapture(local);
    } else if (this.segment && local === 'context' && tag.attributes['context-type'] === 'x-key') {
      this.startCapture('key');
    }
  }

  private openTransUnit(tag: SaxesTagPlain): void {
    if (!this.job) return this.fail('a <trans-unit> outside <file>');
    const id = tag.attributes['id'] ?? '';
    const colon = id.lastIndexOf(':');
    const digits = id.slice(colon + 1);
    if (colon < 1 || !/^\d{1,15}$/.test(digits)) return this.fail(`the trans-unit id "${id}" is not <job uid>:<segment index>`);
    const taskId = id.slice(0, colon);
    if (this.job.jobUid === '') this.job.jobUid = taskId;
    else if (taskId !== this.job.jobUid) {
      return this.fail(`the trans-unit "${id}" belongs to job ${taskId}, not to its file's job ${this.job.jobUid}`);
    }
    this.count += 1;
    if (this.count > MAX_BILINGUAL_SEGMENTS) return this.fail(`more than ${MAX_BILINGUAL_SEGMENTS} trans-units`);
    const number = (value: string | undefined) => {
      const parsed = Number(value);
      return value === undefined || value === '' || !Number.isFinite(parsed) ? 0 : parsed;
    };
    const confirmed = this.m(tag, 'confirmed');
    const origin = this.m(tag, 'trans-origin');
    const modifiedAt = number(this.m(tag, 'modified-at'));
    this.transUnitDepth = this.depth;
    this.segment = {
      index: Number(digits),
      paraId: this.paraId,
      source: '',
      target: '',
      confirmedLevel: confirmed === 'true' ? this.job.workflowLevel : Math.max(0, Math.trunc(number(confirmed))),
      locked: this.m(tag, 'locked') === 'true',
      score: number(this.m(tag, 'score')),
      grossScore: number(this.m(tag, 'gross-score')),
      origin: origin === undefined || origin === 'null' || origin === '' ? null : origin,
      key: null,
      tags: [],
      modifiedAt: modifiedAt > 0 ? modifiedAt * 1000 : null,
      modifiedBy: this.m(tag, 'modified-by') || null,
    };
  }

  private startCapture(what: 'source' | 'target' | 'key'): void {
    this.capture = what;
    this.captureDepth = 0;
    this.parts = [];
  }

  protected onText(value: string): void {
    if (this.capture) this.parts.push(value);
  }

  protected onClose(): void {
    if (this.capture && this.captureDepth === 0 && this.segment) {
      const value = this.parts.join('');
      if (this.capture === 'key') this.segment.key = value;
      else this.segment[this.capture] = value;
      this.capture = null;
      this.parts = [];
    } else if (this.segment && this.job && this.depth === this.transUnitDepth) {
      this.job.segments.push(this.segment);
      this.segment = null;
    }
    this.depth -= 1;
  }

  private describe(): string {
    return this.segment && this.job ? transUnitId(this.job.jobUid, this.segment.index) : '?';
  }
}

/**
 * The jobs and segments of an MXLIFF file. Malformed XML, a file that is not MXLIFF, trans-unit
 * ids that are not `<job uid>:<index>` or name another job than their `<file>`: FormatError.
 * The file is decoded whole (it is an upload, bounded by the upload limit); parsing is streaming
 * and linear.
 */
export async function readMxliff(
  input: AsyncIterable<unknown>,
  options: { maxDepth?: number; limitBytes?: number } = {},
): Promise<ReadBilingualJob[]> {
  const decoded = await decodeStream(input, (head) => encodingFromBom(head) ?? encoding('utf-8'), {
    limitBytes: options.limitBytes,
    tooLarge: 'the bilingual file is too large',
  });
  const scanner = new MxliffScanner(options.maxDepth);
  for await (const chunk of decoded.chunks) scanner.push(chunk);
  scanner.end();
  return scanner.jobs;
}
