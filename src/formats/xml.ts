import { SaxesParser } from 'saxes';

/**
 * saxes' parser with its event handler slots added up front. saxes stores a handler as a
 * property named at run time (`on()`), so each one registered adds a property by computed name,
 * and after the seventh V8 turns the parser object into a dictionary: every field saxes reads per
 * character is then a hash lookup, and parsing took four times as long (0.8 s instead of 0.2 s for
 * 720,000 inline tags). Added here by name, the slots are part of the object's shape from the
 * start and `on()` only assigns them (bench/hostile-import.bench.ts, tags-40k-per-unit).
 */
export function shapedSaxesParser(): SaxesParser<{ xmlns: false; position: true }> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  // saxes' (private) handler slots, one assignment each by a name known in advance.
  const slots = parser as unknown as Record<string, unknown>;
  slots['xmldeclHandler'] = undefined;
  slots['textHandler'] = undefined;
  slots['piHandler'] = undefined;
  slots['doctypeHandler'] = undefined;
  slots['commentHandler'] = undefined;
  slots['openTagStartHandler'] = undefined;
  slots['attributeHandler'] = undefined;
  slots['openTagHandler'] = undefined;
  slots['closeTagHandler'] = undefined;
  slots['cdataHandler'] = undefined;
  slots['errorHandler'] = undefined;
  slots['endHandler'] = undefined;
  slots['readyHandler'] = undefined;
  return parser;
}

/** XML 1.0 forbids these characters outright; they cannot be written even as references. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

/** Whether `text` holds a character XML 1.0 cannot hold, not even as a reference. */
export function hasNonXmlCharacter(text: string): boolean {
  return NOT_XML.test(text);
}

/** Text content with `&`, `<` and `>` escaped. */
export function escapeXmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value for double quotes, with the whitespace XML would normalize kept as references. */
export function escapeXmlAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}
