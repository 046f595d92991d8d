import { describe, expect, it } from 'vitest';
import { QaText } from '../text.js';
import type { QaWarning } from '../types.js';
import { checkNumbers, numbersOf } from './numbers.js';

describe('numbersOf', () => {
  it.each([
    ['en', 'Pay 1,234.5 now', ['1234.5']],
    ['de', 'Zahlen Sie 1.234,5 jetzt', ['1234.5']],
    ['fr', 'Payez 1\u202f234,5 maintenant', ['1234.5']],
    ['fr', 'Payez 1\u00a0234,5 ou 1 234', ['1234.5', '1234']],
    ['de-CH', "Zahlen Sie 1'234.5", ['1234.5']],
    ['en', '1,234', ['1234']],
    ['de', '1,234', ['1.234']],
    ['de', '1.234', ['1234']],
    ['en', '1.234', ['1.234']],
    ['en', '3.14 and 3,14', ['3.14', '3.14']],
    ['en', '1,234,567', ['1234567']],
    ['en', '12345.678', ['12345.678']],
    ['en', 'between 10 000 and 3 1', ['10', '0', '3', '1']],
    ['en', '31.12.2024', ['31', '12', '2024']],
    ['en', 'version 1.2.3', ['1', '2', '3']],
    ['en', '-5 and x-1 and 10-20 and (−3)', ['-5', '1', '10', '20', '-3']],
    ['en', '50%', ['50']],
    ['en', '1st 2nd 007', ['1', '2', '7']],
    ['de', 'am 1. Januar', ['1']],
    ['ar', '١٢٣', ['123']],
    ['ja', '３個', ['3']],
    ['en', 'tag {1}x{2>y<2} and %1$s %d %(n)d {0,number} {name}', []],
    ['en', 'x86_64', ['86', '64']],
  ])('%s %j', (lang, text, values) => {
    expect(numbersOf(new QaText(text, lang)).map((n) => n.value)).toEqual(values);
  });
});

function run(source: string, target: string, targetLang = 'de'): QaWarning[] {
  const out: QaWarning[] = [];
  checkNumbers(new QaText(source, 'en'), new QaText(target, targetLang), out, true, false);
  return out;
}

describe('missingNumber and extraNumbers', () => {
  it.each([
    ['Pay 1,234.5 now', 'Zahlen Sie 1.234,5 jetzt', 'de'],
    ['Pay 1,234.5 now', 'Payez 1\u202f234,5 maintenant', 'fr'],
    ['Pay 1,234.5 now', 'Payez 1 234,5 maintenant', 'fr'],
    ['Version 1.234 is out', 'Version 1.234 ist da', 'de'],
    ['50% off', '50 % Rabatt', 'de'],
    ['on 12/31/2024', 'am 31.12.2024', 'de'],
    ['the 1st', 'der 1.', 'de'],
    ['-5 degrees', '−5 Grad', 'de'],
    ['{1}3 items', '3 Elemente{1}', 'de'],
    ['%1$s of %2$s', '%2$s von %1$s', 'de'],
    ['Step 2 of 10', 'Schritt 2 von 10', 'de'],
    ['0.5', '0,5', 'de'],
    ['007', '7', 'de'],
  ])('no warning: %j -> %j', (source, target, lang) => {
    expect(run(source, target, lang)).toEqual([]);
  });

  it('reports a changed number as missing (source positions) and extra (target positions)', () => {
    expect(run('Step 2 of 10', 'Schritt 3 von 10')).toEqual([
      { type: 'MissingNumbersV3', key: '2', ignorable: true, details: { number: '2', positions: [{ beginIndex: 5, endIndex: 6 }] } },
      { type: 'ExtraNumbersV3', key: '3', ignorable: false, details: { number: '3', positions: [{ beginIndex: 8, endIndex: 9 }] } },
    ]);
  });

  it.each([
    ['Pay 1,234.5', 'Zahlen Sie 1.234', ['-1234.5', '+1234']],
    ['1,5 kg', '15 kg', ['-1.5', '+15']],
    ['5 and 5', '5 und', ['-5']],
    ['-5', '5', ['--5', '+5']],
    ['two', '2', ['+2']],
    ['{1}', '{2}3', ['+3']],
  ])('%j -> %j', (source, target, expected) => {
    expect(run(source, target).map((w) => (w.type === 'MissingNumbersV3' ? '-' : '+') + w.key)).toEqual(expected);
  });

  it('groups repeated values in one warning', () => {
    const [w] = run('7 and 7', 'und');
    expect(w!.details).toEqual({
      number: '7',
      positions: [
        { beginIndex: 0, endIndex: 1 },
        { beginIndex: 6, endIndex: 7 },
      ],
    });
  });

  it('runs only the checks that are on', () => {
    const out: QaWarning[] = [];
    checkNumbers(new QaText('2', 'en'), new QaText('3', 'de'), out, null, true);
    expect(out.map((w) => w.type)).toEqual(['ExtraNumbersV3']);
  });

  it('stays linear with many numbers', () => {
    const source = Array.from({ length: 5000 }, (_, i) => String(i)).join(' ');
    const target = Array.from({ length: 5000 }, (_, i) => String(4999 - i)).join(' ');
    expect(run(source, target)).toEqual([]);
  });
});
