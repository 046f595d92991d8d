import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The XML schemas Debian's `omegat` package ships in its jar (schemas/tbx.xsd, schemas/tmx14.xsd),
 * extracted to a temporary directory for `xmllint --nonet --schema`. `missing` names what is not
 * installed (the tests that need it skip with that message).
 */
export interface OmegatSchema {
  dir: string;
  xsd: string | null;
  missing: string | null;
  /** Validates `xml`; throws with xmllint's complaint when it is not valid. */
  validate(xml: string, fileName?: string): void;
  dispose(): void;
}

/** The W3C xml.xsd the schemas import, reduced to xml:lang, for when the jar has none (--nonet cannot fetch it). */
const XML_XSD = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/XML/1998/namespace" xml:lang="en">
  <xs:attribute name="lang"><xs:simpleType><xs:union memberTypes="xs:language"><xs:simpleType><xs:restriction base="xs:string"><xs:enumeration value=""/></xs:restriction></xs:simpleType></xs:union></xs:simpleType></xs:attribute>
</xs:schema>
`;

export function omegatSchema(entry: 'schemas/tbx.xsd' | 'schemas/tmx14.xsd', what: string): OmegatSchema {
  const result = (dir: string, xsd: string | null, missing: string | null): OmegatSchema => ({
    dir,
    xsd,
    missing,
    validate(xml, fileName = 'document.xml') {
      if (!xsd) throw new Error(`cannot validate: ${missing}`);
      const file = join(dir, fileName);
      writeFileSync(file, xml);
      try {
        execFileSync('xmllint', ['--nonet', '--noout', '--schema', xsd, file], { encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        const e = error as { stderr?: string; message: string };
        throw new Error(`xmllint rejected the document: ${e.stderr ?? e.message}`);
      }
    },
    dispose() {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  });
  if (spawnSync('xmllint', ['--version']).status !== 0) return result('', null, 'xmllint (apt-get install libxml2-utils)');
  if (spawnSync('unzip', ['-v']).status !== 0) return result('', null, 'unzip');
  const listed = spawnSync('dpkg', ['-L', 'omegat'], { encoding: 'utf8' });
  const jars = listed.status === 0 ? listed.stdout.split('\n').filter((path) => /\.jar$/i.test(path) && existsSync(path)) : [];
  if (existsSync('/usr/share/omegat/OmegaT.jar')) jars.unshift('/usr/share/omegat/OmegaT.jar');
  const dir = mkdtempSync(join(tmpdir(), 'omegat-schema-'));
  const name = entry.split('/').pop()!;
  let xsd: string | null = null;
  let xmlXsd = false;
  for (const jar of jars) {
    const take = (path: string, file: string) => {
      const out = spawnSync('unzip', ['-p', jar, path], { maxBuffer: 1 << 22 });
      if (out.status !== 0 || out.stdout.length === 0) return false;
      writeFileSync(join(dir, file), out.stdout);
      return true;
    };
    if (!xsd && take(entry, name)) xsd = join(dir, name);
    if (!xmlXsd) xmlXsd = take('schemas/xml.xsd', 'xml.xsd');
  }
  if (!xsd) {
    rmSync(dir, { recursive: true, force: true });
    return result('', null, `${what} (${entry} of the Debian package omegat: apt-get install omegat)`);
  }
  if (!xmlXsd) writeFileSync(join(dir, 'xml.xsd'), XML_XSD);
  return result(dir, xsd, null);
}
