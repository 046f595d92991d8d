import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';

/**
 * Office documents to PDF with LibreOffice headless (docs/previews.md, "Office documents"). One
 * conversion at a time per process: requests queue, so a burst cannot start dozens of soffice
 * processes; each runs in a fresh temporary folder with a profile of its own
 * (`-env:UserInstallation`), is killed with its whole process group after `timeoutMs`, and the
 * folder is removed afterwards. The input file is named by the converter (`document.<ext>`,
 * `ext` from a fixed list), never by a client.
 */

export interface OfficeConverterOptions {
  /** The commands tried in order (default `soffice`, then `libreoffice`, found on the PATH). */
  commands?: readonly string[];
  /** Longest a conversion may take (default 120 s). */
  timeoutMs?: number;
  /** Most conversions waiting for their turn (default 32); more are refused as busy. */
  maxQueued?: number;
}

/** LibreOffice is not installed: none of the commands could be started. */
export class OfficeMissingError extends Error {
  constructor() {
    super('LibreOffice is not installed');
  }
}

/** The conversion failed, timed out, or too many are waiting. */
export class OfficeConversionError extends Error {}

/** The file extensions LibreOffice converts for previews, as the input is named. */
export const OFFICE_EXTENSIONS: ReadonlySet<string> = new Set(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'doc', 'xls', 'ppt', 'rtf']);

/** A PDF made by a conversion: read it, then `dispose()` (removes the temporary folder). */
export interface ConvertedPdf {
  size: number;
  stream(): Readable;
  dispose(): Promise<void>;
}

export class OfficeConverter {
  private readonly commands: readonly string[];
  private readonly timeoutMs: number;
  private readonly maxQueued: number;
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;
  /** The command that worked, once one did; null once none could be started. */
  private command: string | null | undefined;

  constructor(options: OfficeConverterOptions = {}) {
    this.commands = options.commands ?? ['soffice', 'libreoffice'];
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.maxQueued = options.maxQueued ?? 32;
  }

  /** Whether LibreOffice is known to be missing (after a first attempt found no command). */
  get knownMissing(): boolean {
    return this.command === null;
  }

  /**
   * Converts the document `write` puts into the given path (a file named `document.<extension>`)
   * to PDF, in turn with the other conversions of this converter.
   */
  convert(extension: string, write: (path: string) => Promise<void>): Promise<ConvertedPdf> {
    if (!OFFICE_EXTENSIONS.has(extension)) return Promise.reject(new OfficeConversionError(`.${extension} files are not converted`));
    if (this.command === null) return Promise.reject(new OfficeMissingError());
    if (this.queued >= this.maxQueued)
      return Promise.reject(new OfficeConversionError('too many previews are being made; try again shortly'));
    this.queued++;
    const run = this.tail.then(() => this.convertNow(extension, write));
    this.tail = run.catch(() => undefined).finally(() => this.queued--);
    return run;
  }

  private async convertNow(extension: string, write: (path: string) => Promise<void>): Promise<ConvertedPdf> {
    const dir = await mkdtemp(join(tmpdir(), 'opentms-preview-'));
    const dispose = () => rm(dir, { recursive: true, force: true });
    try {
      const input = join(dir, `document.${extension}`);
      await write(input);
      const outdir = join(dir, 'out');
      const profile = pathToFileURL(join(dir, 'profile')).href;
      const args = [
        `-env:UserInstallation=${profile}`,
        '--headless',
        '--norestore',
        '--nolockcheck',
        '--convert-to',
        'pdf',
        '--outdir',
        outdir,
        input,
      ];
      await this.run(args);
      const pdf = join(outdir, 'document.pdf');
      const size = await stat(pdf).then(
        (s) => s.size,
        () => -1,
      );
      if (size <= 0) throw new OfficeConversionError('LibreOffice made no PDF of the document');
      return { size, stream: () => createReadStream(pdf), dispose };
    } catch (error) {
      await dispose();
      throw error;
    }
  }

  /** Runs the first command that can be started; remembers it. */
  private async run(args: readonly string[]): Promise<void> {
    const candidates = this.command ? [this.command] : this.commands;
    for (const command of candidates) {
      const started = await this.runOne(command, args);
      if (started) {
        this.command = command;
        return;
      }
    }
    this.command = null;
    throw new OfficeMissingError();
  }

  /** false when `command` cannot be started (not installed); throws when it fails. */
  private runOne(command: string, args: readonly string[]): Promise<boolean> {
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(command, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
      } catch {
        resolve(false);
        return;
      }
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        if (stderr.length < 4096) stderr += chunk.toString('utf8');
      });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child);
      }, this.timeoutMs);
      child.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (error.code === 'ENOENT' || error.code === 'EACCES') resolve(false);
        else reject(new OfficeConversionError(`LibreOffice could not be started: ${error.message}`));
      });
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        // soffice may leave helper processes behind in its group.
        killGroup(child);
        if (timedOut) reject(new OfficeConversionError(`LibreOffice did not finish within ${Math.round(this.timeoutMs / 1000)} s`));
        else if (code !== 0)
          reject(new OfficeConversionError(`LibreOffice failed (${signal ?? `exit code ${code}`}): ${stderr.trim().slice(0, 300)}`));
        else resolve(true);
      });
    });
  }
}

/** Kills the process group of a detached child (soffice and the processes it started). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
