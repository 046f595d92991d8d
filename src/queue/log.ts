import { hostname } from 'node:os';
import type { TaskLogger } from './types.js';

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

function serialise(value: unknown): unknown {
  if (value instanceof Error) {
    return { type: value.name, message: value.message, ...(value.stack ? { stack: value.stack } : {}) };
  }
  return value;
}

/**
 * JSON lines in the shape of the API's log (pino's: numeric `level`, ISO `time`, `pid`,
 * `hostname`, `msg`), for a process that runs only the worker and has no Fastify logger.
 */
export function createJsonLogger(level: string, write: (line: string) => void = (line) => process.stdout.write(line)): TaskLogger {
  const threshold = LEVELS[level] ?? LEVELS.info!;
  const base = { pid: process.pid, hostname: hostname() };
  const at = (levelNumber: number) => (object: object, message?: string) => {
    if (levelNumber < threshold) return;
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) fields[key] = serialise(value);
    write(
      `${JSON.stringify({ level: levelNumber, time: new Date().toISOString(), ...base, ...fields, ...(message ? { msg: message } : {}) })}\n`,
    );
  };
  return { debug: at(20), info: at(30), warn: at(40), error: at(50) };
}

export const silentLogger: TaskLogger = { debug() {}, info() {}, warn() {}, error() {} };
