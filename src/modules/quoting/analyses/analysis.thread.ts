import type { MessagePort } from 'node:worker_threads';
import { EditingAnalyser, PreTranslationAnalyser } from '../../../domain/analysis/analyser.js';
import type { EditedSegment, PreTranslationSegment } from '../../../domain/analysis/analyser.js';
import type { Tallies } from '../../../domain/analysis/bands.js';
import type { AnalysisSettings } from '../../../domain/analysis/settings.js';

/**
 * The thread that analyses one language part (docs/analysis.md, "Where it runs"): counting,
 * repetitions and internal fuzzy matches are CPU work, so they never run on an event loop that
 * serves requests. The task sends the part's segments in order, in batches, on the port; each
 * batch is acknowledged once counted; `end` resolves the call with the tallies of each job.
 */

export interface PartInput {
  settings: AnalysisSettings;
  countLanguage: string;
}

export type PartMessage =
  { op: 'pre'; seq: number; segments: PreTranslationSegment[] } | { op: 'edited'; seq: number; segments: EditedSegment[] } | { op: 'end' };

export type PartReply = { seq: number; ok: true } | { seq: number; ok: false; error: string };

export function analyseLanguagePart(input: PartInput, port: MessagePort | null): Promise<Tallies[]> {
  if (!port) throw new Error('analyseLanguagePart needs a port');
  const options = { countLanguage: input.countLanguage };
  const pre = new PreTranslationAnalyser(input.settings, options);
  const edited = new EditingAnalyser(input.settings, options);
  return new Promise((resolve) => {
    port.on('message', (message: PartMessage) => {
      if (message.op === 'end') {
        port.close();
        const jobs = input.settings.type === 'PreAnalyse' ? pre.jobs : edited.jobs;
        resolve(Array.from(jobs, (tallies) => tallies ?? {}));
        return;
      }
      try {
        if (message.op === 'pre') for (const segment of message.segments) pre.add(segment);
        else for (const segment of message.segments) edited.add(segment);
        port.postMessage({ seq: message.seq, ok: true } satisfies PartReply);
      } catch (error) {
        port.postMessage({
          seq: message.seq,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        } satisfies PartReply);
      }
    });
  });
}
