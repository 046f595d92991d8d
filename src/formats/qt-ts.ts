import type { Readable, Writable } from 'node:stream';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, restoreTags } from './inline-tags.js';
import { unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, InlineTag, TextUnit, UnitTranslation } from './types.js';
import {
  UnitBuilder,
  beyondEncoding,
  childElements,
  indentBefore,
  openingOf,
  readXmlResource,
  scanXmlResource,
  sniffXmlRoot,
  tagRegexpSetting,
  textOf,
  withAttribute,
  writeEdited,
} from './xml-resource.js';
import type { Edit, XmlElement, XmlNode } from './xml-resource.js';

/**
 * Qt Linguist translation files (`.ts`), a bilingual format: each `<message>` of each `<context>`
 * is a unit (a numerus message one unit per plural form of the target language), its
 * `<translation>` the unit's target, confirmed unless `type="unfinished"`. Write-back fills the
 * `<translation>` and sets or removes `type="unfinished"` by UnitTranslation.confirmed.
 * docs/formats/xml-resources.md.
 */

/** Qt's placeholders: `%1`–`%99`, `%n`, and their localized forms `%L1`, `%Ln`. */
const QT_PLACEHOLDER = /%L?(?:\d{1,2}|n)/g;

/**
 * How many plural forms Qt Linguist gives a language (qttools' numerus rules, as Qt 5.15's
 * `lupdate -target-language` writes them; languages not listed have two).
 */
const QT_NUMERUS_FORMS = new Map<string, number>([
  ...'ja zh ko vi th id ms tr hu fa my'.split(' ').map((l): [string, number] => [l, 1]),
  ...'ru uk be pl cs sk lt lv ro hr sr bs ga mk se'.split(' ').map((l): [string, number] => [l, 3]),
  ...'sl gd mt'.split(' ').map((l): [string, number] => [l, 4]),
  ['cy', 5],
  ['ar', 6],
]);

export function qtNumerusForms(language: string | undefined): number {
  if (!language) return 2;
  return QT_NUMERUS_FORMS.get(language.split(/[-_]/)[0]!.toLowerCase()) ?? 2;
}

/** A language code as Qt writes it: `pt-br` → `pt_BR`. */
function qtLanguage(code: string): string {
  const [language, ...rest] = code.split(/[-_]/);
  return [language!.toLowerCase(), ...rest.map((part) => (part.length === 2 ? part.toUpperCase() : part))].join('_');
}

/** Qt writes control characters as `<byte value="x1b"/>` (ts.cpp). */
function qtEscaper(enc: TextEncoding): (text: string) => string {
  return (text) => {
    let out = '';
    for (const char of text) {
      const code = char.codePointAt(0)!;
      if (char === '&') out += '&amp;';
      else if (char === '<') out += '&lt;';
      else if (char === '>') out += '&gt;';
      else if (char === '"') out += '&quot;';
      else if (char === "'") out += '&apos;';
      else if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0xfffe || code === 0xffff) {
        out += `<byte value="x${code.toString(16)}"/>`;
      } else out += char;
    }
    return beyondEncoding(out, enc);
  };
}

interface TsUnit {
  unit: TextUnit;
  message: XmlElement;
  translation: XmlElement | null;
  /** Numerus: the form this unit is (0-based), of `forms`. */
  form: number | null;
  forms: number;
}

/** The element holding the text: the first `<lengthvariant>` when there are variants. */
function textHolder(element: XmlElement): XmlElement {
  return childElements(element, 'lengthvariant')[0] ?? element;
}

function readContent(
  nodes: readonly XmlNode[],
  raw: string,
  pattern: RegExp | null,
  escape: (text: string) => string,
): { source: string; tags: InlineTag[]; blank: boolean } {
  const builder = new UnitBuilder();
  for (const node of nodes) {
    if (node.kind === 'text') builder.textWithCodes(node.text, [pattern, QT_PLACEHOLDER], escape);
    else if (node.kind === 'element') builder.standalone(raw.slice(node.start, node.end));
  }
  return { source: builder.source, tags: builder.tags, blank: builder.tags.length === 0 && !builder.hasText };
}

interface TsScan {
  units: TsUnit[];
  root: { start: number; end: number } | null;
}

