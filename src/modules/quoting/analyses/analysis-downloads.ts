import type { Tallies } from '../../../domain/analysis/bands.js';
import { dataDto, discounted } from '../../../domain/analysis/counts-dto.js';
import type { CountsDto } from '../../../domain/analysis/counts-dto.js';
import type { AnalysisRow } from './analyses.repository.js';
import { toAnalyseV3 } from './analyses.views.js';
import type { AnalysisViewContext } from './analyses.views.js';

/**
 * The files of downloadAnalyse (docs/analysis.md, "Downloads"): CSV, CSV_EXTENDED, LOG and JSON,
 * built from one finished analysis. Pure apart from reading the view context it is given.
 */

export const DOWNLOAD_FORMATS = ['CSV', 'CSV_EXTENDED', 'LOG', 'JSON'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

export type DataDto = ReturnType<typeof dataDto>;

export interface DownloadJob {
  uid: string;
  filename: string;
  innerId: string;
  data: DataDto;
  discountedData: DataDto;
}

export interface DownloadPart {
  id: string;
  sourceLang: string;
  targetLang: string;
  data: DataDto;
  discountedData: DataDto;
  jobs: DownloadJob[];
  transMemories: string[];
}

/** What every format is made from: the analysis as GET v3 shows it, and each part's and job's figures. */
export interface DownloadSource {
  view: ReturnType<typeof toAnalyseV3>;
  parts: DownloadPart[];
}

const talliesOf = (json: string | null): Tallies => (json === null ? {} : (JSON.parse(json) as Tallies));

function figures(json: string | null, rates: Record<string, string> | null): { data: DataDto; discountedData: DataDto } {
  const tallies = talliesOf(json);
  return { data: dataDto(tallies), discountedData: dataDto(rates ? discounted(tallies, rates) : tallies) };
}

/** The download source of a finished analysis (every part's tallies written). */
export function downloadSource(row: AnalysisRow, context: AnalysisViewContext): DownloadSource {
  const rates = row.netRateSchemeId === null ? null : (context.schemes.get(row.netRateSchemeId)?.rates ?? null);
  return {
    view: toAnalyseV3(row, context),
    parts: (context.parts.get(row.id) ?? []).map((part) => ({
      id: part.id,
      sourceLang: part.sourceLang,
      targetLang: part.targetLang,
      ...figures(part.tallies, rates),
      jobs: (context.jobs.get(part.id) ?? []).map((job) => ({
        uid: job.jobUid,
        filename: job.filename,
        innerId: job.innerId,
        ...figures(job.tallies, rates),
      })),
      transMemories: (JSON.parse(part.transMemories) as string[]).flatMap((id) => {
        const tm = context.transMemories.get(id);
        return tm ? [tm.name] : [];
      }),
    })),
  };
}

// ---- bands, in the order every format lists them

type Band = { label: string; pick: (data: DataDto) => CountsDto };

const SCORE_LABELS: Record<string, string> = {
  match101: '101%',
  match100: '100%',
  match95: '95-99%',
  match85: '85-94%',
  match75: '75-84%',
  match50: '50-74%',
  match0: '0-49%',
};
const SIX = ['match100', 'match95', 'match85', 'match75', 'match50', 'match0'] as const;

function group(
  prefix: string,
  key: 'transMemoryMatches' | 'internalFuzzyMatches' | 'machineTranslationMatches' | 'nonTranslatablesMatches',
  bands: readonly string[],
): Band[] {
  return bands.map((band) => ({
    label: `${prefix} ${SCORE_LABELS[band]}`,
    pick: (data: DataDto) => (data[key] as Record<string, CountsDto>)[band]!,
  }));
}

/** Total, repetitions, the TM bands (101 … 0-49), internal fuzzy, machine translation and non-translatable bands (100 … 0-49). */
export const BANDS: readonly Band[] = [
  { label: 'Total', pick: (d) => d.all },
  { label: 'Repetitions', pick: (d) => d.repetitions },
  ...group('TM', 'transMemoryMatches', ['match101', ...SIX]),
  ...group('Internal fuzzy', 'internalFuzzyMatches', SIX),
  ...group('MT', 'machineTranslationMatches', SIX),
  ...group('NT', 'nonTranslatablesMatches', SIX),
];

// ---- CSV

/** The columns describing a row, before the bands' columns. */
export const CSV_ROW_COLUMNS = ['Row', 'Source language', 'Target language', 'File', 'Job uid'] as const;

type Measure = { name: string; value: (data: DataDto, weighted: DataDto, band: Band) => number };
const CSV_MEASURES: Measure[] = [
  { name: 'Segments', value: (d, _w, b) => b.pick(d).segments },
  { name: 'Words', value: (d, _w, b) => b.pick(d).words },
  { name: 'Characters', value: (d, _w, b) => b.pick(d).characters },
  { name: 'Percent', value: (d, _w, b) => percentOf(b, d) },
];
const EXTENDED_MEASURES: Measure[] = [
  ...CSV_MEASURES.slice(0, 3),
  { name: 'Normalized pages', value: (d, _w, b) => b.pick(d).normalizedPages },
  CSV_MEASURES[3]!,
  { name: 'Weighted words', value: (_d, w, b) => b.pick(w).words },
  { name: 'Weighted characters', value: (_d, w, b) => b.pick(w).characters },
  { name: 'Weighted normalized pages', value: (_d, w, b) => b.pick(w).normalizedPages },
];

/** A band's share of the record's words (the total's is 100, or 0 without words), as GET v3 shows it. */
const percentOf = (band: Band, data: DataDto) => band.pick(data).percent;

/** The header of a CSV download: the row columns, then `<band>: <measure>` for each band. */
export function csvHeader(extended: boolean): string[] {
  const measures = extended ? EXTENDED_MEASURES : CSV_MEASURES;
  return [...CSV_ROW_COLUMNS, ...BANDS.flatMap((band) => measures.map((m) => `${band.label}: ${m.name}`))];
}

/**
 * A CSV field (RFC 4180): quoted when it holds a comma, a quote, a line break or outer spaces,
 * quotes doubled. A text that a spreadsheet would run as a formula (starting with =, +, -, @, a
 * tab or a carriage return) is prefixed with an apostrophe (OWASP, "CSV Injection"); numbers are
 * written as they are.
 */
export function csvField(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (fields: (string | number)[]) => fields.map(csvField).join(',');

/**
 * CSV and CSV_EXTENDED: one header row, then per language part one row per job (`Row` JOB) and
 * the part's total (`Row` TOTAL, `File` "Total"). CRLF line ends (RFC 4180); the caller adds the
 * UTF-8 byte order mark.
 */
export function analysisCsv(source: DownloadSource, extended: boolean): string {
  const measures = extended ? EXTENDED_MEASURES : CSV_MEASURES;
  const cells = (data: DataDto, weighted: DataDto) => BANDS.flatMap((band) => measures.map((m) => m.value(data, weighted, band)));
  const lines = [csvLine(csvHeader(extended))];
  for (const part of source.parts) {
    for (const job of part.jobs) {
      lines.push(csvLine(['JOB', part.sourceLang, part.targetLang, job.filename, job.uid, ...cells(job.data, job.discountedData)]));
    }
    lines.push(csvLine(['TOTAL', part.sourceLang, part.targetLang, 'Total', '', ...cells(part.data, part.discountedData)]));
  }
  return lines.join('\r\n') + '\r\n';
}

// ---- LOG

const pad = (text: string, width: number) => text.padEnd(width);
const num = (value: number, width: number, decimals?: number) =>
  (decimals === undefined ? String(value) : value.toFixed(decimals)).padStart(width);

const GROUP_PREFIXES = ['Internal fuzzy', 'MT', 'NT'];

/** One table: a row per band; the internal fuzzy, MT and NT rows only when their group counts something. */
function logTable(data: DataDto, weighted: DataDto): string[] {
  const shown = BANDS.filter((band) => {
    const prefix = GROUP_PREFIXES.find((p) => band.label.startsWith(`${p} `));
    if (!prefix) return true;
    return BANDS.filter((b) => b.label.startsWith(`${prefix} `)).some((b) => b.pick(data).segments > 0 || b.pick(weighted).words > 0);
  });
  const head = `  ${pad('Match type', 22)}${'Segments'.padStart(10)}${'Words'.padStart(12)}${'Characters'.padStart(12)}${'Pages'.padStart(9)}${'Percent'.padStart(9)}${'Weighted words'.padStart(16)}`;
  const rows = shown.map((band) => {
    const c = band.pick(data);
    return `  ${pad(band.label, 22)}${num(c.segments, 10)}${num(c.words, 12, 2)}${num(c.characters, 12)}${num(c.normalizedPages, 9, 2)}${num(percentOf(band, data), 9, 2)}${num(band.pick(weighted).words, 16, 2)}`;
  });
  return [head, `  ${'-'.repeat(head.length - 2)}`, ...rows];
}

const BOOLEAN_SETTING_NAMES = [
  'includeFuzzyRepetitions',
  'separateFuzzyRepetitions',
  'includeConfirmedSegments',
  'includeNumbers',
  'includeLockedSegments',
  'countSourceUnits',
  'includeTransMemory',
  'includeNonTranslatables',
  'includeMachineTranslationMatches',
  'transMemoryPostEditing',
  'nonTranslatablePostEditing',
  'machineTranslatePostEditing',
];

const userName = (user: unknown) => {
  const u = user as { userName?: string; firstName?: string; lastName?: string } | null;
  return u ? `${[u.firstName, u.lastName].filter(Boolean).join(' ')} (${u.userName ?? ''})`.trim() : '-';
};
const providerName = (provider: unknown) => {
  const p = provider as { type?: string; name?: string; userName?: string; firstName?: string; lastName?: string } | null;
  if (!p) return '-';
  return p.type === 'VENDOR' ? `vendor ${p.name ?? ''}` : `linguist ${userName(p)}`;
};

/** LOG: a plain-text report, the analysis's header, then per language part its total and each job's table. */
export function analysisLog(source: DownloadSource): string {
  const v = source.view;
  const settings = v.settings as unknown as Record<string, unknown>;
  const lines = [
    `Analysis:          ${v.name} (#${v.innerId}, uid ${v.uid})`,
    `Project:           ${v.project.name} (uid ${v.project.uid})`,
    `Type:              ${v.type}`,
    `Created:           ${v.dateCreated} by ${userName(v.createdBy)}`,
    `Provider:          ${providerName(v.provider)}`,
    `Net rate scheme:   ${v.netRateScheme ? v.netRateScheme.name : 'none (weighted figures equal the counted ones)'}`,
    `Settings:          ${BOOLEAN_SETTING_NAMES.map((name) => `${name}=${String(settings[name])}`).join(', ')}`,
  ];
  if (settings['compareWorkflowLevel'] !== null && settings['compareWorkflowLevel'] !== undefined) {
    lines.push(`Compared with:     workflow level ${String(settings['compareWorkflowLevel'])}`);
  }
  lines.push('Words: counted words; Pages: characters / 1,800; Percent: share of the words counted; Weighted words: words x the net rate.');
  for (const part of source.parts) {
    lines.push(
      '',
      '='.repeat(100),
      `Language part ${part.sourceLang} -> ${part.targetLang}: ${part.jobs.length} job(s); translation memories: ${part.transMemories.length ? part.transMemories.join(', ') : 'none'}`,
      '='.repeat(100),
      '',
      '  All jobs',
      ...logTable(part.data, part.discountedData),
    );
    for (const [i, job] of part.jobs.entries()) {
      lines.push('', `  Job ${i + 1}: ${job.filename} (uid ${job.uid}, file #${job.innerId})`, ...logTable(job.data, job.discountedData));
    }
  }
  return lines.join('\n') + '\n';
}

// ---- JSON

/** JSON: the analysis as GET v3 answers it (AnalyseV3Dto), each part's `jobs` carrying the job's `data` and `discountedData` too. */
export function analysisJson(source: DownloadSource): string {
  const byPart = new Map(source.parts.map((p) => [p.id, p]));
  const document = {
    ...source.view,
    analyseLanguageParts: source.view.analyseLanguageParts.map((part) => ({
      ...part,
      jobs: (byPart.get(part.id)?.jobs ?? []).map(({ uid, filename, innerId, data, discountedData }) => ({
        uid,
        filename,
        innerId,
        data,
        discountedData,
      })),
    })),
  };
  return JSON.stringify(document, null, 2) + '\n';
}

// ---- the file

const UTF8_BOM = '\uFEFF';

/** The file name of a download: the analysis's name without characters file systems refuse, then the format's suffix. */
export function downloadFilename(name: string, format: DownloadFormat): string {
  // eslint-disable-next-line no-control-regex
  const unsafe = /[\u0000-\u001f\u007f/\\:*?"<>|]/g;
  const stem = name.replace(unsafe, '_').trim().slice(0, 200) || 'analysis';
  const suffix = { CSV: '.csv', CSV_EXTENDED: '-extended.csv', LOG: '.log', JSON: '.json' }[format];
  return stem + suffix;
}

/** The download in `format`: its bytes (CSV with a UTF-8 byte order mark, for spreadsheets) and its file name. */
export function analysisDownload(source: DownloadSource, format: DownloadFormat): { body: Buffer; filename: string } {
  const text =
    format === 'CSV' || format === 'CSV_EXTENDED'
      ? UTF8_BOM + analysisCsv(source, format === 'CSV_EXTENDED')
      : format === 'LOG'
        ? analysisLog(source)
        : analysisJson(source);
  return { body: Buffer.from(text, 'utf8'), filename: downloadFilename(source.view.name, format) };
}
