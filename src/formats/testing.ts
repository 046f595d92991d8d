import { Readable, Writable } from 'node:stream';
import type { FilterOptions, FormatFilter, TextUnit, UnitTranslation } from './types.js';

/**
 * Helpers for the filter tests and the benchmark: feed bytes in chunks of a chosen size (so
 * chunk boundaries fall inside tags, characters and line endings) and collect what comes out.
 */
export function streamOf(bytes: Buffer | string, chunkSize = 64 * 1024): Readable {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  function* chunks(): Generator<Buffer> {
    for (let at = 0; at < buffer.length; at += chunkSize) yield buffer.subarray(at, at + chunkSize);
  }
  return Readable.from(chunks(), { objectMode: false });
}

export async function parseAll(
  filter: FormatFilter,
  bytes: Buffer | string,
  options?: FilterOptions,
  chunkSize?: number,
): Promise<TextUnit[]> {
  const units: TextUnit[] = [];
  for await (const unit of filter.parse(streamOf(bytes, chunkSize), options)) units.push(unit);
  return units;
}

export async function writeAll(
  filter: FormatFilter,
  bytes: Buffer | string,
  translations: Record<string, string> | ReadonlyMap<string, UnitTranslation>,
  options?: FilterOptions,
  chunkSize?: number,
): Promise<Buffer> {
  const map =
    translations instanceof Map ? translations : new Map(Object.entries(translations).map(([locator, text]) => [locator, { text }]));
  const parts: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      parts.push(chunk);
      done();
    },
  });
  await filter.write(streamOf(bytes, chunkSize), map, sink, options);
  return Buffer.concat(parts);
}
