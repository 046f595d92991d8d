import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the published material (the Phrase TMS spec, the list of operations) lives.
 *
 * It sits beside the project, in `../shared`, and is never copied into it: a user's clone has no
 * `../shared`, so everything that reads it must cope with its absence and skip.
 */

/** The folder holding package.json, found by walking up from this file (works from src, test, scripts and dist alike). */
export function projectRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    folder = parent;
  }
  return folder;
}

/** `OPENTMS_SHARED_DIR` if set (for checkouts laid out differently), else `<project root>/../shared`. */
export function sharedDir(): string {
  const fromEnv = process.env.OPENTMS_SHARED_DIR;
  return fromEnv ? resolve(fromEnv) : resolve(projectRoot(), '..', 'shared');
}

/** Absolute path of `<shared>/spec/<file>`, or null when it does not exist (as in a user's clone). */
export function sharedSpecPath(file: string): string | null {
  const path = join(sharedDir(), 'spec', file);
  return existsSync(path) ? path : null;
}

/** How to name `<shared>/spec/<file>` in a skip message: relative, as people know it, unless the env var moved it. */
export function sharedSpecDisplayPath(file: string): string {
  return process.env.OPENTMS_SHARED_DIR ? join(sharedDir(), 'spec', file) : `../shared/spec/${file}`;
}
