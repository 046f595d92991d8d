import { PassThrough, Readable } from 'node:stream';
import yazl from 'yazl';
import type { SaxesTagPlain } from 'saxes';
import type { BilingualJob, BilingualSegment, ReadBilingualJob } from './mxliff.js';
import { MAX_BILINGUAL_SEGMENTS, transUnitId } from './mxliff.js';
import { FormatError } from './types.js';
import { escapeXmlText, hasNonXmlCharacter, XmlScanner } from './xml.js';
import { withZipPackage } from './zip-package.js';
import type { ZipPackage } from './zip-package.js';

/**
 * The bilingual DOCX (docs/bilingual-files.md, "Bilingual DOCX"): for translators who work in a
 * word processor. Per job a heading paragraph and a table of five columns: the segment's id
 * (`<job uid>:<index>`), the source, the target, the state (`Confirmed`, `Locked`, both, or
 * empty) and the match score in percent. The header row names the languages (`Source (en)`,
 * `Target (de)`). Tags stay in Phrase's brace notation as text. Reading takes every table whose
 * header row starts with `ID`, by the id column: the file's own tables, whatever a word
 * processor did to the rest of the document.
 */

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`;
const RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const DOCUMENT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="${W}"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:eastAsia="Calibri" w:cs="Calibri"/><w:sz w:val="20"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240" w:after="120"/><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:b/><w:sz w:val="26"/></w:rPr></w:style><w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:left w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:right w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="auto"/></w:tblBorders></w:tblPr></w:style></w:styles>`;

/** Column widths in twentieths of a point (A4 landscape-ish text width of about 9,600). */
const WIDTHS = [1700, 3300, 3300, 800, 600];

function runs(text: string, where: string): string {
  if (hasNonXmlCharacter(text)) throw new FormatError(`${where} holds a character XML cannot hold`);
  // Line breaks as <w:br/>, tabs as <w:tab/>, the rest as text with spaces kept.
  return text
    .split('\n')
    .map((line) =>
      line
        .split('\t')
        .map((piece) => (piece === '' ? '' : `<w:t xml:space="preserve">${escapeXmlText(piece)}</w:t>`))
        .join('<w:tab/>'),
    )
    .join('<w:br/>');
}

function cell(text: string, width: number, where: string, bold = false): string {
  const rPr = bold ? '<w:rPr><w:b/></w:rPr>' : '';
  return `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/></w:tcPr><w:p><w:r>${rPr}${runs(text, where)}</w:r></w:p></w:tc>`;
}

function row(cells: string[], where: string, header = false): string {
  return `<w:tr>${header ? '<w:trPr><w:tblHeader/></w:trPr>' : ''}${cells.map((text, i) => cell(text, WIDTHS[i]!, where, header)).join('')}</w:tr>`;
}

function stateOf(segment: BilingualSegment): string {
  return [segment.confirmedLevel > 0 ? 'Confirmed' : null, segment.locked ? 'Locked' : null].filter(Boolean).join(', ');
}

function percent(score: number): string {
  return score > 0 ? String(Math.round(score * 100)) : '';
}

/** The bilingual DOCX of `jobs`, streamed (the document part is written as the segments come). */
export function bilingualDocxStream(jobs: AsyncIterable<{ job: BilingualJob; segments: AsyncIterable<BilingualSegment[]> }>): Readable {
  const zip = new yazl.ZipFile();
  const add = (name: string, text: string) => zip.addBuffer(Buffer.from(text, 'utf8'), name, { mtime: new Date(0) });
  add('[Content_Types].xml', CONTENT_TYPES);
  add('_rels/.rels', RELS);
  add('word/_rels/document.xml.rels', DOCUMENT_RELS);
  add('word/styles.xml', STYLES);
  async function* document(): AsyncGenerator<Buffer> {
    yield Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W}"><w:body>`, 'utf8');
    for await (const { job, segments } of jobs) {
      const title = `${job.filename} · ${job.sourceLang} → ${job.targetLang} · job ${job.jobUid} · step ${job.workflowLevel}`;
      let xml = `<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r>${runs(title, 'the job title')}</w:r></w:p>`;
      xml += `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/><w:tblLayout w:type="fixed"/></w:tblPr><w:tblGrid>${WIDTHS.map((w) => `<w:gridCol w:w="${w}"/>`).join('')}</w:tblGrid>`;
      xml += row(['ID', `Source (${job.sourceLang})`, `Target (${job.targetLang})`, 'State', 'Score'], 'the header', true);
      yield Buffer.from(xml, 'utf8');
      for await (const page of segments) {
        const id = (segment: BilingualSegment) => transUnitId(job.jobUid, segment.index);
        yield Buffer.from(
          page.map((s) => row([id(s), s.source, s.target, stateOf(s), percent(s.score)], `segment ${id(s)}`)).join(''),
          'utf8',
        );
      }
      yield Buffer.from('</w:tbl><w:p/>', 'utf8');
    }
    yield Buffer.from(
      '<w:sectPr><w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/><w:pgMar w:top="1000" w:right="1000" w:bottom="1000" w:left="1000" w:header="500" w:footer="500" w:gutter="0"/></w:sectPr></w:body></w:document>',
      'utf8',
    );
  }
  const out = new PassThrough();
  const part = Readable.from(document());
  part.on('error', (error) => out.destroy(error));
  zip.addReadStream(part, 'word/document.xml', { mtime: new Date(0) });
  zip.end();
  zip.outputStream.on('error', (error) => out.destroy(error));
  return zip.outputStream.pipe(out);
}

