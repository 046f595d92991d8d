import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import { lastQaRun, qaJobOf, runJobQa } from '../src/modules/translation-workflow/quality-assurance/index.js';
import { preTranslateTask } from '../src/modules/translation-workflow/pre-translation/index.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import { asyncResponseOf } from './support/async-requests.js';
import { createTestApp, testDialect } from './harness.js';
import type { TestApp } from './harness.js';
import { signedInUser } from './factories.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';
import type { MadeJobs } from './support/workflow-factories.js';

/**
 * Issue 19, points 2, 5 and 6: QA runs over HTTP (docs/qa-runs-and-warnings.md): checks firing and
 * not firing through real runs, warning ids, ignored warnings and checks, narrowing and capping,
 * runWithUpdate, and the delivery gate.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

const SEGMENTS = ['There are 5 apples.', 'Hello world.', 'Open the file.', 'Close the door.'];

describe(`quality assurance runs (${testDialect})`, () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let linguist: Awaited<ReturnType<typeof signedInUser>>;
  let project: ProjectRow;
  let made: MadeJobs;
  const job = () => made.jobs.find((j) => j.targetLang === 'de')!;
  let sourceUid: string;
  const sid = (idx: number) => `${sourceUid}:${idx}`;

  async function setTargets(targets: (string | null)[], confirmed = true) {
    const db = t.database.db;
    const row = await db.selectFrom('jobs').select('id').where('uid', '=', job().uid).executeTakeFirstOrThrow();
    await db.deleteFrom('jobSegments').where('jobId', '=', row.id).execute();
    const now = t.clock().toISOString();
    const values = targets.flatMap((target, idx) =>
      target === null ? [] : [{ jobId: row.id, idx, target, confirmed, modifiedAt: now, modifiedById: home.user.id }],
    );
    if (values.length) await db.insertInto('jobSegments').values(values).execute();
  }

  async function setChecks(checks: Record<string, unknown>[]) {
    const response = await t.inject({
      method: 'PUT',
      url: `/api2/v2/projects/${project.uid}/qaSettings`,
      headers: home.headers,
      payload: { checks },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  async function run(body: Record<string, unknown> = {}, headers = home.headers) {
    return t.inject({
      method: 'POST',
      url: `/api2/v3/projects/${project.uid}/jobs/${job().uid}/qualityAssurances/run`,
      headers,
      payload: body,
    });
  }

  const warningsOf = (response: any, idx: number): any[] =>
    response.json().segmentWarnings.find((s: any) => s.segmentId === sid(idx))?.warnings ?? [];
  const typesOf = (response: any, idx: number) => warningsOf(response, idx).map((w: any) => w.type);

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    linguist = await signedInUser(t, 'LINGUIST', home.organization);
    project = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de', 'fr'] });
    made = await makeJobs(t, project, { createdById: home.user.id, segments: SEGMENTS, providerUserIds: [linguist.user.id] });
    const row = await t.database.db
      .selectFrom('jobSources')
      .innerJoin('jobs', 'jobs.jobSourceId', 'jobSources.id')
      .select('jobSources.uid')
      .where('jobs.uid', '=', job().uid)
      .executeTakeFirstOrThrow();
    sourceUid = row.uid;
  });
  afterAll(() => t.close());

  it('fires the checks on bad targets and not on good ones', async () => {
    await setTargets(['Es gibt 6 Äpfel.', '', 'Öffnen  Sie die Datei.', 'Schließen Sie die Tür.']);
    const response = await run();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().finished).toBe(true);
    expect(typesOf(response, 0)).toContain('MissingNumbersV3');
    expect(typesOf(response, 1)).toContain('EmptyTranslation');
    expect(typesOf(response, 2)).toContain('MultipleSpacesV3');
    expect(typesOf(response, 3)).toEqual([]);
    for (const w of warningsOf(response, 0)) expect(w).toMatchObject({ ignored: false });
    const stored = await t.database.db.selectFrom('qaRuns').selectAll().executeTakeFirstOrThrow();
    expect(Number(stored.warningCount)).toBeGreaterThanOrEqual(3);
  });

  it('keeps warning ids while the target stays, and ignored warnings stay ignored until it changes', async () => {
    await setTargets(['Es gibt 6 Äpfel.', 'Hallo Welt.', 'Öffnen Sie die Datei.', 'Schließen Sie die Tür.']);
    const first = await run();
    const warning = warningsOf(first, 0).find((w: any) => w.type === 'MissingNumbersV3');
    expect(warning).toBeDefined();
    const again = await run();
    expect(warningsOf(again, 0).find((w: any) => w.type === 'MissingNumbersV3').id).toBe(warning.id);

    const body = { jobParts: [{ jobPartUid: job().uid, segments: [{ uid: sid(0), warnings: [{ id: warning.id }] }] }] };
    const add = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/${job().uid}/qualityAssurances/ignoredWarnings`,
      headers: linguist.headers,
      payload: body,
    });
    expect(add.statusCode, add.body).toBe(200);
    expect(add.json()).toEqual(body);
    const rerun = await run();
    expect(warningsOf(rerun, 0).find((w: any) => w.id === warning.id)).toMatchObject({ ignored: true });

    await setTargets(['Es gibt 7 Äpfel.', 'Hallo Welt.', 'Öffnen Sie die Datei.', 'Schließen Sie die Tür.']);
    const changed = await run();
    const now = warningsOf(changed, 0).find((w: any) => w.type === 'MissingNumbersV3');
    expect(now.id).not.toBe(warning.id);
    expect(now.ignored).toBe(false);

    const stale = await t.inject({
      method: 'POST',
      url: `/api2/v2/projects/${project.uid}/jobs/qualityAssurances/ignoredWarnings`,
      headers: home.headers,
      payload: body,
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().errorCode).toBe('QaWarningNotIgnorable');

    const removed = await t.inject({
      method: 'DELETE',
      url: `/api2/v2/projects/${project.uid}/jobs/qualityAssurances/ignoredWarnings`,
      headers: home.headers,
      payload: { jobParts: [{ jobPartUid: job().uid, segments: [{ uid: sid(0), warnings: [{ id: now.id }] }] }] },
    });
    expect(removed.statusCode).toBe(204);
    const empty = await t.inject({
      method: 'DELETE',
      url: `/api2/v2/projects/${project.uid}/jobs/qualityAssurances/ignoredWarnings`,
      headers: { ...home.headers, 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(400);
    const tooMany = await t.inject({
      method: 'POST',
      url: `/api2/v2/projects/${project.uid}/jobs/qualityAssurances/ignoredWarnings`,
      headers: home.headers,
      payload: {
        jobParts: [
          { jobPartUid: job().uid, segments: [{ uid: sid(0), warnings: Array.from({ length: 101 }, (_, i) => ({ id: `w${i}` })) }] },
        ],
      },
    });
    expect(tooMany.statusCode).toBe(400);
    const unknown = await t.inject({
      method: 'POST',
      url: `/api2/v2/projects/${project.uid}/jobs/qualityAssurances/ignoredWarnings`,
      headers: home.headers,
      payload: { jobParts: [{ jobPartUid: job().uid, segments: [{ uid: `${sourceUid}:99`, warnings: [{ id: 'x' }] }] }] },
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('refuses to ignore a warning whose check is not ignorable, naming it', async () => {
    await setChecks([{ name: 'emptyTarget', enabled: true, ignorable: false }]);
    await setTargets(['Es gibt 5 Äpfel.', '', 'Öffnen Sie die Datei.', 'Schließen Sie die Tür.']);
    const response = await run({ warningTypes: ['EmptyTranslation'] });
    const warning = warningsOf(response, 1)[0];
    expect(warning).toMatchObject({ type: 'EmptyTranslation', ignored: false });
    const refused = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/${job().uid}/qualityAssurances/ignoredWarnings`,
      headers: home.headers,
      payload: { jobParts: [{ jobPartUid: job().uid, segments: [{ uid: sid(1), warnings: [{ id: warning.id }] }] }] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      errorCode: 'QaWarningNotIgnorable',
      errorDetails: [{ warningId: warning.id, segment: sid(1) }],
    });
    await setChecks([{ name: 'emptyTarget', enabled: true, ignorable: true }]);
  });

  it('ignores checks per segment (ignoredChecks) until the target changes', async () => {
    await setTargets(['Es gibt 6 Äpfel.', 'Hallo Welt.', 'Öffnen Sie die Datei.', 'Schließen Sie die Tür.']);
    await run();
    const ignore = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/${job().uid}/qualityAssurances/ignoreChecks`,
      headers: linguist.headers,
      payload: { segment: { uid: sid(0) }, warningTypes: ['MissingNumbersV3'] },
    });
    expect(ignore.statusCode, ignore.body).toBe(204);
    const response = await run();
    const segment = response.json().segmentWarnings.find((s: any) => s.segmentId === sid(0));
    expect(segment.ignoredChecks).toEqual(['MissingNumbersV3']);
    expect(segment.warnings.find((w: any) => w.type === 'MissingNumbersV3').ignored).toBe(true);
  });

  it('narrows by warningTypes, caps at maxQaWarningsCount and starts at initialSegment', async () => {
    await setTargets(['Es gibt 6 Äpfel.', '', '', '']);
    const narrowed = await run({ warningTypes: ['EmptyTranslation'] });
    expect(narrowed.json().segmentWarnings.flatMap((s: any) => s.warnings.map((w: any) => w.type))).toEqual([
      'EmptyTranslation',
      'EmptyTranslation',
      'EmptyTranslation',
    ]);
    const capped = await run({ warningTypes: ['EmptyTranslation'], maxQaWarningsCount: 1 });
    expect(capped.json().segmentWarnings).toHaveLength(1);
    expect(capped.json().finished).toBe(false);
    const from = await run({ warningTypes: ['EmptyTranslation'], initialSegment: { uid: sid(3) } });
    expect(from.json().segmentWarnings.map((s: any) => s.segmentId)).toEqual([sid(3)]);
    expect((await run({ maxQaWarningsCount: 0 })).statusCode).toBe(400);
    const batch = await t.inject({
      method: 'POST',
      url: `/api2/v4/projects/${project.uid}/jobs/qualityAssurances/run`,
      headers: home.headers,
      payload: { jobs: [{ uid: job().uid }], settings: { warningTypes: ['EmptyTranslation'] } },
    });
    expect(batch.statusCode, batch.body).toBe(200);
    expect(batch.json().segmentWarnings).toHaveLength(3);
  });

  it('runs on given segments (fast checks) and refuses jobs of other languages', async () => {
    await setTargets(['Es gibt 6 Äpfel.', 'Hallo Welt.', 'Öffnen Sie die Datei.', 'Schließen Sie die Tür.']);
    const response = await t.inject({
      method: 'POST',
      url: `/api2/v3/projects/${project.uid}/jobs/qualityAssurances/segments/run`,
      headers: linguist.headers,
      payload: { jobsAndSegments: [{ job: { uid: job().uid }, segments: [sid(0), sid(1)] }] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().segmentWarnings.map((s: any) => s.segmentId)).toEqual([sid(0), sid(1)]);
    expect(typesOf(response, 0)).toContain('MissingNumbersV3');
    expect(typesOf(response, 1)).toEqual([]);
    const fr = made.jobs.find((j) => j.targetLang === 'fr')!;
    const mixed = await t.inject({
      method: 'POST',
      url: `/api2/v3/projects/${project.uid}/jobs/qualityAssurances/segments/run`,
      headers: home.headers,
      payload: {
        jobsAndSegments: [
          { job: { uid: job().uid }, segments: [sid(0)] },
          { job: { uid: fr.uid }, segments: [sid(0)] },
        ],
      },
    });
    expect(mixed.statusCode).toBe(400);
    // Texts the editor has not saved (OpenTMS extension `targets`) are checked in place of the stored ones, and nothing is saved.
    const unsaved = await t.inject({
      method: 'POST',
      url: `/api2/v3/projects/${project.uid}/jobs/qualityAssurances/segments/run`,
      headers: linguist.headers,
      payload: {
        jobsAndSegments: [
          { job: { uid: job().uid }, segments: [sid(0), sid(1)], targets: [{ segmentId: sid(1), target: 'Hallo  Welt.' }] },
        ],
      },
    });
    expect(unsaved.statusCode, unsaved.body).toBe(200);
    expect(typesOf(unsaved, 1)).toContain('MultipleSpacesV3');
    const jobRow = await t.database.db.selectFrom('jobs').select('id').where('uid', '=', job().uid).executeTakeFirstOrThrow();
    const stored = await t.database.db
      .selectFrom('jobSegments')
      .select('target')
      .where('jobId', '=', jobRow.id)
      .where('idx', '=', 1)
      .executeTakeFirstOrThrow();
    expect(stored.target).toBe('Hallo Welt.');
    const notListed = await t.inject({
      method: 'POST',
      url: `/api2/v3/projects/${project.uid}/jobs/qualityAssurances/segments/run`,
      headers: linguist.headers,
      payload: { jobsAndSegments: [{ job: { uid: job().uid }, segments: [sid(0)], targets: [{ segmentId: sid(1), target: 'x' }] }] },
    });
    expect(notListed.statusCode).toBe(400);
  });

  it('runWithUpdate saves the target and answers its warnings; a locked segment is refused', async () => {
    const response = await t.inject({
      method: 'POST',
      url: `/api2/v4/projects/${project.uid}/jobs/qualityAssurances/segments/${sid(1)}/runWithUpdate`,
      headers: linguist.headers,
      payload: { job: { uid: job().uid }, target: 'Hallo  Welt.', confirmed: true },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(typesOf(response, 1)).toContain('MultipleSpacesV3');
    const db = t.database.db;
    const row = await db.selectFrom('jobs').select('id').where('uid', '=', job().uid).executeTakeFirstOrThrow();
    const saved = await db.selectFrom('jobSegments').selectAll().where('jobId', '=', row.id).where('idx', '=', 1).executeTakeFirstOrThrow();
    expect(saved.target).toBe('Hallo  Welt.');
    await db.updateTable('jobSegments').set({ locked: true }).where('jobId', '=', row.id).where('idx', '=', 1).execute();
    const locked = await t.inject({
      method: 'POST',
      url: `/api2/v4/projects/${project.uid}/jobs/qualityAssurances/segments/${sid(1)}/runWithUpdate`,
      headers: linguist.headers,
      payload: { job: { uid: job().uid }, target: 'Hallo Welt.' },
    });
    expect(locked.statusCode).toBe(400);
    expect(locked.json().errorCode).toBe('SegmentLocked');
    await db.updateTable('jobSegments').set({ locked: false }).where('jobId', '=', row.id).where('idx', '=', 1).execute();
  });

  it('spells with a Debian dictionary (de)', async () => {
    if (!existsSync('/usr/share/hunspell/de_DE.dic')) {
      console.warn('skipped: /usr/share/hunspell lacks de_DE (apt-get install hunspell-de-de)');
      return;
    }
    await setTargets(['Es gibt 5 Äpfel.', 'Hallo Wlet.', 'Öffnen Sie die Datei.', 'Schließen Sie die Tür.']);
    const response = await run({ warningTypes: ['SpellCheck'] });
    expect(response.statusCode, response.body).toBe(200);
    expect(typesOf(response, 1)).toEqual(['SpellCheck']);
    expect(typesOf(response, 2)).toEqual([]);
    // A word of the organization's dictionary is never flagged.
    const added = await t.inject({
      method: 'POST',
      url: '/api2/v1/spellCheck/words',
      headers: home.headers,
      payload: { lang: 'de', word: 'Wlet' },
    });
    expect(added.statusCode, added.body).toBeLessThan(300);
    const again = await run({ warningTypes: ['SpellCheck'] });
    expect(typesOf(again, 1)).toEqual([]);
  });

  it('says spelling was not checked for a language without a dictionary, never that it passed', async () => {
    const ja = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['ja'] });
    const jaJobs = await makeJobs(t, ja, { createdById: home.user.id, segments: ['Hello world.'] });
    const jaJob = jaJobs.jobs[0]!;
    const db = t.database.db;
    const row = await db.selectFrom('jobs').select('id').where('uid', '=', jaJob.uid).executeTakeFirstOrThrow();
    await db
      .insertInto('jobSegments')
      .values({
        jobId: row.id,
        idx: 0,
        target: 'こんにちは世界。',
        confirmed: true,
        modifiedAt: t.clock().toISOString(),
        modifiedById: home.user.id,
      })
      .execute();
    const response = await t.inject({
      method: 'POST',
      url: `/api2/v3/projects/${ja.uid}/jobs/${jaJob.uid}/qualityAssurances/run`,
      headers: home.headers,
      payload: { warningTypes: ['SpellCheck'] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().uncheckedChecks).toEqual(['SpellCheck']);
    // A language with a dictionary is checked: no such mark.
    if (existsSync('/usr/share/hunspell/de_DE.dic')) {
      const de = await run({ warningTypes: ['SpellCheck'] });
      expect(de.json().uncheckedChecks).toBeUndefined();
    }
  });

  it('gates COMPLETED on unresolved warnings when strictJobStatus is on', async () => {
    await setTargets(['Es gibt 6 Äpfel.', 'Hallo Welt.', 'Öffnen Sie die Datei.', 'Schließen Sie die Tür.']);
    await setChecks([{ name: 'strictJobStatus', enabled: true }]);
    const refused = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/${job().uid}/setStatus`,
      headers: home.headers,
      payload: { requestedStatus: 'COMPLETED' },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().errorCode).toBe('QaWarningsUnresolved');
    expect(refused.json().errorDetails.some((d: any) => d.segment === sid(0) && d.type === 'ExtraNumbersV3')).toBe(true);
    // MissingNumbersV3 of segment 0 is ignored by the ignoreChecks above (the target is the same again): not listed.
    expect(refused.json().errorDetails.some((d: any) => d.type === 'MissingNumbersV3')).toBe(false);
    await setTargets(['Es gibt 5 Äpfel.', 'Hallo Welt.', 'Öffnen Sie die Datei.', 'Schließen Sie die Tür.']);
    const allowed = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/${job().uid}/setStatus`,
      headers: home.headers,
      payload: { requestedStatus: 'COMPLETED' },
    });
    expect(allowed.statusCode, allowed.body).toBe(204);
    await setChecks([{ name: 'strictJobStatus', enabled: false }]);
  });

  it('gates every path that moves a job: edit, batch edit v3; nothing is gated with strictJobStatus off', async () => {
    const fr = made.jobs.find((j) => j.targetLang === 'fr')!;
    const moveFr = (status: string) =>
      t.inject({ method: 'PATCH', url: `/api2/v1/projects/${project.uid}/jobs/${fr.uid}`, headers: home.headers, payload: { status } });
    // The fr job has no targets: EmptyTranslation on every segment.
    expect((await moveFr('DELIVERED')).statusCode).toBe(200);
    expect((await moveFr('NEW')).statusCode).toBe(200);
    await setChecks([{ name: 'strictJobStatus', enabled: true }]);
    const edit = await moveFr('DELIVERED');
    expect(edit.statusCode, edit.body).toBe(400);
    expect(edit.json().errorCode).toBe('QaWarningsUnresolved');
    expect(edit.json().errorDetails[0]).toMatchObject({ jobUid: fr.uid, type: 'EmptyTranslation' });
    const bulk = await t.inject({
      method: 'PATCH',
      url: '/api2/v3/jobs',
      headers: home.headers,
      payload: { jobs: [{ uid: fr.uid }], status: 'COMPLETED' },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(JSON.stringify(bulk.json())).toContain('QaWarningsUnresolved');
    const row = await t.database.db.selectFrom('jobs').select('status').where('uid', '=', fr.uid).executeTakeFirstOrThrow();
    expect(row.status).toBe('NEW');
    // Other statuses are never gated.
    expect((await moveFr('ACCEPTED')).statusCode).toBe(200);
    await setChecks([{ name: 'strictJobStatus', enabled: false }]);
  });

  it('keeps pre-translation from completing a job with unresolved warnings', async () => {
    const worker = startWorker(t.deps, createTaskRegistry([preTranslateTask]), { listenConnectionString: null });
    try {
      const other = await makeProject(t, home.organization.id, { sourceLang: 'en', targetLangs: ['de'], createdById: home.user.id });
      const put = (url: string, payload: unknown) => t.inject({ method: 'PUT', url, headers: home.headers, payload: payload as object });
      const tm = await t.inject({
        method: 'POST',
        url: '/api2/v1/transMemories',
        headers: home.headers,
        payload: { name: `QA TM ${other.uid}`, sourceLang: 'en', targetLangs: ['de'] },
      });
      expect(tm.statusCode, tm.body).toBe(201);
      const unit = await t.inject({
        method: 'POST',
        url: `/api2/v1/transMemories/${tm.json().uid}/segments`,
        headers: home.headers,
        payload: { targetLang: 'de', sourceSegment: 'Close the door.', targetSegment: 'Schließen Sie die Tür.' },
      });
      expect(unit.statusCode, unit.body).toBe(204);
      expect(
        (
          await put(`/api2/v3/projects/${other.uid}/transMemories`, {
            dataPerContext: [{ transMemories: [{ transMemory: { uid: tm.json().uid }, readMode: true, writeMode: false }] }],
          })
        ).statusCode,
      ).toBe(200);
      expect(
        (await put(`/api2/v2/projects/${other.uid}/qaSettings`, { checks: [{ name: 'strictJobStatus', enabled: true }] })).statusCode,
      ).toBe(200);
      const make = async (segments: string[]) =>
        (await makeJobs(t, other, { filename: `${segments.length}.txt`, segments, createdById: home.user.id })).jobs[0]!;
      const clean = await make(['Close the door.']);
      const open = await make(['Close the door.', 'Something new.']);
      const accepted = await t.inject({
        method: 'POST',
        url: `/api2/v3/projects/${other.uid}/jobs/preTranslate`,
        headers: home.headers,
        payload: {
          jobs: [{ uid: clean.uid }, { uid: open.uid }],
          preTranslateSettings: {
            machineTranslationSettings: { useMachineTranslation: false },
            translationMemorySettings: { confirm100PercentMatches: true },
            setJobStatusCompleted: true,
          },
        },
      });
      expect(accepted.statusCode, accepted.body).toBe(202);
      await asyncResponseOf(t, home.headers, accepted.json().asyncRequest.id);
      const status = async (uid: string) =>
        (await t.database.db.selectFrom('jobs').select('status').where('uid', '=', uid).executeTakeFirstOrThrow()).status;
      expect(await status(clean.uid)).toBe('COMPLETED');
      // 'Something new.' has no match: EmptyTranslation keeps the job open.
      expect(await status(open.uid)).toBe('NEW');
    } finally {
      await worker.stop();
    }
  });

  it('answers 400 for a check whose settings are invalid', async () => {
    const response = await t.inject({
      method: 'PUT',
      url: `/api2/v2/projects/${project.uid}/qaSettings`,
      headers: home.headers,
      payload: { checks: [{ name: 'regexp', enabled: true, rules: [{ description: 'bad', targetRegexp: '(unclosed' }] }] },
    });
    expect(response.statusCode).toBe(400);
  });

  it('stops a run that a backtracking regular expression rule holds past its time limit, and stores nothing', async () => {
    const own = await makeProject(t, home.organization.id, { sourceLang: 'en', targetLangs: ['de'], createdById: home.user.id });
    const { jobs } = await makeJobs(t, own, { createdById: home.user.id, segments: ['Hello.'] });
    const db = t.database.db;
    const jobRow = await db.selectFrom('jobs').selectAll().where('uid', '=', jobs[0]!.uid).executeTakeFirstOrThrow();
    await db
      .insertInto('jobSegments')
      .values({
        jobId: jobRow.id,
        idx: 0,
        target: 'a'.repeat(40),
        confirmed: true,
        modifiedAt: t.clock().toISOString(),
        modifiedById: home.user.id,
      })
      .execute();
    const put = await t.inject({
      method: 'PUT',
      url: `/api2/v2/projects/${own.uid}/qaSettings`,
      headers: home.headers,
      payload: { checks: [{ name: 'regexp', enabled: true, rules: [{ description: 'overlapping', targetRegexp: '^(a|a)*b' }] }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const qa = await qaJobOf(db, own, jobRow);
    const started = Date.now();
    await expect(runJobQa(t.deps, qa, { userId: home.user.id, timeLimitMs: 2000 })).rejects.toMatchObject({ errorCode: 'QaRunTimedOut' });
    expect(Date.now() - started).toBeLessThan(60_000); // a loose bound: without the limit the run would not end
    expect(await lastQaRun(db, String(jobRow.id))).toBeNull();
  });

  it("finds a missing approved term and a forbidden term of the project's QA term base", async () => {
    const project = await makeProject(t, home.organization.id, { sourceLang: 'en', targetLangs: ['de'], createdById: home.user.id });
    const { jobs } = await makeJobs(t, project, {
      createdById: home.user.id,
      segments: ['Open the file.', 'Close the door.', 'Open the file now.'],
    });
    const job = jobs[0]!;
    const api = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
      t.inject({ method, url: `/api2/v1/${url}`, headers: home.headers, payload: payload as object });
    const tb = await api('POST', 'termBases', { name: 'QA terms', langs: ['en', 'de'] });
    expect(tb.statusCode, tb.body).toBe(200);
    const tbUid = tb.json().uid;
    const term = async (lang: string, body: Record<string, unknown>, conceptId?: string) => {
      const response = await api('POST', `termBases/${tbUid}/terms`, { lang, ...body, ...(conceptId ? { conceptId } : {}) });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().conceptId as string;
    };
    const file = await term('en', { text: 'file' });
    await term('de', { text: 'Datei', status: 'Approved' }, file);
    const door = await term('en', { text: 'door' });
    await term('de', { text: 'Tür', status: 'Approved' }, door);
    await term('de', { text: 'Pforte', forbidden: true }, door);
    const assigned = await api('PUT', `projects/${project.uid}/termBases`, {
      readTermBases: [{ id: tbUid }],
      qualityAssuranceTermBases: [{ id: tbUid }],
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const row = await t.database.db.selectFrom('jobs').select('id').where('uid', '=', job.uid).executeTakeFirstOrThrow();
    const now = t.clock().toISOString();
    await t.database.db
      .insertInto('jobSegments')
      .values(
        ['Öffnen Sie das Dokument.', 'Schließen Sie die Pforte.', 'Öffnen Sie jetzt die Datei.'].map((target, idx) => ({
          jobId: row.id,
          idx,
          target,
          confirmed: true,
          modifiedAt: now,
          modifiedById: home.user.id,
        })),
      )
      .execute();
    const response = await t.inject({
      method: 'POST',
      url: `/api2/v3/projects/${project.uid}/jobs/${job.uid}/qualityAssurances/run`,
      headers: home.headers,
      payload: { warningTypes: ['NonConformingTerm', 'ForbiddenTerm'] },
    });
    expect(response.statusCode, response.body).toBe(200);
    const bySegment = new Map<string, string[]>(
      response.json().segmentWarnings.map((s: any) => [s.segmentId.split(':')[1], s.warnings.map((w: any) => w.type).sort()]),
    );
    expect(bySegment.get('0')).toEqual(['NonConformingTerm']);
    expect(bySegment.get('1')).toEqual(['ForbiddenTerm', 'NonConformingTerm']);
    expect(bySegment.get('2')).toBeUndefined();
  });

  /** [source, target that makes the check fire, the type it reports, target that must not]. */
  const ROWS: [string, string, string, string][] = [
    ['Hello world.', 'Hello world.', 'TargetSourceIdentical', 'Hallo Welt.'],
    ['Save the file.', 'Speichern Sie die Datei', 'TrailingPunctuation', 'Speichern Sie die Datei.'],
    ['Print the page.', 'Drucken Sie die die Seite.', 'RepeatedWord', 'Drucken Sie die Seite.'],
    ['There are 3 pages.', 'Es gibt 4 Seiten.', 'MissingNumbersV3', 'Es gibt 3 Seiten.'],
    ['Do it now.', 'Machen Sie es ASAP.', 'ForbiddenString', 'Machen Sie es jetzt.'],
    ['Go.', 'Gehen Sie sofort und ohne jede Verzögerung los.', 'AbsoluteLength', 'Los.'],
    ['Stop here.', 'Halt foo.', 'SourceOrTargetRegexp', 'Halt hier.'],
    ['Open two doors.', 'Öffnen Sie zwei  Türen.', 'MultipleSpacesV3', 'Öffnen Sie zwei Türen.'],
    ['Next.', 'Nächste.', 'InconsistentTranslationSourceTarget', 'Weiter.'],
    ['Next.', 'Weiter.', 'InconsistentTranslationSourceTarget', 'Weiter.'],
    // Filled by a fuzzy TM match nobody edited (origin tm, 80 %) in the bad run; a person's text in the good one.
    ['Welcome home.', 'Willkommen daheim.', 'UnmodifiedFuzzyTranslationTM', 'Willkommen daheim.'],
    // The file limits this unit to 10 characters (unit facts, as an XLIFF maxwidth is stored).
    ['Short.', 'Ein zu langer Text.', 'TranslationLength', 'Kurz.'],
  ];
  const FUZZY = ROWS.findIndex((r) => r[2] === 'UnmodifiedFuzzyTranslationTM');

  it('each check fires on its bad target and not on the good one', async () => {
    const project = await makeProject(t, home.organization.id, { sourceLang: 'en', targetLangs: ['de'], createdById: home.user.id });
    const { jobs } = await makeJobs(t, project, { createdById: home.user.id, segments: ROWS.map((r) => r[0]) });
    const job = jobs[0]!;
    const settings = await t.inject({
      method: 'PUT',
      url: `/api2/v2/projects/${project.uid}/qaSettings`,
      headers: home.headers,
      payload: {
        checks: [
          { name: 'targetSourceIdentical', enabled: true },
          { name: 'forbiddenStrings', enabled: true, value: 'ASAP' },
          { name: 'absoluteTargetLength', enabled: true, value: 30 },
          { name: 'regexp', enabled: true, rules: [{ description: 'no foo', targetRegexp: 'foo' }] },
          { name: 'spellCheck', enabled: false },
          { name: 'unmodifiedFuzzyTranslationTM', enabled: true },
        ],
      },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const row = await t.database.db.selectFrom('jobs').select(['id', 'jobSourceId']).where('uid', '=', job.uid).executeTakeFirstOrThrow();
    await t.database.db
      .updateTable('sourceSegments')
      .set({ unitFacts: JSON.stringify({ maxLength: 10 }) })
      .where('jobSourceId', '=', row.jobSourceId)
      .where('idx', '=', ROWS.length - 1)
      .execute();
    async function runWith(targets: string[], fuzzy: boolean) {
      await t.database.db.deleteFrom('jobSegments').where('jobId', '=', row.id).execute();
      const now = t.clock().toISOString();
      await t.database.db
        .insertInto('jobSegments')
        .values(
          targets.map((target, idx) => ({
            jobId: row.id,
            idx,
            target,
            confirmed: true,
            modifiedAt: now,
            modifiedById: home.user.id,
            ...(fuzzy && idx === FUZZY ? { origin: 'tm', originScore: 0.8 } : {}),
          })),
        )
        .execute();
      const response = await t.inject({
        method: 'POST',
        url: `/api2/v3/projects/${project.uid}/jobs/${job.uid}/qualityAssurances/run`,
        headers: home.headers,
        payload: { maxQaWarningsCount: 1000 },
      });
      expect(response.statusCode, response.body).toBe(200);
      const types = new Map<number, string[]>();
      for (const s of response.json().segmentWarnings)
        types.set(
          Number(s.segmentId.split(':')[1]),
          s.warnings.map((w: any) => w.type),
        );
      return types;
    }
    const bad = await runWith(
      ROWS.map((r) => r[1]),
      true,
    );
    const good = await runWith(
      ROWS.map((r) => r[3]),
      false,
    );
    ROWS.forEach(([source, , type], idx) => {
      expect(bad.get(idx) ?? [], `${type} on "${source}"`).toContain(type);
      expect(good.get(idx) ?? [], `no ${type} on "${source}"`).not.toContain(type);
    });
  });
});
