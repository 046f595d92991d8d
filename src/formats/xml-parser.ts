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
