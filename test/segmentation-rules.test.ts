import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { DEFAULT_RULE_SET } from '../src/domain/segmentation/rules.js';
import { parseSrx, ruleSetForLanguage } from '../src/domain/segmentation/srx.js';
import { importJobTask } from '../src/modules/translation-workflow/jobs/job-import.task.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { apiToken, loginAs, signedInUser } from './factories.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { omegatSchema } from './support/omegat-schema.js';
import { waitFor } from './support/wait.js';
import { makeProject } from './support/workflow-factories.js';

/**
 * Segmentation Rules operations (docs/segmentation-rules.md): SRX upload and its checks, the
 * records, exports, access, and the rules in use: import settings of projects, templates and jobs
 * name a rule, and the job import segments with it (or with the primary rule of the language).
 */

type Headers = Record<string, string>;

/** An SRX 2.0 file whose one rule breaks after ';' (and after '.' before a capital), for every language. */
const SEMICOLONS = `<?xml version="1.0" encoding="UTF-8"?>
<srx xmlns="http://www.lisa.org/srx20" version="2.0">
  <header segmentsubflows="yes" cascade="no"/>
  <body>
    <languagerules>
      <languagerule languagerulename="Semicolons">
        <rule break="yes"><beforebreak>;</beforebreak><afterbreak>\\s</afterbreak></rule>
        <rule break="yes"><beforebreak>[.?!]</beforebreak><afterbreak>\\s\\p{Lu}</afterbreak></rule>
      </languagerule>
    </languagerules>
    <maprules><languagemap languagepattern=".*" languagerulename="Semicolons"/></maprules>
  </body>
</srx>
`;

const TEXT = 'One; two; three. Four and five.\n';

const schema = omegatSchema('schemas/srx20.xsd', 'the SRX 2.0 schema');