// ---------------------------------------------------------------------------------------------
// Reading

/** Reads `word/document.xml`: the rows of every table, each cell's text (paragraphs joined by \n). */
class DocumentTables extends XmlScanner {
  readonly tables: string[][][] = [];
  private depth = 0;
  private tableDepth = 0;
  private row: string[] | null = null;
  private cellParagraphs: string[] | null = null;
  private paragraph: string[] = [];
  private inText = false;
  private rows = 0;

  constructor() {
    super({});
  }

  /** Names of the open elements. */
  private readonly open: string[] = [];

  protected onOpen(tag: SaxesTagPlain): void {
    this.depth += 1;
    this.open.push(tag.name);
    if (this.depth > this.maxDepth) return this.fail(`elements are nested deeper than ${this.maxDepth} levels`);
    if (!this.sawRoot) {
      this.sawRoot = true;
      return;
    }
    switch (tag.name) {
      case 'w:tbl':
        // Nested tables are read as text of their cell.
        if (this.tableDepth === 0) this.tables.push([]);
        this.tableDepth += 1;
        break;
      case 'w:tr':
        if (this.tableDepth === 1) this.row = [];
        break;
      case 'w:tc':
        if (this.tableDepth === 1 && this.row) this.cellParagraphs = [];
        break;
      case 'w:p':
        this.paragraph = [];
        break;
      case 'w:t':
        this.inText = true;
        break;
      case 'w:tab':
        this.paragraph.push('\t');
        break;
      case 'w:br':
      case 'w:cr':
        this.paragraph.push('\n');
        break;
    }
  }

  protected onText(text: string): void {
    if (this.inText) this.paragraph.push(text);
  }

  protected onClose(): void {
    this.depth -= 1;
    switch (this.open.pop()) {
      case 'w:t':
        this.inText = false;
        break;
      case 'w:p':
        this.cellParagraphs?.push(this.paragraph.join(''));
        this.paragraph = [];
        break;
      case 'w:tc':
        if (this.tableDepth === 1 && this.row && this.cellParagraphs) {
          this.row.push(this.cellParagraphs.join('\n'));
          this.cellParagraphs = null;
        }
        break;
      case 'w:tr':
        if (this.tableDepth === 1 && this.row) {
          this.rows += 1;
          if (this.rows > MAX_BILINGUAL_SEGMENTS) return this.fail(`more than ${MAX_BILINGUAL_SEGMENTS} table rows`);
          this.tables[this.tables.length - 1]!.push(this.row);
          this.row = null;
        }
        break;
      case 'w:tbl':
        this.tableDepth -= 1;
        break;
    }
  }
}

const LANGUAGE_IN_HEADER = /\(([^()]+)\)\s*$/;

/** The jobs and segments of a bilingual DOCX (FormatError for anything else). */
export async function readBilingualDocx(input: AsyncIterable<unknown>): Promise<ReadBilingualJob[]> {
  return withZipPackage(input, {}, readBilingualDocxPackage);
}

/** The same, from an opened package. */
export async function readBilingualDocxPackage(zip: ZipPackage): Promise<ReadBilingualJob[]> {
  const entry = zip.entry('word/document.xml');
  if (!entry) throw new FormatError('not a bilingual DOCX: the file has no word/document.xml');
  const xml = await zip.readText(entry);
  const scanner = new DocumentTables();
  // Read on the API's thread (an upload): 256 K characters at a time, other requests served in between.
  const STEP = 1 << 18;
  for (let at = 0; at < xml.length; at += STEP) {
    scanner.push(xml.slice(at, at + STEP));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  scanner.end();
  const jobs = new Map<string, ReadBilingualJob>();
  for (const table of scanner.tables) {
    const header = table[0];
    if (!header || header[0]?.trim() !== 'ID' || header.length < 3) continue;
    const sourceLang = LANGUAGE_IN_HEADER.exec(header[1] ?? '')?.[1] ?? '';
    const targetLang = LANGUAGE_IN_HEADER.exec(header[2] ?? '')?.[1] ?? '';
    for (const [n, cells] of table.slice(1).entries()) {
      const id = (cells[0] ?? '').trim();
      const colon = id.lastIndexOf(':');
      const digits = id.slice(colon + 1);
      if (colon < 1 || !/^\d{1,15}$/.test(digits)) {
        throw new FormatError(`row ${n + 2} of a bilingual table: "${id}" is not a segment id (<job uid>:<index>)`);
      }
      const jobUid = id.slice(0, colon);
      let job = jobs.get(jobUid);
      if (!job) {
        job = { jobUid, filename: '', sourceLang, targetLang, workflowLevel: 1, segments: [] };
        jobs.set(jobUid, job);
      }
      const state = (cells[3] ?? '').toLowerCase();
      const score = Number((cells[4] ?? '').trim());
      job.segments.push({
        index: Number(digits),
        paraId: 0,
        source: cells[1] ?? '',
        target: cells[2] ?? '',
        confirmedLevel: state.includes('confirmed') ? 1 : 0,
        locked: state.includes('locked'),
        score: Number.isFinite(score) && score > 0 ? score / 100 : 0,
        grossScore: Number.isFinite(score) && score > 0 ? score / 100 : 0,
        origin: null,
        key: null,
        tags: [],
        modifiedAt: null,
        modifiedBy: null,
      });
    }
  }
  if (jobs.size === 0) throw new FormatError('not a bilingual DOCX: no table whose header row starts with "ID"');
  return [...jobs.values()];
}