function scan(text: string, enc: TextEncoding, options: FilterOptions): TsScan {
  const pattern = compileTagRegexp(tagRegexpSetting(options));
  const escape = qtEscaper(enc);
  const result: TsScan = { units: [], root: null };
  let language: string | undefined;
  let contextName = '';
  let contextNumber = 0;
  let messageNumber = 0;
  let index = 0;
  scanXmlResource(
    text,
    {
      root(name, attributes, s, range) {
        if (name !== 'TS') s.fail(`not a Qt Linguist file: the root element is <${name}>`);
        language = options.targetLanguage ?? attributes['language'];
        result.root = range;
      },
      capture(name, _attributes, path) {
        if (path.length === 1 && name === 'context') {
          contextNumber += 1;
          messageNumber = 0;
          contextName = '';
        }
        return path.length === 2 && path[1] === 'context' && (name === 'name' || name === 'message');
      },
      captured(element) {
        if (element.name === 'name') {
          contextName = textOf(element);
          return;
        }
        messageNumber += 1;
        const locator = `${contextNumber}:${messageNumber}`;
        const source = childElements(element, 'source')[0];
        if (!source) return;
        const translation = childElements(element, 'translation')[0] ?? null;
        const type = translation?.attributes['type'];
        const translatable = type !== 'obsolete' && type !== 'vanished';
        const notes = [...childElements(element, 'comment'), ...childElements(element, 'extracomment')]
          .map(textOf)
          .filter((note) => note.trim() !== '');
        const content = readContent(source.children, text, pattern, escape);
        if (content.blank) return;
        const base = {
          key: element.attributes['id'] ?? null,
          source: content.source,
          translatable,
          context: contextName,
        };
        const targetOf = (holder: XmlElement | undefined): { target: string | null; tags: InlineTag[] } => {
          if (!holder) return { target: null, tags: content.tags };
          const read = readContent(textHolder(holder).children, text, pattern, escape);
          if (read.blank) return { target: null, tags: content.tags };
          return matchTags(content.tags, read.source, read.tags);
        };
        if (element.attributes['numerus'] === 'yes') {
          const forms = qtNumerusForms(language);
          const present = translation ? childElements(translation, 'numerusform') : [];
          for (let form = 0; form < forms; form++) {
            const { target, tags } = targetOf(present[form]);
            result.units.push({
              unit: {
                index: index++,
                ...base,
                locator: `${locator}:${form + 1}`,
                tags,
                target,
                note: [...notes, `plural form ${form + 1} of ${forms}`].join('\n'),
                ...(target !== null ? { targetConfirmed: type === undefined } : {}),
              },
              message: element,
              translation,
              form,
              forms,
            });
          }
          return;
        }
        const { target, tags } = targetOf(translation ?? undefined);
        result.units.push({
          unit: {
            index: index++,
            ...base,
            locator,
            tags,
            target,
            note: notes.length > 0 ? notes.join('\n') : null,
            ...(target !== null ? { targetConfirmed: type === undefined } : {}),
          },
          message: element,
          translation,
          form: null,
          forms: 1,
        });
      },
    },
    options.maxDepth,
  );
  return result;
}

/**
 * The target's text renumbered against the source's tags: a target tag with the same markup as
 * an unused source tag takes its number, others get numbers after the source's.
 */
function matchTags(sourceTags: InlineTag[], target: string, targetTags: InlineTag[]): { target: string; tags: InlineTag[] } {
  if (targetTags.length === 0) return { target, tags: sourceTags };
  const free = new Map<string, InlineTag[]>();
  for (const tag of sourceTags) {
    const list = free.get(tag.original);
    if (list) list.push(tag);
    else free.set(tag.original, [tag]);
  }
  const tags = sourceTags.slice();
  let next = sourceTags.length + 1;
  const renumbered = new Map<string, string>();
  for (const tag of targetTags) {
    const match = free.get(tag.original)?.shift();
    if (match) renumbered.set(tag.display, match.display);
    else {
      const added: InlineTag = { id: next, kind: 'standalone', original: tag.original, display: `{${next}}` };
      next += 1;
      tags.push(added);
      renumbered.set(tag.display, added.display);
    }
  }
  // Target tags are all standalone `{n}`: rewrite each token once, left to right.
  const rewritten = target.replace(/\{(\d+)\}/g, (token) => renumbered.get(token) ?? token);
  return { target: rewritten, tags };
}

