import { createLogger } from '../logging.js';
import type { TaskLogger } from './types.js';

/**
 * The logger of a process that runs only the worker and has no Fastify logger: the API's
 * configuration (src/logging.ts: JSON lines, secrets redacted), on stdout or through `write`.
 */
export function createJsonLogger(level: string, write?: (line: string) => void): TaskLogger {
  return write ? createLogger(level, { write }) : createLogger(level);
}

export const silentLogger: TaskLogger = { debug() {}, info() {}, warn() {}, error() {} };
