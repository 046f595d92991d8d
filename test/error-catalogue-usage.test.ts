import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASYNC_FAILURES, STATUS, TMS_ERRORS, isErrorCode } from '../src/errors/index.js';
import type { ErrorKind } from '../src/errors/index.js';
import { projectRoot } from './contract/shared-dir.js';

/**
 * Every error of the product is raised through the catalogue (src/errors/): this test fails on
 * code outside src/errors that builds an error with a code of its own.
 */

/**
 * TEMPORARY (issue 12, phase 1): the translation-workflow files still build their errors inline
 * and through the old helpers; phase 2 moves them to the catalogue and deletes this constant.
 * Until then the codes they write are checked against the catalogue below.
 */
const TEMPORARILY_INLINE_ERRORS = 'src/modules/translation-workflow/';

/** What raises an error with an arbitrary code or body. */
const INLINE_ERROR = /\bnew\s+(ApiError|ScimError|OAuthError)\s*\(|\berrorCode:\s*['"`]/;
/** The helpers kept for the translation-workflow files only (src/errors/legacy-helpers.ts). */
const LEGACY_HELPER_IMPORT = /import\s*\{([^}]*)\}\s*from\s*'[./]*(?:src\/)?errors\/index\.js'/g;
const LEGACY_HELPERS = new Set(['notFound', 'invalid', 'forbidden', 'unauthenticated', 'nameAlreadyExists']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const root = projectRoot();
const files = sourceFiles(join(root, 'src'))
  .map((path) => ({ path: relative(root, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }))
  .filter((file) => !file.path.startsWith('src/errors/'));

/** `file:line: text` of each line of `file` that matches `pattern`. */
function matchingLines(file: { path: string; text: string }, pattern: RegExp): string[] {
  return file.text.split('\n').flatMap((line, index) => (pattern.test(line) ? [`${file.path}:${index + 1}: ${line.trim()}`] : []));
}

describe('errors are raised through the catalogue', () => {
  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.path === 'src/http/errors.ts')).toBe(true);
  });

  it('no code outside src/errors builds an error with a code of its own', () => {
    const inline = files.filter((f) => !f.path.startsWith(TEMPORARILY_INLINE_ERRORS)).flatMap((f) => matchingLines(f, INLINE_ERROR));
    expect(inline).toEqual([]);
  });

  it('no code outside the translation workflow uses the helpers kept for it', () => {
    const uses = files
      .filter((f) => !f.path.startsWith(TEMPORARILY_INLINE_ERRORS))
      .flatMap((f) =>
        [...f.text.matchAll(LEGACY_HELPER_IMPORT)]
          .flatMap((m) => m[1]!.split(',').map((name) => name.trim().split(/\s+as\s+/)[0]!))
          .filter((name) => LEGACY_HELPERS.has(name))
          .map((name) => `${f.path}: imports ${name}`),
      );
    expect(uses).toEqual([]);
  });

  describe('phase 1: the codes the translation-workflow files still write inline', () => {
    const workflow = files.filter((f) => f.path.startsWith(TEMPORARILY_INLINE_ERRORS));

    it('are codes of the catalogue, with the status the catalogue gives them', () => {
      const problems: string[] = [];
      let seen = 0;
      for (const file of workflow) {
        for (const m of file.text.matchAll(/new ApiError\(\s*'([a-z_]+)',\s*'([A-Za-z]+)'/g)) {
          seen++;
          const [, kind, code] = m as unknown as [string, ErrorKind, string];
          if (!isErrorCode(code)) problems.push(`${file.path}: ${code} is not in the catalogue`);
          else if (TMS_ERRORS[code].status !== STATUS[kind])
            problems.push(`${file.path}: ${code} is ${kind}, the catalogue says ${TMS_ERRORS[code].status}`);
        }
        // The job-update refusals pass their code to a helper that builds the ApiError.
        for (const m of file.text.matchAll(/\brefused?\(\s*'([A-Za-z]+)'/g)) {
          seen++;
          if (!isErrorCode(m[1]!)) problems.push(`${file.path}: ${m[1]} is not in the catalogue`);
        }
      }
      expect(seen).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    });

    it('the failures they record on asynchronous requests are codes of the outcome family', () => {
      const codes = workflow.flatMap((f) => [...f.text.matchAll(/\berrorCode:\s*'([A-Za-z]+)'/g)].map((m) => `${f.path}: ${m[1]}`));
      expect(codes.filter((entry) => !(entry.split(': ')[1]! in ASYNC_FAILURES))).toEqual([]);
    });
  });
});
