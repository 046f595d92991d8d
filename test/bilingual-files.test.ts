import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMxliff } from '../src/formats/mxliff.js';
import { parseAll, streamOf, xliff2Schema } from '../src/formats/testing.js';
import { xliff2Filter } from '../src/formats/xliff2.js';
import { xliff12Filter } from '../src/formats/xliff12.js';
import { readTmx } from '../src/formats/tmx.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import { createTestApp, testDialect } from './harness.js';
import type { TestApp } from './harness.js';
import { signedInUser } from './factories.js';
import { apiCaller, uniqueName } from './support/api.js';
import { filePart, multipart } from './support/upload-bodies.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';
import type { MadeJobs } from './support/workflow-factories.js';

/**
 * Issue 18, point 4: bilingual files over HTTP. Download MXLIFF, edit it as a translator would,
 * upload it back (targets, confirmation, locks, TM write-back), refusals and mismatches; compare;
 * plain XLIFF and TMX exports.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

const SEGMENTS = ['Hello world.', 'Second line.', 'Third line & more.', 'Fourth line.'];

describe(`bilingual files (${testDialect})`, () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let linguist: Awaited<ReturnType<typeof signedInUser>>;
  let project: ProjectRow;
  let made: MadeJobs;
  let tmUid: string;
  let api: ReturnType<typeof apiCaller>;

  const deJob = () => made.jobs.find((j) => j.targetLang === 'de')!;
  const frJob = () => made.jobs.find((j) => j.targetLang === 'fr')!;

  async function download(jobUids: string[], format?: string, headers = home.headers) {
    return t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/bilingualFile${format ? `?format=${format}` : ''}`,
      headers,
      payload: { jobs: jobUids.map((uid) => ({ uid })) },
    });
  }

  async function upload(files: { name: string; content: string | Buffer }[], headers = home.headers, query = '') {
    const body = await multipart(files.map((f) => filePart(f.name, f.content, 'application/octet-stream')));
    return t.inject({
      method: 'POST',
      url: `/api2/v2/bilingualFiles${query}`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  }

  /** Sets trans-unit `index`'s target (and m:confirmed / m:locked) in an MXLIFF text. */
  function edit(xml: string, jobUid: string, index: number, change: { target?: string; confirmed?: string; locked?: string }): string {
    const start = xml.indexOf(`<trans-unit id="${jobUid}:${index}"`);
    const end = xml.indexOf('</trans-unit>', start);
    let unit = xml.slice(start, end);
    if (change.target !== undefined) unit = unit.replace(/<target>[^<]*<\/target>/, `<target>${change.target}</target>`);
    if (change.confirmed !== undefined) unit = unit.replace(/m:confirmed="[^"]*"/, `m:confirmed="${change.confirmed}"`);
    if (change.locked !== undefined) unit = unit.replace(/m:locked="[^"]*"/, `m:locked="${change.locked}"`);
    return xml.slice(0, start) + unit + xml.slice(end);
  }

  async function held(jobUid: string) {
    const job = await t.database.db.selectFrom('jobs').select('id').where('uid', '=', jobUid).executeTakeFirstOrThrow();
    const rows = await t.database.db
      .selectFrom('jobSegments')
      .select(['idx', 'target', 'confirmed', 'locked'])
      .where('jobId', '=', job.id)
      .orderBy('idx')
      .execute();
    return rows.map((r) => ({ idx: Number(r.idx), target: r.target, confirmed: Boolean(r.confirmed), locked: Boolean(r.locked) }));
  }

  beforeAll(async () => {
    t = await createTestApp();
    api = apiCaller(t);
    home = await signedInUser(t, 'ADMIN');
    linguist = await signedInUser(t, 'LINGUIST', home.organization);
    project = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de', 'fr'] });
    made = await makeJobs(t, project, {
      createdById: home.user.id,
      segments: SEGMENTS,
      providerUserIds: [linguist.user.id],
      filename: 'guide.txt',
    });
    const tm = await api('POST', 'transMemories', home.headers, { name: uniqueName('TM'), sourceLang: 'en', targetLangs: ['de', 'fr'] });
    expect(tm.statusCode).toBe(201);
    tmUid = tm.json().uid;
    const set = await t.inject({
      method: 'PUT',
      url: `/api2/v3/projects/${project.uid}/transMemories`,
      headers: home.headers,
      payload: { dataPerContext: [{ transMemories: [{ transMemory: { uid: tmUid }, readMode: true, writeMode: true }] }] },
    });
    expect(set.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('downloads jobs as MXLIFF: one <file> per job, one trans-unit per segment, named by the file', async () => {
    const response = await download([deJob().uid, frJob().uid]);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/mxliff/);
    expect(response.headers['content-disposition']).toContain(encodeURIComponent(`${project.name}.mxliff`));
    const jobs = await readMxliff(streamOf(response.body));
    expect(jobs.map((j) => [j.jobUid, j.targetLang, j.filename, j.segments.length])).toEqual([
      [deJob().uid, 'de', 'guide.txt', 4],
      [frJob().uid, 'fr', 'guide.txt', 4],
    ]);
    expect(jobs[0]!.segments[2]).toMatchObject({ index: 2, source: 'Third line & more.', target: '', confirmedLevel: 0, locked: false });
    const single = await download([deJob().uid]);
    expect(single.headers['content-disposition']).toContain(encodeURIComponent('guide.txt-de.mxliff'));
  });

  it('takes an edited MXLIFF back segment by segment, confirmed segments into the TM', async () => {
    let xml = (await download([deJob().uid], undefined, linguist.headers)).body;
    xml = edit(xml, deJob().uid, 0, { target: 'Hallo Welt.', confirmed: '1' });
    xml = edit(xml, deJob().uid, 1, { target: 'Zweite Zeile.' });
    const response = await upload([{ name: 'guide.mxliff', content: xml }], linguist.headers);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.project).toEqual({ name: project.name, uid: project.uid });
    expect(body.jobs.map((j: any) => j.uid)).toEqual([deJob().uid]);
    expect(body.segments).toEqual({ changed: 2, unchanged: 2, refused: 0, refusedSegments: [] });
    expect(await held(deJob().uid)).toEqual([
      { idx: 0, target: 'Hallo Welt.', confirmed: true, locked: false },
      { idx: 1, target: 'Zweite Zeile.', confirmed: false, locked: false },
    ]);
    const tm = await t.database.db.selectFrom('transMemories').select('id').where('uid', '=', tmUid).executeTakeFirstOrThrow();
    const units = await t.database.db.selectFrom('tmUnits').select(['source', 'target', 'targetLang']).where('tmId', '=', tm.id).execute();
    expect(units).toEqual([{ source: 'Hello world.', target: 'Hallo Welt.', targetLang: 'de' }]);
    // The same file again changes nothing.
    const again = await upload([{ name: 'guide.mxliff', content: xml }], linguist.headers);
    expect(again.json().segments).toMatchObject({ changed: 0, unchanged: 4, refused: 0 });
  });

  it('lets project managers lock, and refuses a translator’s change of a locked segment', async () => {
    let xml = (await download([deJob().uid])).body;
    xml = edit(xml, deJob().uid, 3, { locked: 'true' });
    const locked = await upload([{ name: 'lock.mxliff', content: xml }]);
    expect(locked.json().segments).toMatchObject({ changed: 1, refused: 0 });
    expect((await held(deJob().uid)).find((s) => s.idx === 3)).toMatchObject({ locked: true });

    let mine = (await download([deJob().uid], undefined, linguist.headers)).body;
    mine = edit(mine, deJob().uid, 3, { target: 'Vierte Zeile.' });
    mine = edit(mine, deJob().uid, 2, { locked: 'true' });
    const refused = await upload([{ name: 'mine.mxliff', content: mine }], linguist.headers);
    expect(refused.statusCode).toBe(200);
    expect(refused.json().segments).toEqual({
      changed: 0,
      unchanged: 2,
      refused: 2,
      refusedSegments: [
        { jobUid: deJob().uid, segment: `${deJob().uid}:2`, reason: 'LOCK_NOT_ALLOWED' },
        { jobUid: deJob().uid, segment: `${deJob().uid}:3`, reason: 'LOCKED' },
      ],
    });
    expect((await held(deJob().uid)).find((s) => s.idx === 3)).toMatchObject({ target: '', locked: true });
  });

  it('refuses a file from another job, a changed source or another language, changing nothing', async () => {
    const xml = edit((await download([deJob().uid])).body, deJob().uid, 0, { target: 'Geändert' });
    const before = await held(deJob().uid);
    const cases: [string, RegExp][] = [
      [xml.replace('Second line.', 'Second line!'), /the source of segment .*:1 is not the job's/],
      [
        xml.replaceAll(`${deJob().uid}:`, `${frJob().uid}:`).replaceAll(`"${deJob().uid}"`, `"${frJob().uid}"`),
        /target language de is not job/,
      ],
      [xml.replace(`id="${deJob().uid}:3"`, `id="${deJob().uid}:9"`), /segment .*:9 is not a segment of job/],
      [xml.replaceAll(deJob().uid, 'NoSuchJob'), /names job NoSuchJob, which is not a job you can see/],
    ];
    for (const [content, message] of cases) {
      const response = await upload([{ name: 'x.mxliff', content }]);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errorCode, response.body).toBe('BilingualFileMismatch');
      expect(response.json().errorDescription).toMatch(message);
    }
    const unreadable = await upload([{ name: 'x.mxliff', content: '<xliff version="1.2"><file/></xliff>' }]);
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.json().errorCode).toBe('BilingualFileUnreadable');
    expect(await held(deJob().uid)).toEqual(before);
  });

  it('keeps other organizations’ and other translators’ jobs out', async () => {
    const stranger = await signedInUser(t, 'ADMIN');
    const xml = (await download([deJob().uid])).body;
    const response = await upload([{ name: 'x.mxliff', content: xml }], stranger.headers);
    expect(response.statusCode).toBe(400);
    expect(response.json().errorDescription).toMatch(/not a job you can see/);
    expect((await download([deJob().uid], undefined, stranger.headers)).statusCode).toBe(404);
    const other = await signedInUser(t, 'LINGUIST', home.organization);
    expect((await download([deJob().uid], undefined, other.headers)).statusCode).toBe(404);
  });

  it('compares a file with its job: Diff where the file differs, Miss where the job lacks the segment', async () => {
    let xml = (await download([deJob().uid])).body;
    xml = edit(xml, deJob().uid, 1, { target: 'Andere Zeile.' });
    xml = xml.replace('Third line &amp; more.', 'Changed third line.');
    const response = await t.inject({
      method: 'POST',
      url: '/api2/v1/bilingualFiles/compare',
      headers: { ...home.headers, 'content-type': 'application/octet-stream' },
      payload: xml,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      segments: [
        { uid: `${deJob().uid}:1`, state: 'Diff' },
        { uid: `${deJob().uid}:2`, state: 'Miss' },
      ],
    });
  });

  it('exports plain XLIFF 1.2 and TMX', async () => {
    const xliff = await download([deJob().uid], 'XLIFF');
    expect(xliff.statusCode).toBe(200);
    expect(xliff.body).not.toContain('memsource');
    const units = await parseAll(xliff12Filter, xliff.body);
    expect(units.map((u) => [u.source, u.target])).toEqual([
      ['Hello world.', 'Hallo Welt.'],
      ['Second line.', 'Zweite Zeile.'],
      ['Third line & more.', ''],
      ['Fourth line.', ''],
    ]);
    expect(xliff.body).toMatch(/approved="yes"><source>|approved="yes">\n\s*<source>/);
    const tmx = await download([deJob().uid], 'TMX');
    expect(tmx.statusCode).toBe(200);
    const tus = [];
    for await (const batch of readTmx(streamOf(tmx.body))) tus.push(...batch);
    expect(tus.map((u) => [u.tuid, u.variants.map((v) => `${v.lang}:${v.text}`)])).toEqual([
      [`${deJob().uid}:0`, ['en:Hello world.', 'de:Hallo Welt.']],
      [`${deJob().uid}:1`, ['en:Second line.', 'de:Zweite Zeile.']],
    ]);
  });
});