function maxBytes(options: FilterOptions): number | undefined {
  const value = (options as { maxXmlResourceBytes?: unknown }).maxXmlResourceBytes;
  return typeof value === 'number' ? value : undefined;
}

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const { enc, text } = await readXmlResource(input, 'Qt TS', maxBytes(options));
  const { units } = scan(text, enc, options);
  for (let at = 0; at < units.length; at += 1024) yield units.slice(at, at + 1024).map((scanned) => scanned.unit);
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const { enc, text } = await readXmlResource(original, 'Qt TS', maxBytes(options));
  const scanned = scan(text, enc, options);
  const escape = qtEscaper(enc);
  const edits: Edit[] = [];
  if (options.targetLanguage && scanned.root) {
    const tag = text.slice(scanned.root.start, scanned.root.end);
    edits.push({
      start: scanned.root.start,
      end: scanned.root.end,
      text: withAttribute(tag, 'language', qtLanguage(options.targetLanguage)),
    });
  }
  // Units of one message together (a numerus message has several).
  const byMessage = new Map<XmlElement, TsUnit[]>();
  for (const unit of scanned.units) {
    const list = byMessage.get(unit.message);
    if (list) list.push(unit);
    else byMessage.set(unit.message, [unit]);
  }
  for (const [message, units] of byMessage) {
    const written = units.map((unit) => {
      const translation = translations.get(unit.unit.locator);
      return translation && unit.unit.translatable ? { translation, content: restoreTags(translation.text, unit.unit.tags, escape) } : null;
    });
    if (written.every((entry) => entry === null)) continue;
    const unfinished = written.some((entry) => entry !== null && entry.translation.confirmed === false);
    const translation = units[0]!.translation;
    const numerus = units[0]!.form !== null;
    const openTag = (raw: string): string => withAttribute(raw, 'type', unfinished ? 'unfinished' : null);
    if (!numerus) {
      const content = written[0]!.content;
      if (!translation) {
        const source = childElements(message, 'source')[0]!;
        const lastChild = childElements(message).pop()!;
        edits.push({
          start: lastChild.end,
          end: lastChild.end,
          text: `${whitespaceLine(text, source.start)}${openTag('<translation>')}${content}</translation>`,
        });
      } else if (translation.selfClosing) {
        edits.push({
          start: translation.start,
          end: translation.end,
          text: `${openTag(openingOf(text.slice(translation.start, translation.end)))}${content}</translation>`,
        });
      } else {
        edits.push({
          start: translation.start,
          end: translation.openEnd,
          text: openTag(text.slice(translation.start, translation.openEnd)),
        });
        const holder = textHolder(translation);
        if (holder !== translation) edits.push({ start: holder.openEnd, end: holder.closeStart, text: content });
        else edits.push({ start: translation.openEnd, end: translation.closeStart, text: content });
      }
      continue;
    }
    // Numerus: one <numerusform> per plural form; forms not translated keep what the file has,
    // else take the last translated form.
    const present = translation && !translation.selfClosing ? childElements(translation, 'numerusform') : [];
    let fallback = '';
    for (const entry of written) if (entry) fallback = entry.content;
    const forms = units.map((unit, form) => {
      const entry = written[form];
      if (entry) return entry.content;
      const existing = present[form];
      return existing ? text.slice(existing.openEnd, existing.closeStart) : fallback;
    });
    if (translation && !translation.selfClosing && present.length === forms.length) {
      edits.push({ start: translation.start, end: translation.openEnd, text: openTag(text.slice(translation.start, translation.openEnd)) });
      present.forEach((element, form) => {
        if (!written[form]) return;
        const holder = textHolder(element);
        edits.push({ start: holder.openEnd, end: holder.closeStart, text: forms[form]! });
      });
      continue;
    }
    const source = childElements(message, 'source')[0]!;
    const messageIndent = whitespaceLine(text, source.start);
    const formIndent = present[0] ? whitespaceLine(text, present[0].start) : `${messageIndent}    `;
    const body = `${forms.map((form) => `${formIndent}<numerusform>${form}</numerusform>`).join('')}${messageIndent}`;
    if (!translation) {
      const lastChild = childElements(message).pop()!;
      edits.push({ start: lastChild.end, end: lastChild.end, text: `${messageIndent}${openTag('<translation>')}${body}</translation>` });
    } else {
      const opening = translation.selfClosing
        ? openingOf(text.slice(translation.start, translation.end))
        : text.slice(translation.start, translation.openEnd);
      edits.push({ start: translation.start, end: translation.end, text: `${openTag(opening)}${body}</translation>` });
    }
  }
  await writeEdited(text, edits, enc, output);
}

/** The line break and indentation before `offset` (what separates the element there from the one before). */
function whitespaceLine(text: string, offset: number): string {
  const indent = indentBefore(text, offset);
  const lineBreakAt = offset - indent.length - 1;
  if (lineBreakAt < 0 || text[lineBreakAt] !== '\n') return indent;
  return (text[lineBreakAt - 1] === '\r' ? '\r\n' : '\n') + indent;
}

export const qtTsFilter: FormatFilter = {
  name: 'qt-ts',
  extensions: ['ts'],
  detect(firstBytes) {
    return sniffXmlRoot(firstBytes)?.root === 'TS';
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};