describe('segmentation rules', () => {
  let t: TestApp;
  let organization: OrganizationRow;
  let admin: UserRow;
  let headers: Headers;
  let worker: Worker | null = null;

  beforeAll(async () => {
    t = await createTestApp();
    ({ organization, user: admin, headers } = await signedInUser(t, 'ADMIN'));
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
    schema.dispose();
  });

  function upload(srx: string | Buffer, segRule: unknown, as: Headers = headers, extra: Headers = {}) {
    return t.inject({
      method: 'POST',
      url: '/api2/v1/segmentationRules',
      headers: {
        ...as,
        'content-type': 'application/octet-stream',
        segrule: typeof segRule === 'string' ? segRule : JSON.stringify(segRule),
        ...extra,
      },
      payload: typeof srx === 'string' ? Buffer.from(srx, 'utf8') : srx,
    });
  }

  async function created(srx: string, segRule: Record<string, unknown>, as: Headers = headers) {
    const response = await upload(srx, segRule, as);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string; uid: string; name: string; locale: string; primary: boolean; filename: string }>();
  }

  const get = (path: string, as: Headers = headers) => t.inject({ url: `/api2/v1/segmentationRules${path}`, headers: as });

  describe('the records', () => {
    it('a new organization has none', async () => {
      const { organization: fresh, headers: freshHeaders } = await signedInUser(t, 'ADMIN');
      expect(fresh.id).not.toBe(organization.id);
      expect((await get('', freshHeaders)).json()).toEqual({
        totalElements: 0,
        totalPages: 0,
        pageSize: 50,
        pageNumber: 0,
        numberOfElements: 0,
        content: [],
      });
    });

    it('creates a rule from an octet-stream body and the segRule header in the published example form', async () => {
      const response = await upload(SEMICOLONS, "{name:'  Semicolons  ', locale:'EN', primary:'false', filename:'semicolons.srx'}");
      expect(response.statusCode, response.body).toBe(201);
      const rule = response.json();
      expect(rule).toMatchObject({
        name: 'Semicolons',
        locale: 'en',
        primary: false,
        filename: 'semicolons.srx',
        createdBy: { uid: admin.uid, userName: admin.userName },
      });
      expect(rule.id).toMatch(/^\d+$/);
      expect(typeof rule.dateCreated).toBe('string');

      // By numeric id (the published form) and by uid.
      expect((await get(`/${rule.id}`)).json()).toEqual(rule);
      expect((await get(`/${rule.uid}`)).json()).toEqual(rule);
      // The file exactly as uploaded.
      const exported = await get(`/${rule.uid}/export`);
      expect(exported.statusCode).toBe(200);
      expect(exported.body).toBe(SEMICOLONS);
      expect(exported.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''semicolons.srx; filename="semicolons.srx"`);
    });

    it('takes multipart too, the file name from the part, and a UTF-8 byte order mark', async () => {
      const boundary = 'srxboundary';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="from-part.srx"\r\nContent-Type: application/xml\r\n\r\n\uFEFF`,
        ),
        Buffer.from(SEMICOLONS),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const response = await t.inject({
        method: 'POST',
        url: '/api2/v1/segmentationRules',
        headers: {
          ...headers,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          segrule: JSON.stringify({ name: 'Multipart', locale: 'de' }),
        },
        payload: body,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({ name: 'Multipart', locale: 'de', filename: 'from-part.srx', primary: false });
      expect((await get(`/${response.json().uid}/export`)).body).toBe(SEMICOLONS);
    });

    it('refuses a file that is not usable SRX, naming the problem, and stores nothing', async () => {
      const before = (await get('')).json().totalElements;
      const notXml = await upload('not xml at all', { name: 'Bad', locale: 'en' });
      expect(notXml.statusCode).toBe(400);
      expect(notXml.json().errorCode).toBe('SrxFileInvalid');

      const noMap = await upload(SEMICOLONS.replace(/<maprules>.*<\/maprules>/, '<maprules/>'), { name: 'Bad', locale: 'en' });
      expect(noMap.json()).toMatchObject({ errorCode: 'SrxFileInvalid', errorDetails: [{ field: 'file' }] });
      expect(noMap.json().errorDescription).toContain('no <languagemap>');

      const bomb = await upload(`<!DOCTYPE srx [<!ENTITY a "aaaa">]>${SEMICOLONS.replace(/^<\?xml[^>]*>\n/, '')}`, {
        name: 'Bad',
        locale: 'en',
      });
      expect(bomb.json().errorCode).toBe('SrxFileInvalid');

      const block = await upload(SEMICOLONS.replace('<beforebreak>;</beforebreak>', '<beforebreak>\\p{InGreek}</beforebreak>'), {
        name: 'Bad',
        locale: 'en',
      });
      expect(block.statusCode).toBe(400);
      expect(block.json()).toMatchObject({
        errorCode: 'SegmentationRuleInvalid',
        errorDetails: [{ field: 'file', message: 'languagerule "Semicolons", rule 1, beforebreak' }],
      });
      expect(block.json().errorDescription).toMatch(
        /^Rule 1 of the language rule "Semicolons" cannot be used: <beforebreak>\\p\{InGreek\}<\/beforebreak>: /,
      );

      const unclosed = await upload(SEMICOLONS.replace('<afterbreak>\\s\\p{Lu}</afterbreak>', '<afterbreak>(\\s</afterbreak>'), {
        name: 'Bad',
        locale: 'en',
      });
      expect(unclosed.json()).toMatchObject({
        errorCode: 'SegmentationRuleInvalid',
        errorDetails: [{ message: 'languagerule "Semicolons", rule 2, afterbreak' }],
      });

      expect((await get('')).json().totalElements).toBe(before);
    });

    it('checks the metadata: required fields, a supported locale, an empty file', async () => {
      expect((await upload(SEMICOLONS, { locale: 'en' })).json()).toMatchObject({
        errorCode: 'InvalidArguments',
        errorDetails: [{ field: 'segRule.name' }],
      });
      expect((await upload(SEMICOLONS, { name: 'X', locale: 'xx_zz' })).json().errorCode).toBe('UnsupportedLanguage');
      expect((await upload(SEMICOLONS, '{not json')).json().errorCode).toBe('InvalidJson');
      const noHeader = await t.inject({
        method: 'POST',
        url: '/api2/v1/segmentationRules',
        headers: { ...headers, 'content-type': 'application/octet-stream' },
        payload: Buffer.from(SEMICOLONS),
      });
      expect(noHeader.json()).toMatchObject({ errorCode: 'InvalidArguments', errorDetails: [{ field: 'segRule' }] });
      expect((await upload(Buffer.alloc(0), { name: 'X', locale: 'en' })).statusCode).toBe(400);
    });

    it('lists by locale with locales, languages or language, not language with languages', async () => {
      await created(SEMICOLONS, { name: 'French one', locale: 'fr' });
      const names = async (query: string) =>
        (await get(`?${query}`)).json().content.map((r: { name: string; locale: string }) => `${r.locale}:${r.name}`);
      expect(await names('locales=fr')).toEqual(['fr:French one']);
      expect(await names('languages=FR&languages=de')).toEqual(['de:Multipart', 'fr:French one']);
      expect(await names('language=de')).toEqual(['de:Multipart']);
      expect(await names('pageSize=1&pageNumber=0')).toHaveLength(1);
      const both = await get('?language=de&languages=fr');
      expect(both.statusCode).toBe(400);
      expect(both.json().errorCode).toBe('InvalidArguments');
      expect((await get('?language=xx_zz')).json().errorCode).toBe('UnsupportedLanguage');
    });

    it('keeps one primary rule per locale; edit replaces name and primary', async () => {
      const a = await created(SEMICOLONS, { name: 'Czech A', locale: 'cs', primary: true });
      const b = await created(SEMICOLONS, { name: 'Czech B', locale: 'cs', primary: 'true' });
      expect(a.primary).toBe(true);
      expect(b.primary).toBe(true);
      expect((await get(`/${a.id}`)).json().primary).toBe(false);

      const edit = (key: string, body: unknown) =>
        t.inject({ method: 'PUT', url: `/api2/v1/segmentationRules/${key}`, headers, payload: body as object });
      const edited = await edit(a.id, { name: ' Czech A2 ', primary: true });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ name: 'Czech A2', primary: true, locale: 'cs' });
      expect((await get(`/${b.uid}`)).json().primary).toBe(false);
      // primary left out: false (EditSegmentationRuleDto "Default: false").
      expect((await edit(a.uid, { name: 'Czech A3' })).json()).toMatchObject({ name: 'Czech A3', primary: false });
      expect((await edit(a.uid, { name: '   ' })).statusCode).toBe(400);
      expect((await edit('999999999', { name: 'X' })).statusCode).toBe(404);
    });

    it('lists the owners: the users who created rules', async () => {
      const response = await get('/owners');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ totalElements: 1, content: [{ uid: admin.uid, userName: admin.userName }] });
    });

    it('deletes; another organization sees nothing', async () => {
      const rule = await created(SEMICOLONS, { name: 'Doomed', locale: 'en' });
      const other = await signedInUser(t, 'ADMIN');
      expect((await get(`/${rule.uid}`, other.headers)).statusCode).toBe(404);
      expect((await get(`/${rule.id}`, other.headers)).statusCode).toBe(404);
      expect((await get(`/${rule.uid}/export`, other.headers)).statusCode).toBe(404);
      expect((await t.inject({ method: 'DELETE', url: `/api2/v1/segmentationRules/${rule.uid}`, headers: other.headers })).statusCode).toBe(
        404,
      );
      expect((await t.inject({ method: 'DELETE', url: `/api2/v1/segmentationRules/${rule.id}`, headers })).statusCode).toBe(204);
      expect((await get(`/${rule.uid}`)).statusCode).toBe(404);
    });

    it('project managers read and upload; editing and deleting need the setupServer right', async () => {
      const pm = async (setupServer: boolean) => {
        const userName = `pm-${newUid().slice(0, 10)}`;
        const response = await t.inject({
          method: 'POST',
          url: '/api2/v3/users',
          headers,
          payload: {
            userName,
            firstName: 'P',
            lastName: 'M',
            email: `${userName}@example.test`,
            password: 'a good password',
            role: 'PROJECT_MANAGER',
            timezone: 'UTC',
            setupServer,
          },
        });
        expect(response.statusCode, response.body).toBe(201);
        const row = await t.database.db.selectFrom('users').selectAll().where('uid', '=', response.json().uid).executeTakeFirstOrThrow();
        return apiToken(await loginAs(t, row, 'a good password'));
      };
      const without = await pm(false);
      const withRight = await pm(true);
      const rule = await created(SEMICOLONS, { name: 'By PM', locale: 'en' }, without);
      expect((await get('', without)).statusCode).toBe(200);
      expect((await get(`/${rule.uid}/export`, without)).statusCode).toBe(200);
      expect((await get('/en/exportDefault', without)).statusCode).toBe(200);
      expect(
        (await t.inject({ method: 'PUT', url: `/api2/v1/segmentationRules/${rule.uid}`, headers: without, payload: { name: 'X' } }))
          .statusCode,
      ).toBe(403);
      expect((await t.inject({ method: 'DELETE', url: `/api2/v1/segmentationRules/${rule.uid}`, headers: without })).statusCode).toBe(403);
      expect(
        (await t.inject({ method: 'PUT', url: `/api2/v1/segmentationRules/${rule.uid}`, headers: withRight, payload: { name: 'X' } }))
          .statusCode,
      ).toBe(200);
      expect((await t.inject({ method: 'DELETE', url: `/api2/v1/segmentationRules/${rule.uid}`, headers: withRight })).statusCode).toBe(
        204,
      );
      const linguist = await signedInUser(t, 'LINGUIST', organization);
      expect((await get('', linguist.headers)).statusCode).toBe(403);
    });
  });

  describe('exporting the built-in rules', () => {
    it('writes the rules of the locale as SRX 2.0 that reads back to them', async () => {
      const response = await get('/de_AT/exportDefault');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/xml/);
      expect(response.headers['content-disposition']).toContain("filename*=UTF-8''default_segmentation_rules_de_at.srx");
      expect(parseSrx(response.body)).toEqual(ruleSetForLanguage(DEFAULT_RULE_SET, 'de_at'));
      expect(parseSrx(response.body).languageRules.map((r) => r.name)).toEqual(['German', 'Default']);
      expect((await get('/xx_zz/exportDefault')).json().errorCode).toBe('UnsupportedLanguage');
      // Uploaded back, it is a rule like any other.
      await created(response.body, { name: 'German defaults', locale: 'de' });
    });

    it.skipIf(schema.missing !== null)(
      `validates against OmegaT's srx20.xsd${schema.missing ? ` — skipped: ${schema.missing} is missing` : ''}`,
      async () => {
        for (const locale of ['en', 'de', 'th', 'ja']) schema.validate((await get(`/${locale}/exportDefault`)).body, `${locale}.srx`);
      },
    );
  });

  describe('the rules in use', () => {
    let rule: { id: string; uid: string };

    beforeAll(async () => {
      rule = await created(SEMICOLONS, { name: 'In use', locale: 'en', filename: 'in-use.srx' });
    });

    function startImports(): void {
      worker ??= startWorker(t.deps, createTaskRegistry([importJobTask]), { listenConnectionString: null, pollMilliseconds: 20 });
    }

    async function importedSegments(project: ProjectRow, as: Headers = headers): Promise<string[]> {
      const response = await t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${project.uid}/jobs`,
        headers: {
          ...as,
          'content-type': 'application/octet-stream',
          'content-disposition': `attachment; filename*=UTF-8''text.txt`,
          memsource: JSON.stringify({ targetLangs: ['de'] }),
        },
        payload: Buffer.from(TEXT, 'utf8'),
      });
      expect(response.statusCode, response.body).toBe(201);
      const jobUid = response.json().jobs[0].uid as string;
      startImports();
      const job = await waitFor(`import of job ${jobUid}`, async () => {
        const current = (await t.inject({ url: `/api2/v1/projects/${project.uid}/jobs/${jobUid}`, headers: as })).json();
        return current.importStatus.status === 'RUNNING' ? null : current;
      });
      expect(job.importStatus.status).toBe('OK');
      const segments = await t.inject({
        url: `/api2/v1/projects/${project.uid}/jobs/${jobUid}/segments?beginIndex=0&endIndex=99`,
        headers: as,
      });
      return segments.json().segments.map((s: { source: string }) => s.source);
    }

    const projectSettings = (project: ProjectRow, body?: unknown) =>
      t.inject({
        method: body === undefined ? 'GET' : 'PUT',
        url: `/api2/v1/projects/${project.uid}/importSettings`,
        headers,
        ...(body === undefined ? {} : { payload: body as object }),
      });

    it('a project without a rule segments with the built-in rules', async () => {
      const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de'] });
      expect(await importedSegments(project)).toEqual(['One; two; three.', 'Four and five.']);
    });

    it("a project's import settings name a rule: they show it, and its jobs are segmented with it", async () => {
      const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de'] });
      const unknown = await projectSettings(project, { segmentationRuleId: 987654321 });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({ errorCode: 'ReferenceNotFound', errorDetails: [{ field: 'segmentationRuleId' }] });
      const other = await created(SEMICOLONS, { name: 'Elsewhere', locale: 'en' }, (await signedInUser(t, 'ADMIN')).headers);
      expect((await projectSettings(project, { targetSegmentationRuleId: Number(other.id) })).json().errorDetails).toEqual([
        { field: 'targetSegmentationRuleId', message: `unknown id "${other.id}"` },
      ]);

      const saved = await projectSettings(project, { segmentationRuleId: Number(rule.id), txt: { tagRegexp: '' } });
      expect(saved.statusCode, saved.body).toBe(200);
      const reference = { id: rule.id, uid: rule.uid, language: 'en', name: 'In use', filename: 'in-use.srx', primary: false };
      expect(saved.json()).toMatchObject({ segRule: reference });
      expect(saved.json().segmentationRuleId).toBeUndefined();
      expect((await projectSettings(project)).json()).toMatchObject({ segRule: reference });

      expect(await importedSegments(project)).toEqual(['One;', 'two;', 'three.', 'Four and five.']);
    });

    it('a template keeps the rule and the projects made from it use it', async () => {
      const source = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de'] });
      const template = await t.inject({
        method: 'POST',
        url: '/api2/v1/projectTemplates',
        headers,
        payload: { project: { uid: source.uid }, name: `T ${newUid().slice(0, 6)}` },
      });
      expect(template.statusCode, template.body).toBe(201);
      const url = `/api2/v1/projectTemplates/${template.json().uid}/importSettings`;
      expect((await t.inject({ method: 'PUT', url, headers, payload: { segmentationRuleId: 987654321 } })).json().errorCode).toBe(
        'ReferenceNotFound',
      );
      const saved = await t.inject({ method: 'PUT', url, headers, payload: { segmentationRuleId: Number(rule.id) } });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().segRule).toMatchObject({ uid: rule.uid });
      expect((await t.inject({ url, headers })).json().segRule).toMatchObject({ uid: rule.uid });

      const made = await t.inject({
        method: 'POST',
        url: `/api2/v2/projects/applyTemplate/${template.json().uid}`,
        headers,
        payload: { name: 'From template', targetLangs: ['de'] },
      });
      expect(made.statusCode, made.body).toBe(201);
      const project = await t.database.db.selectFrom('projects').selectAll().where('uid', '=', made.json().uid).executeTakeFirstOrThrow();
      expect((await projectSettings(project)).json().segRule).toMatchObject({ uid: rule.uid });
      expect(await importedSegments(project)).toEqual(['One;', 'two;', 'three.', 'Four and five.']);
    });

    it("a job's import settings keep the rule its file was imported with, and take another one", async () => {
      const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de'] });
      await projectSettings(project, { segmentationRuleId: Number(rule.id) });
      await importedSegments(project);
      const job = await t.database.db.selectFrom('jobs').select('uid').where('projectId', '=', project.id).executeTakeFirstOrThrow();
      const url = `/api2/v1/projects/${project.uid}/jobs/${job.uid}/importSettings`;
      expect((await t.inject({ url, headers })).json().segRule).toMatchObject({ uid: rule.uid });
      expect((await t.inject({ method: 'PUT', url, headers, payload: { segmentationRuleId: 987654321 } })).json().errorCode).toBe(
        'ReferenceNotFound',
      );
      const cleared = await t.inject({ method: 'PUT', url, headers, payload: {} });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json().segRule).toBeUndefined();
    });

    it("the language's primary rule applies when the import settings name none; a deleted rule falls back", async () => {
      const { organization: own, user, headers: ownHeaders } = await signedInUser(t, 'ADMIN');
      const project = await makeProject(t, own.id, { createdById: user.id, targetLangs: ['de'], sourceLang: 'en_us' });
      const primary = await created(SEMICOLONS, { name: 'English primary', locale: 'en', primary: true }, ownHeaders);
      expect(await importedSegments(project, ownHeaders)).toEqual(['One;', 'two;', 'three.', 'Four and five.']);
      await t.inject({ method: 'DELETE', url: `/api2/v1/segmentationRules/${primary.uid}`, headers: ownHeaders });
      expect(await importedSegments(project, ownHeaders)).toEqual(['One; two; three.', 'Four and five.']);
    });
  });
});
