/**
 * Target-file warnings (getCompletedFileWarnings, docs/previews.md): what the writer of the target
 * file had to adjust or could not keep. Pure, so the rules are table-tested:
 * - a translated segment lacking a tag (a tag pair, or a standalone tag) its source has: the
 *   writer puts the source's markup back only where the translation has its token;
 * - characters the target file's encoding cannot hold: the writer writes them as character
 *   references or escapes (`&#x17E;`, `\u017E`);
 * - a unit whose translation is longer than the file allows (`maxLength`: XLIFF `maxwidth`, …).
 * Units without a translation are written with their source and get no warning.
 */

export interface WarningTag {
  id: number;
  kind: 'open' | 'close' | 'standalone';
  display: string;
}

export interface WarningSegment {
  /** 0-based index of the segment in the file (messages show it 1-based, as the editor does). */
  idx: number;
  source: string;
  /** The tags of the source segment (source_segments.tags). */
  tags: readonly WarningTag[];
  /** The translation the target file gets, or null (the source is written). */
  target: string | null;
}

export interface WarningUnit {
  key: string | null;
  segments: readonly WarningSegment[];
  /** The unit's whole translated text as written (segments joined with their gaps), or null. */
  text: string | null;
  /** The most characters the file allows the unit's target, when it says. */
  maxLength?: number;
}

/** What the target file's encoding can hold: the highest code point, and its name for people. */
export interface TargetCharset {
  name: string;
  maxCodePoint: number;
}

export const UNICODE_CHARSET: TargetCharset = { name: 'UTF-8', maxCodePoint: 0x10ffff };

/** Most characters named in one warning. */
const MAX_NAMED_CHARACTERS = 10;

export function targetFileWarnings(units: Iterable<WarningUnit>, charset: TargetCharset = UNICODE_CHARSET): string[] {
  const warnings: string[] = [];
  for (const unit of units) {
    for (const segment of unit.segments) {
      if (segment.target === null) continue;
      const where = `Segment ${segment.idx + 1}`;
      const missing = missingTags(segment);
      if (missing.length > 0) {
        warnings.push(
          `${where}: the translation lacks ${missing.join(', ')} of the source; the target file does not have ${missing.length === 1 ? 'it' : 'them'}.`,
        );
      }
      if (charset.maxCodePoint < 0x10ffff) {
        const foreign = charactersBeyond(segment.target, charset.maxCodePoint);
        if (foreign.length > 0) {
          warnings.push(
            `${where}: ${foreign.map((c) => `“${c}” (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`).join(', ')} cannot be written in the file's encoding ${charset.name}; written as character references.`,
          );
        }
      }
    }
    if (unit.maxLength !== undefined && unit.text !== null) {
      const length = [...unit.text].length;
      if (length > unit.maxLength) {
        const first = unit.segments[0];
        const name = unit.key !== null ? `Unit “${unit.key}”` : `Segment ${(first?.idx ?? 0) + 1}`;
        warnings.push(`${name}: the translation has ${length} characters, more than the ${unit.maxLength} the file allows.`);
      }
    }
  }
  return warnings;
}

/** The source's tags missing from the translation: a pair as `{1>…<1}`, a standalone tag as its token. */
function missingTags(segment: WarningSegment): string[] {
  const missing: string[] = [];
  const pairs = new Map<number, { open?: string; close?: string }>();
  for (const tag of segment.tags) {
    if (!segment.source.includes(tag.display)) continue;
    if (tag.kind === 'standalone') {
      if (!segment.target!.includes(tag.display)) missing.push(`the tag ${tag.display}`);
      continue;
    }
    const pair = pairs.get(tag.id) ?? {};
    pair[tag.kind] = tag.display;
    pairs.set(tag.id, pair);
  }
  for (const { open, close } of pairs.values()) {
    const lacks = (open !== undefined && !segment.target!.includes(open)) || (close !== undefined && !segment.target!.includes(close));
    if (lacks) missing.push(open !== undefined && close !== undefined ? `the tag pair ${open}…${close}` : `the tag ${open ?? close}`);
  }
  return missing;
}

/** The distinct characters of `text` above `maxCodePoint`, the first few. */
function charactersBeyond(text: string, maxCodePoint: number): string[] {
  const found = new Set<string>();
  for (const c of text) {
    if (c.codePointAt(0)! > maxCodePoint) found.add(c);
    if (found.size >= MAX_NAMED_CHARACTERS) break;
  }
  return [...found];
}

/**
 * The encoding a target file is written in, from its filter and the original's first bytes: a
 * BOM means Unicode; an XML declaration or HTML `<meta charset>` names it; a properties file is
 * ISO-8859-1 unless it is UTF-8 (an all-ASCII one stays ASCII, as the writer keeps it). Others
 * are Unicode.
 */
export function targetCharset(filterName: string, firstBytes: Buffer): TargetCharset {
  const b = firstBytes;
  if ((b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) || (b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff)) {
    return UNICODE_CHARSET;
  }
  if (filterName === 'java-properties') {
    if (!b.some((byte) => byte > 0x7f)) return { name: 'US-ASCII', maxCodePoint: 0x7e };
    // Streaming decode: a multi-byte character cut at the end of the sample is not an error.
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(b, { stream: true });
      return UNICODE_CHARSET;
    } catch {
      // not UTF-8
    }
    return { name: 'ISO-8859-1', maxCodePoint: 0xff };
  }
  const head = b.subarray(0, 2048).toString('latin1');
  const declared =
    /<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9._:-]+)/i.exec(head)?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9._:-]+)/i.exec(head)?.[1];
  return declared ? charsetNamed(declared) : UNICODE_CHARSET;
}

function charsetNamed(label: string): TargetCharset {
  const name = label.toLowerCase();
  if (/^(us-)?ascii$/.test(name)) return { name: 'US-ASCII', maxCodePoint: 0x7f };
  if (/^(iso[-_]?8859[-_]1|latin-?1|l1|cp819|iso-ir-100)$/.test(name)) return { name: 'ISO-8859-1', maxCodePoint: 0xff };
  // windows-1252 and the other single-byte charsets hold a few characters above 0xFF and lack
  // others; ISO-8859-1's range is the part every one of the Western ones holds.
  if (/^(windows-1252|cp1252)$/.test(name)) return { name: 'windows-1252', maxCodePoint: 0xff };
  return UNICODE_CHARSET;
}