describe(`bilingual DOCX and ZIP uploads (${testDialect})`, () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let project: ProjectRow;
  let made: MadeJobs;

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    project = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de', 'fr'] });
    made = await makeJobs(t, project, {
      createdById: home.user.id,
      segments: ['One.', 'Two\tcolumns.', 'Three & four.'],
      filename: 'f.txt',
    });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: string | Buffer, headers = home.headers) =>
    t.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/octet-stream' }, payload });

  async function mxliff(targetLang: string): Promise<string> {
    const job = made.jobs.find((j) => j.targetLang === targetLang)!;
    const response = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/bilingualFile`,
      headers: home.headers,
      payload: { jobs: [{ uid: job.uid }] },
    });
    return response.body
      .replace(/<target><\/target>/, `<target>Eins (${targetLang}).</target>`)
      .replace(/m:confirmed="0"/, 'm:confirmed="1"');
  }

  it('downloads a bilingual DOCX, converts MXLIFF to DOCX and back, and takes DOCX uploads', async () => {
    const de = made.jobs.find((j) => j.targetLang === 'de')!;
    const download = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/bilingualFile?format=DOCX`,
      headers: home.headers,
      payload: { jobs: [{ uid: de.uid }] },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('f.txt-de.docx');
    expect(download.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const docx = await post('/api2/v1/bilingualFiles/convert?from=MXLF&to=DOCX', await mxliff('de'));
    expect(docx.statusCode).toBe(200);
    const back = await post('/api2/v1/bilingualFiles/convert?from=DOCX&to=MXLF', docx.rawPayload);
    expect(back.statusCode).toBe(200);
    const [job] = await readMxliff(streamOf(back.rawPayload));
    expect(job!.segments.map((s) => [s.index, s.source, s.target, s.confirmedLevel])).toEqual([
      [0, 'One.', 'Eins (de).', 1],
      [1, 'Two\tcolumns.', '', 0],
      [2, 'Three & four.', '', 0],
    ]);
    const xliff2 = await post('/api2/v1/bilingualFiles/convert?from=MXLF&to=XLIFF2', await mxliff('de'));
    expect(xliff2.statusCode).toBe(200);
    const units = await parseAll(xliff2Filter, xliff2.body);
    expect(units.map((u) => [u.source, u.target, u.targetConfirmed])).toEqual([
      ['One.', 'Eins (de).', true],
      ['Two\tcolumns.', null, undefined],
      ['Three & four.', null, undefined],
    ]);
    const schema = xliff2Schema();
    if (schema.missing) console.warn(`not validated: ${schema.missing}`);
    else schema.validate(xliff2.body);
    schema.dispose();
    const body = await multipart([filePart('f.docx', docx.rawPayload, 'application/octet-stream')]);
    const uploaded = await t.inject({
      method: 'POST',
      url: '/api2/v2/bilingualFiles',
      headers: { ...home.headers, ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json().segments).toMatchObject({ changed: 1, unchanged: 2 });
  });

  it('expands ZIP archives of bilingual files, and refuses other entries', async () => {
    const yazl = (await import('yazl')).default;
    const zipOf = async (entries: [string, string][]) => {
      const zip = new yazl.ZipFile();
      for (const [name, content] of entries) zip.addBuffer(Buffer.from(content), name);
      zip.end();
      const parts: Buffer[] = [];
      for await (const chunk of zip.outputStream) parts.push(chunk as Buffer);
      return Buffer.concat(parts);
    };
    const archive = await zipOf([
      ['de.mxliff', (await mxliff('de')).replace('Eins (de).', 'Eins!')],
      ['fr.mxliff', await mxliff('fr')],
    ]);
    const body = await multipart([filePart('all.zip', archive, 'application/zip')]);
    const uploaded = await t.inject({
      method: 'POST',
      url: '/api2/v2/bilingualFiles',
      headers: { ...home.headers, ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json().jobs).toHaveLength(2);
    // de: segment 0 re-worded and segment 1 filled (the first empty target); fr: segment 0 filled.
    expect(uploaded.json().segments).toMatchObject({ changed: 3 });
    const bad = await zipOf([['notes.txt', 'hello']]);
    const badBody = await multipart([filePart('bad.zip', bad, 'application/zip')]);
    const refused = await t.inject({
      method: 'POST',
      url: '/api2/v2/bilingualFiles',
      headers: { ...home.headers, ...badBody.headers },
      payload: badBody.payload,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errorDescription).toMatch(/notes.txt in the ZIP archive is not a bilingual file/);
    const twoLanguages = await post('/api2/v1/bilingualFiles/convert?from=MXLF&to=XLIFF2', archive);
    expect(twoLanguages.statusCode).toBe(400);
    expect(twoLanguages.json().errorDescription).toMatch(/one language pair/);
    const many = await zipOf(Array.from({ length: 51 }, (_, i) => [`f${i}.mxliff`, '<x/>'] as [string, string]));
    const manyBody = await multipart([filePart('many.zip', many, 'application/zip')]);
    const tooMany = await t.inject({
      method: 'POST',
      url: '/api2/v2/bilingualFiles',
      headers: { ...home.headers, ...manyBody.headers },
      payload: manyBody.payload,
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errorCode).toBe('TooManyFiles');
  });
});
