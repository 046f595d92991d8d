import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

/**
 * The XML schemas Debian's `omegat` package ships in its jar (schemas/tbx.xsd, schemas/tmx14.xsd
 * and schemas/tmx14.dtd, schemas/srx20.xsd, with the schemas/xml.xsd they import), extracted to a
 * temporary directory for `xmllint --nonet`. `missing` names what is not installed (the tests that need it skip with
 * that message).
 */
export interface OmegatSchema {
  dir: string;
  /** The extracted schema; null when `missing`. */
  xsd: string | null;
  /** The extracted DTD when one was asked for; null when not asked for, not in the jar or `missing`. */
  dtd: string | null;
  missing: string | null;
  /** Validates `xml` against the schema (the DTD with `against` 'dtd'); throws with xmllint's complaint when it is not valid. */
  validate(xml: string, fileName?: string, against?: 'xsd' | 'dtd'): void;
  dispose(): void;
}

/** The W3C xml.xsd the schemas import, reduced to xml:lang, for when the jar has none (--nonet cannot fetch it). */
const XML_XSD = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/XML/1998/namespace" xml:lang="en">
  <xs:attribute name="lang"><xs:simpleType><xs:union memberTypes="xs:language"><xs:simpleType><xs:restriction base="xs:string"><xs:enumeration value=""/></xs:restriction></xs:simpleType></xs:union></xs:simpleType></xs:attribute>
</xs:schema>
`;

/**
 * Extracts `entry` (and `dtdEntry`, when given) from OmegaT's jar; `what` names the schema in
 * `missing`. Call `dispose()` when done.
 */
export function omegatSchema(
  entry: 'schemas/tbx.xsd' | 'schemas/tmx14.xsd' | 'schemas/srx20.xsd',
  what: string,
  dtdEntry?: 'schemas/tmx14.dtd',
): OmegatSchema {
  const result = (dir: string, xsd: string | null, dtd: string | null, missing: string | null): OmegatSchema => ({
    dir,
    xsd,
    dtd,
    missing,
    validate(xml, fileName = 'document.xml', against = 'xsd') {
      const schema = against === 'dtd' ? dtd : xsd;
      if (!schema) throw new Error(`cannot validate: ${missing ?? `${dtdEntry ?? 'a DTD'} is missing`}`);
      const file = join(dir, fileName);
      writeFileSync(file, xml);
      try {
        execFileSync('xmllint', ['--nonet', '--noout', against === 'dtd' ? '--dtdvalid' : '--schema', schema, file], {
          encoding: 'utf8',
          stdio: 'pipe',
        });
      } catch (error) {
        const e = error as { stderr?: string; message: string };
        throw new Error(`xmllint rejected the document: ${e.stderr ?? e.message}`);
      }
    },
    dispose() {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  });
  if (spawnSync('xmllint', ['--version']).status !== 0) return result('', null, null, 'xmllint (apt-get install libxml2-utils)');
  if (spawnSync('unzip', ['-v']).status !== 0) return result('', null, null, 'unzip');
  const listed = spawnSync('dpkg', ['-L', 'omegat'], { encoding: 'utf8' });
  const jars = listed.status === 0 ? listed.stdout.split('\n').filter((path) => /\.jar$/i.test(path) && existsSync(path)) : [];
  if (existsSync('/usr/share/omegat/OmegaT.jar')) jars.unshift('/usr/share/omegat/OmegaT.jar');
  const dir = mkdtempSync(join(tmpdir(), 'omegat-schema-'));
  let xsd: string | null = null;
  let dtd: string | null = null;
  let xmlXsd: string | null = null;
  for (const jar of jars) {
    const take = (path: string): string | null => {
      const out = spawnSync('unzip', ['-p', jar, path], { maxBuffer: 1 << 22 });
      if (out.status !== 0 || out.stdout.length === 0) return null;
      const file = join(dir, path.split('/').pop()!);
      writeFileSync(file, out.stdout);
      return file;
    };
    xsd ??= take(entry);
    if (dtdEntry) dtd ??= take(dtdEntry);
    xmlXsd ??= take('schemas/xml.xsd');
  }
  if (!xsd) {
    rmSync(dir, { recursive: true, force: true });
    return result('', null, null, `${what} (${entry} of the Debian package omegat: apt-get install omegat)`);
  }
  if (!xmlXsd) writeFileSync(join(dir, 'xml.xsd'), XML_XSD);
  return result(dir, xsd, dtd, null);
}

/**
 * The official XLIFF 2.0 schema (xliff-core-2.0.xsd, OASIS) as Debian's php-symfony-translation
 * ships it, with the xml.xsd it imports pointed at the local copy, for `xmllint --nonet`. `missing`
 * names what is not installed (the tests that need it skip with that message).
 */
export function xliff2Schema(): { missing: string | null; validate(xml: string): void; dispose(): void } {
  const none = (missing: string) => ({
    missing,
    validate: () => {
      throw new Error(missing);
    },
    dispose: () => {},
  });
  if (spawnSync('xmllint', ['--version']).status !== 0) return none('xmllint (apt-get install libxml2-utils)');
  const listed = spawnSync('dpkg', ['-L', 'php-symfony-translation'], { encoding: 'utf8' });
  const files = listed.status === 0 ? listed.stdout.split('\n') : [];
  const xsd = files.find((path) => path.endsWith('/xliff-core-2.0.xsd') && existsSync(path));
  const xmlXsd = xsd && join(dirname(xsd), 'xml.xsd');
  if (!xsd || !xmlXsd || !existsSync(xmlXsd)) {
    return none(
      'the XLIFF 2.0 schema (xliff-core-2.0.xsd of the Debian package php-symfony-translation: apt-get install php-symfony-translation)',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'xliff2-schema-'));
  copyFileSync(xmlXsd, join(dir, 'xml.xsd'));
  const schema = join(dir, 'xliff-core-2.0.xsd');
  writeFileSync(schema, readFileSync(xsd, 'utf8').replace(/schemaLocation="[^"]*xml\.xsd"/, 'schemaLocation="xml.xsd"'));
  return {
    missing: null,
    validate(xml) {
      const file = join(dir, 'document.xlf');
      writeFileSync(file, xml);
      try {
        execFileSync('xmllint', ['--nonet', '--noout', '--schema', schema, file], { encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        const e = error as { stderr?: string; message: string };
        throw new Error(`xmllint rejected the document: ${e.stderr ?? e.message}`);
      }
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
