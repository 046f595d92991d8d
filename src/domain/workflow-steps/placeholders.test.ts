import { describe, expect, it } from 'vitest';
import { placeholdersOf, renderPlaceholders } from './placeholders.js';

describe('email template placeholders', () => {
  const values = {
    'job.fileName': 'guide.docx',
    'job.targetLang': 'de',
    'project.name': 'Launch',
    'quote.totalPrice': 120,
    'recipient.firstName': null,
  };
  const cases: { name: string; text: string; rendered: string; used: string[] }[] = [
    { name: 'plain text', text: 'Hello', rendered: 'Hello', used: [] },
    { name: 'one placeholder', text: 'File {{job.fileName}}', rendered: 'File guide.docx', used: ['job.fileName'] },
    { name: 'spaces inside the braces', text: '{{ job.targetLang }}!', rendered: 'de!', used: ['job.targetLang'] },
    { name: 'a number', text: 'Total {{quote.totalPrice}}', rendered: 'Total 120', used: ['quote.totalPrice'] },
    { name: 'repeated placeholder', text: '{{project.name}}/{{project.name}}', rendered: 'Launch/Launch', used: ['project.name'] },
    { name: 'unknown placeholder stays', text: 'Due {{job.dateDue}}', rendered: 'Due {{job.dateDue}}', used: ['job.dateDue'] },
    { name: 'null value stays', text: 'Hi {{recipient.firstName}}', rendered: 'Hi {{recipient.firstName}}', used: ['recipient.firstName'] },
    { name: 'single braces are text', text: '{job.fileName}', rendered: '{job.fileName}', used: [] },
    { name: 'not a path', text: '{{ 1abc }} {{a..b}}', rendered: '{{ 1abc }} {{a..b}}', used: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(renderPlaceholders(c.text, values)).toBe(c.rendered);
      expect(placeholdersOf(c.text)).toEqual(c.used);
    });
  }
});
