import { createHash } from 'node:crypto';
import { runQa } from '../../../domain/quality-assurance/engine.js';
import type { QaSegment, QaSettings, QaSpeller, QaWarning, WarningType } from '../../../domain/quality-assurance/types.js';
import { loadSpeller } from '../../../spelling/index.js';

/**
 * The thread entry of a QA run (docs/qa-runs-and-warnings.md): the engine over a job's segments is
 * CPU work, so it runs in the shared thread pool, never on the event loop that serves requests.
 * Segments go in, warnings with their ids come out; the speller is built here from the language
 * and the extra words (kept per thread for the next run of the same language and words).
 */

export interface QaThreadInput {
  jobUid: string;
  segments: (QaSegment & { idx: number })[];
  settings: QaSettings;
  sourceLang: string;
  targetLang: string;
  otherSegments?: { id: string; source: string; target: string }[];
  /** null: spelling off. */
  spelling: { lang: string; words: string[] } | null;
  only?: WarningType[];
}

export interface QaThreadWarning {
  /** The segment's index in the file. */
  s: number;
  id: string;
  type: WarningType;
  key: string;
  ignorable: boolean;
  details: Record<string, unknown>;
}

export interface QaThreadOutput {
  warnings: QaThreadWarning[];
  /** Spelling was on but the language has no dictionary: unchecked, not clean. */
  spellingUnchecked: boolean;
}

const spellers = new Map<string, Promise<QaSpeller | null>>();

function spellerFor(lang: string, words: readonly string[]): Promise<QaSpeller | null> {
  const key = `${lang}\n${createHash('sha256').update(words.join('\n')).digest('base64url')}`;
  let speller = spellers.get(key);
  if (!speller) {
    if (spellers.size >= 4) spellers.delete(spellers.keys().next().value!);
    speller = loadSpeller(lang, [...words]);
    spellers.set(key, speller);
  }
  return speller;
}

/** The hash of a target that warning ids and ignored checks are tied to. */
export function targetHash(target: string): string {
  return createHash('sha256').update(target).digest('base64url').slice(0, 22);
}

/** A warning's stable id: job, segment, type, key and the target's hash. */
export function warningId(jobUid: string, idx: number, warning: Pick<QaWarning, 'type' | 'key'>, hash: string): string {
  return createHash('sha256').update(`${jobUid}\n${idx}\n${warning.type}\n${warning.key}\n${hash}`).digest('base64url').slice(0, 32);
}

export async function runQaInThread(input: QaThreadInput): Promise<QaThreadOutput> {
  const speller = input.spelling ? await spellerFor(input.spelling.lang, input.spelling.words) : null;
  const context = {
    sourceLang: input.sourceLang,
    targetLang: input.targetLang,
    speller,
    ...(input.otherSegments ? { otherSegments: input.otherSegments } : {}),
  };
  const result = runQa(input.segments, input.settings, context, input.only ? { only: new Set(input.only) } : {});
  const byId = result.warnings;
  const warnings: QaThreadWarning[] = [];
  for (const segment of input.segments) {
    const found = byId.get(segment.id);
    if (!found?.length) continue;
    const hash = targetHash(segment.target);
    for (const w of found)
      warnings.push({
        s: segment.idx,
        id: warningId(input.jobUid, segment.idx, w, hash),
        type: w.type,
        key: w.key,
        ignorable: w.ignorable,
        details: w.details,
      });
  }
  return { warnings, spellingUnchecked: result.spellingUnchecked };
}
