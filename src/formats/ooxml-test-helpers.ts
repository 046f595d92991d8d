import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';
import yazl from 'yazl';

/**
 * Test helpers of the Office filters (docx, pptx, xlsx, opendocument tests): build packages with
 * yazl, read them back with yauzl, and run LibreOffice headless when it is installed.
 */

export type ZipSpec = [name: string, content: string | Buffer, options?: { compress?: boolean; mtime?: Date }][];

export async function zipOf(entries: ZipSpec): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content, options] of entries) {
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'), name, {
      compress: options?.compress ?? true,
      mtime: options?.mtime ?? new Date(2024, 0, 2, 3, 4, 6),
    });
  }
  zip.end();
  const parts: Buffer[] = [];
  for await (const chunk of zip.outputStream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

export interface UnzippedEntry {
  content: Buffer;
  compressionMethod: number;
  lastModFileTime: number;
  lastModFileDate: number;
}

export async function unzipAll(bytes: Buffer): Promise<Map<string, UnzippedEntry>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const out = new Map<string, UnzippedEntry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const parts: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => parts.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          out.set(entry.fileName, {
            content: Buffer.concat(parts),
            compressionMethod: entry.compressionMethod,
            lastModFileTime: entry.lastModFileTime,
            lastModFileDate: entry.lastModFileDate,
          });
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return out;
}

/** Why LibreOffice cannot be used (null when `soffice` runs). */
export function libreOfficeMissing(): string | null {
  const which = spawnSync('sh', ['-c', 'command -v soffice || command -v libreoffice'], { encoding: 'utf8' });
  if (which.status !== 0 || which.stdout.trim() === '')
    return 'LibreOffice is not installed (apt-get install libreoffice-writer libreoffice-calc libreoffice-impress)';
  return null;
}

/**
 * Converts `input` (bytes with file name `name`) with LibreOffice headless to `format` (`pdf`,
 * `docx`, `xlsx`, `pptx`, `odt`, …) in a private profile; returns the output's bytes.
 */
export function libreOfficeConvert(input: Buffer, name: string, format: string, timeoutMs = 90_000): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'opentms-lo-'));
  try {
    const file = join(dir, name);
    writeFileSync(file, input);
    const outDir = join(dir, 'out');
    const result = spawnSync(
      'soffice',
      [
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--headless',
        '--norestore',
        '--convert-to',
        format,
        '--outdir',
        outDir,
        file,
      ],
      { encoding: 'utf8', timeout: timeoutMs },
    );
    const produced = existsSync(outDir) ? readdirSync(outDir) : [];
    if (result.status !== 0 || produced.length === 0) {
      throw new Error(`LibreOffice could not convert ${name} to ${format}: status ${result.status} ${result.stderr} ${result.stdout}`);
    }
    const path = join(outDir, produced[0]!);
    if (statSync(path).size === 0) throw new Error(`LibreOffice produced an empty ${format}`);
    return readFileSync(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of a PDF by `pdftotext` when installed, else null. */
export function pdfText(pdf: Buffer): string | null {
  const result = spawnSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8' });
  return result.status === 0 ? result.stdout : null;
}
