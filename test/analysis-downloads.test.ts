import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisTask } from '../src/modules/quoting/analyses/index.js';
import { csvHeader } from '../src/modules/quoting/analyses/analysis-downloads.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { loadContractChecker } from './contract/response-contract.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { waitFor } from './support/wait.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/**
 * downloadAnalyse (docs/analysis.md, "Downloads"): every format parses, and its totals are GET
 * v3's; who may download; a running analysis is 409. Also the older versions of the analysis
 * operations (docs/analysis.md, "Older versions"), checked against the published v1/v2 shapes.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

/** RFC 4180 rows of a CSV text (quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length) rows.push([...row, field]);
  return rows;
}

const contract = loadContractChecker();
function shapeViolations(method: string, path: string, body: unknown): string[] {
  if (!contract) return [];
  return contract.check({ method, url: path, statusCode: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) });
}

describe('analysis downloads and older versions', () => {
  let t: TestApp;
  let worker: Worker | null = null;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let headers: Headers;
  let project: ProjectRow;
  let linguistHeaders: Headers;
  let outsiderHeaders: Headers;
  let linguistId: string;
  let jobUids: string[];
  let analysisUid: string;
  let analysisId: string;

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t, '/api2/')(...args);
  async function ok(method: Method, url: string, payload?: unknown, status = 200, as: Headers = headers): Promise<any> {
    const response = await api(method, url, as, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }
  async function finished(id: string) {
    t.deps.taskWakeup.notify();
    await waitFor(`async request ${id}`, async () => {
      const r = await t.database.db.selectFrom('asyncRequests').select('finishedAt').where('id', '=', id).executeTakeFirstOrThrow();
      return r.finishedAt;
    });
  }
  const download = (uid: string, format: string, as: Headers = headers) =>
    t.inject({ method: 'GET', url: `/api2/v1/analyses/${uid}/download?format=${format}`, headers: as });

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    headers = home.headers;
    const linguist = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
    linguistId = linguist.id;
    linguistHeaders = apiToken(await loginAs(t, linguist));
    const outsider = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
    outsiderHeaders = apiToken(await loginAs(t, outsider));
    project = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de', 'fr'] });
    const tm = await ok('POST', 'v1/transMemories', { name: uniqueName('TM'), sourceLang: 'en', targetLangs: ['de', 'fr'] }, 201);
    await ok(
      'POST',
      `v1/transMemories/${tm.uid}/segments`,
      { targetLang: 'de', sourceSegment: 'Print the page.', targetSegment: 'Drucken.' },
      204,
    );
    await ok('PUT', `v3/projects/${project.uid}/transMemories`, {
      dataPerContext: [{ transMemories: [{ transMemory: { uid: tm.uid }, readMode: true, writeMode: false }] }],
    });
    // The linguist provides the first file's jobs; the file names need quoting and defusing in CSV.
    const first = await makeJobs(t, project, {
      filename: 'Menu, "draft".txt',
      segments: ['Print the page.', 'Open the file.', 'Open the file.', '12.5 %'],
      providerUserIds: [linguist.id],
    });
    const second = await makeJobs(t, project, { filename: '=cmd|calc.txt', segments: ['Print the pages now.', 'Close the window.'] });
    jobUids = [...first.jobs, ...second.jobs].map((j) => j.uid);
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
  });

  it('answers 409 while the analysis is computed, then the file', async () => {
    const scheme = await ok(
      'POST',
      'v1/netRateSchemes',
      { name: uniqueName('Scheme'), rates: { repetition: 10, tm100: 20, tm0: 100, nt100: 0 } },
      201,
    );
    const created = await ok('POST', 'v2/analyses', {
      jobs: jobUids.map((uid) => ({ uid })),
      includeNonTranslatables: true,
      netRateScheme: { id: scheme.id },
      name: 'Quote base: en/de, fr',
    });
    ({ uid: analysisUid, id: analysisId } = created.asyncRequests[0].analyse);
    const running = await download(analysisUid, 'CSV');
    expect(running.statusCode).toBe(409);
    expect(running.json()).toMatchObject({ errorCode: 'AnalysisNotReady' });
    expect(running.json().errorDescription).toContain('still being computed');

    worker = startWorker(t.deps, createTaskRegistry([analysisTask]), { listenConnectionString: null });
    await finished(created.asyncRequests[0].asyncRequest.id);
    const response = await download(analysisUid, 'CSV');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename*=UTF-8\'\'Quote%20base_%20en_de%2C%20fr.csv; filename="Quote base_ en_de, fr.csv"',
    );
  });

  it('CSV: a row per job and a total per language part, whose figures are GET v3’s', async () => {
    const v3 = await ok('GET', `v3/analyses/${analysisUid}`);
    const response = await download(analysisUid, 'CSV');
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = parseCsv(response.rawPayload.subarray(3).toString('utf8'));
    const [header, ...body] = rows;
    expect(header).toEqual(csvHeader(false));
    expect(header!.slice(0, 9)).toEqual([
      'Row',
      'Source language',
      'Target language',
      'File',
      'Job uid',
      'Total: Segments',
      'Total: Words',
      'Total: Characters',
      'Total: Percent',
    ]);
    for (const row of body) expect(row).toHaveLength(header!.length);
    const col = (name: string) => header!.indexOf(name);
    expect(v3.analyseLanguageParts).toHaveLength(2);
    for (const part of v3.analyseLanguageParts) {
      const ofPart = body.filter((r) => r[col('Target language')] === part.targetLang);
      const total = ofPart.find((r) => r[0] === 'TOTAL')!;
      const jobs = ofPart.filter((r) => r[0] === 'JOB');
      expect(jobs).toHaveLength(2);
      expect(Number(total[col('Total: Segments')])).toBe(part.data.all.segments);
      expect(Number(total[col('Total: Words')])).toBe(part.data.all.words);
      expect(Number(total[col('Total: Characters')])).toBe(part.data.all.characters);
      expect(Number(total[col('Repetitions: Words')])).toBe(part.data.repetitions.words);
      expect(Number(total[col('Repetitions: Percent')])).toBe(part.data.repetitions.percent);
      expect(Number(total[col('TM 100%: Segments')])).toBe(part.data.transMemoryMatches.match100.segments);
      expect(Number(total[col('TM 0-49%: Words')])).toBe(part.data.transMemoryMatches.match0.words);
      expect(Number(total[col('NT 100%: Words')])).toBe(part.data.nonTranslatablesMatches.match100.words);
      // The jobs add up to the total.
      expect(jobs.reduce((sum, r) => sum + Number(r[col('Total: Words')]), 0)).toBe(part.data.all.words);
      // File names come back as they are, a formula-like one defused with an apostrophe.
      expect(jobs.map((r) => r[col('File')]).sort()).toEqual(["'=cmd|calc.txt", 'Menu, "draft".txt']);
    }
    // The worked figures: en -> de has "Print the page." in the TM, a repetition and a non-translatable.
    const de = v3.analyseLanguageParts.find((p: any) => p.targetLang === 'de');
    expect(de.data.transMemoryMatches.match100.segments).toBe(1);
    expect(de.data.repetitions.segments).toBe(1);
    expect(de.data.nonTranslatablesMatches.match100.segments).toBe(1);
  });

  it('CSV_EXTENDED adds normalized pages and the weighted figures, whose total is GET v3’s discountedData', async () => {
    const v3 = await ok('GET', `v3/analyses/${analysisUid}`);
    const response = await download(analysisUid, 'CSV_EXTENDED');
    expect(response.headers['content-disposition']).toContain('extended.csv');
    const [header, ...body] = parseCsv(response.rawPayload.subarray(3).toString('utf8'));
    expect(header).toEqual(csvHeader(true));
    const col = (name: string) => header!.indexOf(name);
    for (const part of v3.analyseLanguageParts) {
      const total = body.find((r) => r[0] === 'TOTAL' && r[2] === part.targetLang)!;
      expect(Number(total[col('Total: Normalized pages')])).toBe(part.data.all.normalizedPages);
      expect(Number(total[col('Total: Weighted words')])).toBe(part.discountedData.all.words);
      expect(Number(total[col('Total: Weighted characters')])).toBe(part.discountedData.all.characters);
      expect(Number(total[col('Repetitions: Weighted words')])).toBe(part.discountedData.repetitions.words);
      expect(part.discountedData.all.words).toBeLessThan(part.data.all.words);
    }
  });

  it('JSON is the analysis as GET v3 shows it, each job with its figures', async () => {
    const v3 = await ok('GET', `v3/analyses/${analysisUid}`);
    const response = await download(analysisUid, 'JSON');
    expect(response.headers['content-disposition']).toContain('.json');
    const document = JSON.parse(response.body);
    const { analyseLanguageParts, settings, ...rest } = document;
    const { analyseLanguageParts: v3Parts, settings: v3Settings, ...v3Rest } = v3;
    expect(rest).toEqual(v3Rest);
    // The settings add the compared workflow level (null but for Compare analyses), which GET v3 does not show.
    expect(settings).toEqual({ ...v3Settings, compareWorkflowLevel: null });
    for (const [i, part] of analyseLanguageParts.entries()) {
      const { jobs, ...figures } = part;
      const { jobs: v3Jobs, ...v3Figures } = v3Parts[i];
      expect(figures).toEqual(v3Figures);
      expect(jobs.map((j: any) => ({ uid: j.uid, filename: j.filename, innerId: j.innerId }))).toEqual(v3Jobs);
      expect(jobs.reduce((sum: number, j: any) => sum + j.data.all.words, 0)).toBe(part.data.all.words);
      expect(jobs.reduce((sum: number, j: any) => sum + j.data.all.segments, 0)).toBe(part.data.all.segments);
      for (const job of jobs) {
        const v1Job = await ok('GET', `v1/analyses/${analysisUid}/jobs/${job.uid}`);
        expect(job.data.all).toEqual(v1Job.data.all);
        expect(job.discountedData.all).toEqual(v1Job.discountedData.all);
      }
    }
  });

  it('LOG is a plain-text report per language part and job with the same totals', async () => {
    const v3 = await ok('GET', `v3/analyses/${analysisUid}`);
    const response = await download(analysisUid, 'LOG');
    expect(response.headers['content-disposition']).toContain('.log');
    const text = response.body;
    expect(text).toContain('Analysis:          Quote base: en/de, fr');
    expect(text).toContain('Net rate scheme:   ');
    for (const part of v3.analyseLanguageParts) {
      expect(text).toContain(`Language part en -> ${part.targetLang}: 2 job(s)`);
    }
    const totals = text
      .split('\n')
      .filter((line) => /^ {2}Total {2}/.test(line))
      .map((line) => line.trim().split(/\s+/));
    // Per part: its total, then each job's.
    expect(totals).toHaveLength(6);
    const de = v3.analyseLanguageParts[0];
    expect(Number(totals[0]![1])).toBe(de.data.all.segments);
    expect(Number(totals[0]![2])).toBe(de.data.all.words);
    expect(Number(totals[0]![6])).toBe(de.discountedData.all.words);
    expect(text).toContain('Menu, "draft".txt');
  });

  it('refuses other formats, and lets only those who may see the analysis download it', async () => {
    for (const query of ['format=XLSX', 'format=csv', '']) {
      const response = await t.inject({ method: 'GET', url: `/api2/v1/analyses/${analysisUid}/download?${query}`, headers });
      expect(response.statusCode, query).toBe(400);
    }
    // The linguist provides jobs of the analysis; another linguist does not, until the analysis is theirs.
    expect((await download(analysisUid, 'CSV', linguistHeaders)).statusCode).toBe(200);
    const outsider = await download(analysisUid, 'CSV', outsiderHeaders);
    expect(outsider.statusCode).toBe(404);
    const outsiderUser = await t.database.db
      .selectFrom('users')
      .select(['id', 'uid'])
      .where('organizationId', '=', home.organization.id)
      .where('role', '=', 'LINGUIST')
      .where('id', '!=', linguistId)
      .executeTakeFirstOrThrow();
    await ok('PUT', `v2/analyses/${analysisUid}`, { provider: { type: 'USER', id: outsiderUser.uid } });
    expect((await download(analysisUid, 'JSON', outsiderHeaders)).statusCode).toBe(200);
    // Other roles: refused by role; another organization: not found.
    const guest = await makeUser(t.database.db, home.organization, { role: 'SUBMITTER' });
    expect((await download(analysisUid, 'CSV', apiToken(await loginAs(t, guest)))).statusCode).toBe(403);
    const other = await signedInUser(t, 'ADMIN');
    expect((await download(analysisUid, 'CSV', other.headers)).statusCode).toBe(404);
    expect((await download('nope', 'CSV')).statusCode).toBe(404);
    // A failed first computation is 409 too, saying so.
    await t.database.db.updateTable('analyses').set({ status: 'ERROR', errorMessage: 'boom' }).where('id', '=', analysisId).execute();
    await t.database.db.updateTable('analysisLanguageParts').set({ tallies: null }).where('analysisId', '=', analysisId).execute();
    const failed = await download(analysisUid, 'CSV');
    expect(failed.statusCode).toBe(409);
    expect(failed.json().errorDescription).toContain('could not be computed (boom)');
  });

  describe('older versions', () => {
    let uid: string;
    let id: string;

    it('POST v1 creates one analysis per target language, as byLanguages does', async () => {
      const created = await ok('POST', 'v1/analyses', { jobs: jobUids.map((u) => ({ uid: u })), name: 'Old client' });
      expect(created.analyses).toHaveLength(2);
      for (const item of created.analyses) await finished(item.asyncRequest.id);
      ({ uid, id } = created.analyses[0].analyse);
      expect(shapeViolations('POST', '/api2/v1/analyses/byLanguages', created)).toEqual([]);
    });

    it('GET v1 answers v1 language parts (DataDtoV1), GET v2 AnalyseV2Dto, both with GET v3’s figures', async () => {
      const v3 = await ok('GET', `v3/analyses/${uid}`);
      const v1 = await ok('GET', `v1/analyses/${uid}`);
      expect(v1).toMatchObject({ uid, id, name: 'Old client' });
      expect(v1.analyseLanguageParts[0].data.all).toEqual(v3.analyseLanguageParts[0].data.all);
      expect(Object.keys(v1.analyseLanguageParts[0].data.nonTranslatablesMatches)).toEqual(['match100', 'match99']);
      expect(
        shapeViolations(
          'GET',
          `/api2/v1/analyses/${uid}/analyseLanguageParts/${v1.analyseLanguageParts[0].id}`,
          v1.analyseLanguageParts[0],
        ),
      ).toEqual([]);
      const v2 = await ok('GET', `v2/analyses/${uid}`);
      expect(shapeViolations('PUT', `/api2/v2/analyses/${uid}`, v2)).toEqual([]);
      expect(v2.analyseLanguageParts[0].data).toEqual(v3.analyseLanguageParts[0].data);
      expect(v2).not.toHaveProperty('settings');
      await ok('GET', 'v2/analyses/unknown', undefined, 404);
      await ok('GET', 'v1/analyses/unknown', undefined, 404);
    });

    it('GET v2 by project lists pages of AnalyseV2Dto; PUT v1 bulk edits as v2 does, keeping the scheme', async () => {
      const page = await ok('GET', `v2/projects/${project.uid}/analyses?pageSize=2`);
      expect(page).toMatchObject({ pageSize: 2, pageNumber: 0, numberOfElements: 2 });
      expect(page.totalElements).toBeGreaterThanOrEqual(3);
      for (const item of page.content) expect(shapeViolations('PUT', `/api2/v2/analyses/${item.uid}`, item)).toEqual([]);
      expect(page.content[0].analyseLanguageParts[0].data.available).toBe(true);

      const edited = await ok('PUT', 'v1/analyses/bulk', { analyses: [{ id }], name: 'Renamed by v1' });
      expect(shapeViolations('PUT', '/api2/v2/analyses/bulk', edited)).toEqual([]);
      expect(edited.analyses[0]).toMatchObject({ id, name: 'Renamed by v1' });
    });

    it('is in the OpenAPI document, deprecated', async () => {
      const document = (await t.inject({ url: '/api2/openapi.json' })).json() as {
        paths: Record<string, Record<string, { deprecated?: boolean; operationId?: string }>>;
      };
      for (const [method, path, operationId] of [
        ['post', '/api2/v1/analyses', 'createAnalyse'],
        ['put', '/api2/v1/analyses/bulk', 'analyses-batchEdit'],
        ['get', '/api2/v1/analyses/{analyseUid}', 'getAnalyse'],
        ['get', '/api2/v2/analyses/{analyseUid}', 'getAnalyseV2'],
        ['get', '/api2/v2/projects/{projectUid}/analyses', 'listByProjectV2'],
      ] as const) {
        expect(document.paths[path]?.[method], `${method} ${path}`).toMatchObject({ operationId, deprecated: true });
      }
      expect(document.paths['/api2/v1/analyses/{analyseUid}/download']?.['get']).toMatchObject({ operationId: 'downloadAnalyse' });
      expect(document.paths['/api2/v1/analyses/{analyseUid}/download']?.['get']?.deprecated).toBeUndefined();
    });
  });
});
