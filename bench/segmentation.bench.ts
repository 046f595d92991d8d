/**
 * Throughput of sentence segmentation and word counting (docs/segmentation-and-counting.md).
 * Prints figures, asserts nothing. Run: `npx tsx bench/segmentation.bench.ts`.
 *
 * - segmentText over about 1 MB of generated prose per language (English with abbreviations,
 *   URLs and numbers; German; Japanese; English with inline tag placeholders);
 * - countText over the segments of the English text, one call per segment (the analysis case).
 */
import { countText } from '../src/domain/counting/word-count.js';
import { segmentText } from '../src/domain/segmentation/segmenter.js';

const SAMPLES: Record<string, string[]> = {
  en: [
    'Dr. Smith arrived at 5 p.m. on Monday.',
    'The U.S. team, e.g. the one from Boston, won 3.14 points.',
    'Was it worth it?',
    'Visit https://example.com/docs/index.html for details.',
    'He said "Yes!" and left… and then nothing happened for a long while.',
    'Contact j.doe@example.com today, or call No. 5 at the front desk.',
  ],
  de: [
    'Am 1. Januar kam Dr. Müller, z. B. mit dem Zug.',
    'Das gilt bzw. galt für alle Mitarbeiterinnen und Mitarbeiter des Max-Planck-Instituts.',
    'Warum nicht?',
    'Im 19. Jahrhundert war das anders, d. h. viel langsamer.',
  ],
  ja: ['今日は晴れです。', '明日は雨でしょう！', '「はい。」と彼は言った。', 'バージョン3.14をダウンロードしてください。'],
  'en-tags': [
    'Click \uE000Save\uE800 to keep your changes.',
    'The \uE001file\uE801 was not found.\uF000',
    'Dr.\uE800 Smith opened \uE002the report\uE802 at 9 a.m.',
  ],
};

function prose(sentences: string[], bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const sentence = sentences[i % sentences.length]!;
    parts.push(sentence);
    length += sentence.length + 1;
  }
  return parts.join(' ');
}

function time<T>(run: () => T): { result: T; ms: number } {
  run(); // warm up (compiles the rules, JIT)
  const rounds = 5;
  const began = performance.now();
  let result = run();
  for (let i = 1; i < rounds; i++) result = run();
  return { result, ms: (performance.now() - began) / rounds };
}

for (const [name, sentences] of Object.entries(SAMPLES)) {
  const language = name.split('-')[0]!;
  const text = prose(sentences, 1_000_000);
  const megabytes = new TextEncoder().encode(text).length / 1e6;
  const { result: segments, ms } = time(() => segmentText(text, language));
  const perSecond = (segments.length / ms) * 1000;
  console.log(
    `segment ${name.padEnd(8)} ${text.length.toLocaleString('en-US').padStart(10)} chars ${megabytes.toFixed(2)} MB  ${ms.toFixed(1).padStart(7)} ms  ` +
      `${Math.round(perSecond).toLocaleString('en-US').padStart(10)} segments/s  ${(megabytes / (ms / 1000)).toFixed(1).padStart(6)} MB/s`,
  );
}

{
  const text = prose(SAMPLES.en!, 1_000_000);
  const segments = segmentText(text, 'en').map((segment) => segment.text);
  const megabytes = new TextEncoder().encode(text).length / 1e6;
  const { ms } = time(() => segments.map((segment) => countText(segment, 'en')));
  console.log(
    `count   en       ${segments.length.toLocaleString('en-US').padStart(10)} segs  ${megabytes.toFixed(2)} MB  ${ms.toFixed(1).padStart(7)} ms  ` +
      `${Math.round((segments.length / ms) * 1000)
        .toLocaleString('en-US')
        .padStart(10)} segments/s  ${(megabytes / (ms / 1000)).toFixed(1).padStart(6)} MB/s`,
  );
}
{
  const text = prose(SAMPLES.ja!, 1_000_000);
  const segments = segmentText(text, 'ja').map((segment) => segment.text);
  const megabytes = new TextEncoder().encode(text).length / 1e6;
  const { ms } = time(() => segments.map((segment) => countText(segment, 'ja')));
  console.log(
    `count   ja       ${segments.length.toLocaleString('en-US').padStart(10)} segs  ${megabytes.toFixed(2)} MB  ${ms.toFixed(1).padStart(7)} ms  ` +
      `${Math.round((segments.length / ms) * 1000)
        .toLocaleString('en-US')
        .padStart(10)} segments/s  ${(megabytes / (ms / 1000)).toFixed(1).padStart(6)} MB/s`,
  );
}
