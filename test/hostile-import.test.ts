import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobTask } from '../src/modules/translation-workflow/jobs/job-import.task.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { signedInUser } from './factories.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import type { Headers } from './support/api.js';
import { waitFor } from './support/wait.js';
import { zipOf } from '../src/formats/ooxml-test-helpers.js';
import { makeProject } from './support/workflow-factories.js';

/**
 * Hostile job files through the HTTP API (issue 13, "hostile input"; docs/api-conventions.md,
 * "Limits"): each file is generated here, uploaded with createJob and imported by a real worker;
 * an abuse ends in `importStatus: ERROR` with a message naming the limit, never a hang or a crash.
 * On SQLite and PostgreSQL alike (NUL included).
 */

const NS = 'urn:oasis:names:tc:xliff:document:1.2';
const xliff = (units: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="${NS}"><file original="f" source-language="en" target-language="de" datatype="plaintext"><body>\n${units}\n</body></file></xliff>\n`;
const unit = (id: string, source: string) => `<trans-unit id="${id}"><source>${source}</source></trans-unit>`;
/** A DOCX whose document body is `body`, with `extra` entries. */
const docx = (body: string, extra: [string, string][] = []) =>
  zipOf([
    [
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ],
    [
      'word/document.xml',
      `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    ],
    ...extra,
  ]);

describe('hostile job files', () => {
  let t: TestApp;
  let organization: OrganizationRow;
  let admin: UserRow;
  let headers: Headers;
  let worker: Worker | null = null;

  beforeAll(async () => {
    // Small limits, so that the abuses stay small files; the 40,000-tag unit fits under them.
    t = await createTestApp({
      env: {
        OPENTMS_UPLOAD_LIMIT_BYTES: String(32 * 1024 * 1024),
        OPENTMS_IMPORT_MAX_DEPTH: '64',
        OPENTMS_IMPORT_MAX_TAGS_PER_SEGMENT: '45000',
        OPENTMS_IMPORT_MAX_SEGMENT_CHARS: '20000',
      },
    });
    ({ organization, user: admin, headers } = await signedInUser(t, 'ADMIN'));
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
  });

  function upload(project: ProjectRow, filename: string, content: string | Buffer) {
    return t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs`,
      headers: {
        ...headers,
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`,
        memsource: JSON.stringify({ targetLangs: ['de'] }),
      },
      payload: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    });
  }

  async function imported(filename: string, content: string | Buffer) {
    const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de'], workflowStepUids: [] });
    const response = await upload(project, filename, content);
    expect(response.statusCode).toBe(201);
    worker ??= startWorker(t.deps, createTaskRegistry([importJobTask]), { listenConnectionString: null, pollMilliseconds: 20 });
    const jobUid = response.json().jobs[0].uid as string;
    const job = await waitFor(
      `import of ${filename}`,
      async () => {
        const body = (await t.inject({ method: 'GET', url: `/api2/v1/projects/${project.uid}/jobs/${jobUid}`, headers })).json();
        return body.importStatus.status === 'RUNNING' ? null : body;
      },
      60_000,
    );
    return { project, job };
  }

  it.each([
    [
      'XLIFF nested deeper than the limit (100,000 <g>)',
      'deep.xlf',
      (): string => xliff(unit('1', '<g id="1">'.repeat(100_000) + 'x' + '</g>'.repeat(100_000))),
      /nested deeper than 64 levels/,
    ],
    [
      'JSON nested deeper than the limit',
      'deep.json',
      (): string => '{"a":'.repeat(10_000) + '"x"' + '}'.repeat(10_000),
      /nested deeper than 64 levels/,
    ],
    [
      'a unit with 200,000 inline tags',
      'tags.xlf',
      (): string => xliff(unit('1', 'word ' + Array.from({ length: 200_000 }, (_, i) => `<x id="${i}"/>`).join(''))),
      // Refused while the file is read: more than twice the limit in a row (docs/file-formats.md, "Hostile files").
      /90001 inline tags in a row, more than twice the import's limit of 45000 tags per segment/,
    ],
    [
      'one segment of 1,000,000 characters',
      'long.txt',
      (): string => 'word '.repeat(200_000),
      /segment of 999999 characters; the import's limit is 20000/,
    ],
    ['a NUL in a plain-text file', 'nul.txt', (): string => 'Hello\u0000world.\n', /NUL character \(U\+0000\)/],
    ['a NUL in a JSON string', 'nul.json', (): string => '{"greeting": "Hello\\u0000world"}', /NUL character \(U\+0000\)/],
    ['a NUL in an XLIFF file', 'nul.xlf', (): string => xliff(unit('1', 'Hello\u0000world')), /malformed XML/],
    // Issue 18: the new formats under the same limits.
    [
      'a DOCX whose document expands 1,000 times (a ZIP bomb)',
      'bomb.docx',
      () => docx('<w:p><w:r><w:t>x</w:t></w:r></w:p>' + ' '.repeat(8 * 1024 * 1024)),
      /expands|ratio|compress/i,
    ],
    [
      'an Android strings file declaring an external entity',
      'strings.xml',
      (): string =>
        '<?xml version="1.0"?>\n<!DOCTYPE resources [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<resources><string name="a">&x;</string></resources>',
      /DOCTYPE|entit/i,
    ],
    [
      'HTML nested deeper than the limit',
      'deep.html',
      (): string => `<!DOCTYPE html><p>${'<span>'.repeat(100_000)}x</p>`,
      /deeper than 64/,
    ],
    ['one Markdown paragraph of 1,000,000 characters', 'long.md', (): string => 'word '.repeat(200_000), /limit is 20000/],
    ['a PO entry of 1,000,000 characters', 'long.po', (): string => `msgid "${'word '.repeat(200_000)}"\nmsgstr ""\n`, /limit is 20000/],
  ] as const)('ends the import of %s in ERROR with a readable message', async (_name, filename, make, message) => {
    const { project, job } = await imported(filename, await make());
    expect(job.importStatus.status).toBe('ERROR');
    expect(job.importStatus.errorMessage, job.importStatus.errorMessage).toMatch(message);
    const segments = await t.inject({
      method: 'GET',
      url: `/api2/v1/projects/${project.uid}/jobs/${job.uid}/segments?beginIndex=0&endIndex=9`,
      headers,
    });
    expect(segments.json().segments).toEqual([]);
  });

  it('imports a unit of one word and 40,000 inline tags as one segment of 1 word', async () => {
    const tags = Array.from({ length: 40_000 }, (_, i) => `<x id="${i + 1}"/>`).join('');
    const { project, job } = await imported('tagged.xlf', xliff(unit('1', `Hello${tags}`)));
    expect(job.importStatus).toEqual({ status: 'OK', errorMessage: null });
    const segments = (
      await t.inject({ method: 'GET', url: `/api2/v1/projects/${project.uid}/jobs/${job.uid}/segments?beginIndex=0&endIndex=9`, headers })
    ).json().segments as Array<{ source: string; tags: unknown[] }>;
    expect(segments).toHaveLength(1);
    expect(segments[0]!.source.startsWith('Hello{1}{2}')).toBe(true);
    expect(segments[0]!.source.endsWith('{40000}')).toBe(true);
    expect(job.wordsCount).toBe(1);
  });
});
