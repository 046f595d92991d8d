import type { TextUnit } from './types.js';

/**
 * What a file says about a unit beyond its text (docs/file-formats.md, "Unit facts"), as the
 * import stores it with the unit's first segment (`source_segments.unit_facts`).
 */
export interface UnitFacts {
  /** The file's target is final (XLIFF 2 `state="final"`, MXLIFF `m:confirmed`, PO without fuzzy). */
  confirmed?: boolean;
  locked?: boolean;
  /** Most characters the file allows the target. */
  maxLength?: number;
  context?: string;
  score?: number;
  origin?: string;
}

/** The facts of `unit` as stored (JSON), or null when the file said nothing. */
export function unitFactsJson(unit: TextUnit): string | null {
  const facts: UnitFacts = {};
  if (unit.targetConfirmed !== undefined) facts.confirmed = unit.targetConfirmed;
  if (unit.locked !== undefined) facts.locked = unit.locked;
  if (unit.maxLength !== undefined) facts.maxLength = unit.maxLength;
  if (unit.context !== undefined) facts.context = unit.context;
  if (unit.matchScore !== undefined) facts.score = unit.matchScore;
  if (unit.origin !== undefined) facts.origin = unit.origin;
  return Object.keys(facts).length === 0 ? null : JSON.stringify(facts);
}

/** Stored facts read back; {} for none or for something unreadable. */
export function parseUnitFacts(json: string | null | undefined): UnitFacts {
  if (!json) return {};
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as UnitFacts) : {};
  } catch {
    return {};
  }
}
