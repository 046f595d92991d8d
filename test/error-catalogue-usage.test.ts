import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './contract/shared-dir.js';

/**
 * Every error of the product is raised through the catalogue (src/errors/): this test fails on
 * code outside src/errors that builds an error with a code of its own.
 */

/** What raises an error with an arbitrary code or body. */
const INLINE_ERROR = /\bnew\s+(ApiError|ScimError|OAuthError)\s*\(|\berrorCode:\s*['"`]/;
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
    const inline = files.flatMap((f) => matchingLines(f, INLINE_ERROR));
    expect(inline).toEqual([]);
  });
});
