import type { Readable, Writable } from 'node:stream';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, restoreTags } from './inline-tags.js';
import { unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, TextUnit, UnitTranslation } from './types.js';
import {
  PLURAL_ORDER,
  UnitBuilder,
  childElements,
  planPlurals,
  pluralCategories,
  pluralEdits,
  readXmlResource,
  scanXmlResource,
  sniffXmlRoot,
  tagRegexpSetting,
  textOf,
  writeEdited,
  xmlTextEscaper,
} from './xml-resource.js';
import type { Edit, PluralSlot, XmlElement } from './xml-resource.js';

/**
 * iOS/macOS plural string dictionaries (`.stringsdict`, an XML property list): for each entry of
 * the top dictionary, its `NSStringLocalizedFormatKey` and every string variant of its variable
 * dictionaries (the plural categories `zero`…`other`, or device and width variants) is a unit.
 * docs/formats/xml-resources.md.
 */

/** Keys whose values are configuration, not text. */
const CONFIG_KEYS = new Set(['NSStringFormatSpecTypeKey', 'NSStringFormatValueTypeKey']);

/**
 * Apple's format placeholders: `%#@variable@` and printf-style specifiers with `$` positions,
 * length modifiers and `%@` (the space flag left out so that "50% off" is text).
 */
const APPLE_FORMAT = /%#@[^@\s]*@|%(?:\d+\$)?[-+#0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|q|L|z|t|j)?[@dDiuUxXoOfFeEgGcCsSpaA%]/g;

interface DictUnit {
  unit: TextUnit;
  value: XmlElement;
}

interface PluralDict {
  slots: (PluralSlot & { key: XmlElement; value: XmlElement; locator: string })[];
}

function pointerName(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

function scan(text: string, enc: TextEncoding, options: FilterOptions): { units: DictUnit[]; plurals: PluralDict[] } {
  const pattern = compileTagRegexp(tagRegexpSetting(options));
  const escape = xmlTextEscaper(enc, 'a tag');
  const units: DictUnit[] = [];
  const plurals: PluralDict[] = [];
  const locators = new Set<string>();
  let lastKey: string | null = null;
  let index = 0;

  const walk = (dict: XmlElement, path: string[], entry: string, fail: (message: string) => never): void => {
    const children = childElements(dict);
    const pairs: { key: XmlElement; value: XmlElement; name: string }[] = [];
    for (let i = 0; i < children.length; i++) {
      const key = children[i]!;
      if (key.name !== 'key') continue;
      const value = children[i + 1];
      if (!value || value.name === 'key') return fail(`the key "${textOf(key)}" of "${entry}" has no value`);
      pairs.push({ key, value, name: textOf(key) });
      i += 1;
    }
    const spec = pairs.find((pair) => pair.name === 'NSStringFormatSpecTypeKey');
    const plural = spec !== undefined && textOf(spec.value) === 'NSStringPluralRuleType' ? { slots: [] as PluralDict['slots'] } : null;
    for (const { key, value, name } of pairs) {
      const childPath = [...path, name];
      if (value.name === 'dict') {
        walk(value, childPath, entry, fail);
        continue;
      }
      if (value.name !== 'string' || CONFIG_KEYS.has(name)) continue;
      const locator = childPath.map((part) => `/${pointerName(part)}`).join('');
      if (locators.has(locator)) return fail(`the key "${childPath.join('/')}" is defined twice`);
      locators.add(locator);
      if (plural && (PLURAL_ORDER as readonly string[]).includes(name)) {
        plural.slots.push({ category: name, start: key.start, end: value.end, key, value, locator });
      }
      const decoded = textOf(value);
      if (decoded.trim() === '') continue;
      const builder = new UnitBuilder();
      builder.textWithCodes(decoded, [pattern, APPLE_FORMAT], escape);
      units.push({
        unit: {
          index: index++,
          key: entry,
          locator,
          source: builder.source,
          tags: builder.tags,
          target: null,
          translatable: true,
          note: null,
          context: childPath.slice(1).join('/'),
        },
        value,
      });
    }
    if (plural && plural.slots.length > 0) plurals.push(plural);
  };

  scanXmlResource(
    text,
    {
      root(name, _attributes, s) {
        if (name !== 'plist') s.fail(`not a property list: the root element is <${name}>`);
      },
      capture: (name, _attributes, path) => path.length === 2 && path[1] === 'dict' && (name === 'key' || name === 'dict'),
      captured(element, _path, s) {
        if (element.name === 'key') {
          lastKey = textOf(element);
          return;
        }
        if (lastKey === null) return s.fail('a dictionary without its key');
        const entry = lastKey;
        lastKey = null;
        walk(element, [entry], entry, (message) => s.fail(message));
      },
    },
    options.maxDepth,
  );
  return { units, plurals };
}

function maxBytes(options: FilterOptions): number | undefined {
  const value = (options as { maxXmlResourceBytes?: unknown }).maxXmlResourceBytes;
  return typeof value === 'number' ? value : undefined;
}

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const { enc, text } = await readXmlResource(input, 'stringsdict', maxBytes(options));
  const { units } = scan(text, enc, options);
  for (let at = 0; at < units.length; at += 1024) yield units.slice(at, at + 1024).map((scanned) => scanned.unit);
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const { enc, text } = await readXmlResource(original, 'stringsdict', maxBytes(options));
  const { units, plurals } = scan(text, enc, options);
  const edits: Edit[] = [];
  const written = new Map<string, string>();
  const contentEdits = new Map<string, Edit>();
  for (const { unit, value } of units) {
    const translation = translations.get(unit.locator);
    if (!translation) continue;
    if (translation.text === unit.source) {
      written.set(unit.locator, text.slice(value.openEnd, value.closeStart));
      continue;
    }
    const content = restoreTags(translation.text, unit.tags, xmlTextEscaper(enc, `the translation of ${unit.locator}`));
    written.set(unit.locator, content);
    contentEdits.set(unit.locator, { start: value.openEnd, end: value.closeStart, text: content });
  }
  const target = pluralCategories(options.targetLanguage);
  for (const plural of plurals) {
    if (!plural.slots.some((slot) => written.has(slot.locator))) continue;
    // iOS uses a `zero` variant for 0 in every language: it is kept even where CLDR has none.
    const plan = planPlurals(
      plural.slots.map((slot) => slot.category),
      target,
      (category) => category === 'zero',
    );
    for (const slot of plural.slots) if (plan.remove.has(slot.category)) contentEdits.delete(slot.locator);
    const other = plural.slots.find((slot) => slot.category === 'other') ?? plural.slots[plural.slots.length - 1]!;
    const otherContent = written.get(other.locator) ?? text.slice(other.value.openEnd, other.value.closeStart);
    const between = text.slice(other.key.end, other.value.start);
    edits.push(...pluralEdits(text, plural.slots, plan, (category) => `<key>${category}</key>${between}<string>${otherContent}</string>`));
  }
  edits.push(...contentEdits.values());
  await writeEdited(text, edits, enc, output);
}

export const iosStringsdictFilter: FormatFilter = {
  name: 'ios-stringsdict',
  extensions: ['stringsdict'],
  detect(firstBytes) {
    const sniffed = sniffXmlRoot(firstBytes);
    return sniffed !== null && sniffed.root === 'plist' && sniffed.head.includes('NSStringLocalizedFormatKey');
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};
