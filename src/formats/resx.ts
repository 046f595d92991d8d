import type { Readable, Writable } from 'node:stream';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, restoreTags } from './inline-tags.js';
import { unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, TextUnit, UnitTranslation } from './types.js';
import {
  UnitBuilder,
  addHtmlText,
  booleanSetting,
  childElements,
  readXmlResource,
  scanXmlResource,
  sniffXmlRoot,
  tagRegexpSetting,
  textOf,
  writeEdited,
  xmlTextEscaper,
} from './xml-resource.js';
import type { Edit, XmlElement } from './xml-resource.js';

/**
 * .NET resources (`.resx`): every `<data name>` of the `<root>` that holds a string (no `type` or
 * `mimetype` attribute) and has a `<value>` is a unit; its `<comment>` is the note. Key and locator
 * are the name. WinForms designer entries (names starting with `>>`) are not translatable.
 * docs/formats/xml-resources.md.
 */

/** .NET composite format items (`{0}`, `{1,-10:N2}`) and the escaped braces `{{`, `}}` (kept as text). */
const COMPOSITE_FORMAT = /\{\{|\}\}|\{\d+(?:\s*,\s*-?\d+)?(?::[^{}]*)?\}/g;

interface ResxUnit {
  unit: TextUnit;
  value: XmlElement;
}

function settingsOf(options: FilterOptions): { pattern: RegExp | null; html: boolean } {
  return {
    pattern: compileTagRegexp(tagRegexpSetting(options)),
    html: booleanSetting(options.formatSettings, 'htmlSubFilter', 'htmlSubfilter') ?? false,
  };
}

function scan(text: string, enc: TextEncoding, options: FilterOptions): ResxUnit[] {
  const { pattern, html } = settingsOf(options);
  const escape = xmlTextEscaper(enc, 'a tag');
  const units: ResxUnit[] = [];
  const names = new Set<string>();
  let index = 0;
  scanXmlResource(
    text,
    {
      root(name, _attributes, s) {
        if (name !== 'root') s.fail(`not a .NET resource file: the root element is <${name}>`);
      },
      capture: (name, _attributes, path) => path.length === 1 && name === 'data',
      captured(data, _path, s) {
        const name = data.attributes['name'];
        if (name === undefined) return s.fail('a <data> element without a name');
        if (names.has(name)) return s.fail(`the resource "${name}" is defined twice`);
        names.add(name);
        if (data.attributes['type'] !== undefined || data.attributes['mimetype'] !== undefined) return;
        const value = childElements(data, 'value')[0];
        if (!value || value.selfClosing) return;
        const decoded = textOf(value);
        if (decoded.trim() === '') return;
        const builder = new UnitBuilder();
        const codes = (part: string): void =>
          builder.textWithCodes(part, [pattern, COMPOSITE_FORMAT], escape, (match) => match === '{{' || match === '}}');
        if (html) addHtmlText(builder, decoded, escape, codes);
        else codes(decoded);
        const comments = childElements(data, 'comment')
          .map(textOf)
          .filter((comment) => comment.trim() !== '');
        units.push({
          unit: {
            index: index++,
            key: name,
            locator: name,
            source: builder.source,
            tags: builder.tags,
            target: null,
            translatable: !name.startsWith('>>'),
            note: comments.length > 0 ? comments.join('\n') : null,
          },
          value,
        });
      },
    },
    options.maxDepth,
  );
  return units;
}

function maxBytes(options: FilterOptions): number | undefined {
  const value = (options as { maxXmlResourceBytes?: unknown }).maxXmlResourceBytes;
  return typeof value === 'number' ? value : undefined;
}

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const { enc, text } = await readXmlResource(input, 'RESX', maxBytes(options));
  const units = scan(text, enc, options);
  for (let at = 0; at < units.length; at += 1024) yield units.slice(at, at + 1024).map((scanned) => scanned.unit);
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const { enc, text } = await readXmlResource(original, 'RESX', maxBytes(options));
  const edits: Edit[] = [];
  for (const { unit, value } of scan(text, enc, options)) {
    const translation = translations.get(unit.locator);
    if (!translation || !unit.translatable || translation.text === unit.source) continue;
    // Tags' originals are already escaped; the text between them is escaped here.
    const content = restoreTags(translation.text, unit.tags, xmlTextEscaper(enc, `the translation of ${unit.locator}`));
    edits.push({ start: value.openEnd, end: value.closeStart, text: content });
  }
  await writeEdited(text, edits, enc, output);
}

export const resxFilter: FormatFilter = {
  name: 'resx',
  extensions: ['resx'],
  detect(firstBytes) {
    const sniffed = sniffXmlRoot(firstBytes);
    if (!sniffed || sniffed.root !== 'root') return false;
    return /Microsoft ResX Schema|<resheader\s|<xsd:schema\s+id="root"|<data\s+name=/.test(sniffed.head);
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};
