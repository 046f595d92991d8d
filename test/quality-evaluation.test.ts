import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Id } from '../src/db/schema.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import { currentWarningId } from '../src/modules/translation-workflow/quality-assurance/index.js';
import { qualityEvaluationTask } from '../src/modules/translation-workflow/quality-evaluation/index.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { signedInUser } from './factories.js';
import { createTestApp, testDialect } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller } from './support/api.js';
import type { Headers } from './support/api.js';
import { asyncResponseOf } from './support/async-requests.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/**
 * Quality evaluation (issue 19, point 4; docs/quality-evaluation.md): evaluateQuality and the
 * deprecated evaluate run the estimator on the worker; qeWarnings reads per-segment estimates
 * (nothing before the evaluation finished), page by page; segmentWarnings stores external
 * warnings (overwrite, [] = passing, at most 500 segments); who may do what.
 */

interface QeEntry {
  jobPartUid: string;
  segmentId: string;
  warnings: { type: string; message: string; qeId: string | null }[];
  score: number | null;
  passed: boolean;
}
interface QeAnswer {
  endReached: boolean;
  segmentWarnings: QeEntry[];
  jobParts: {
    uid: string;
    evaluated: boolean;
    score: number | null;
    threshold: number | null;
    passed: boolean | null;
    words: number | null;
  }[];
}

const SOURCES = [
  'Open the settings page and choose a language.', // 0: a person's confirmed translation, with a stale QA warning
  'You have 5 new messages.', // 1: unedited MT, a current QA warning
  'Print the page.', // 2: an unedited 85 % TM match
  'Close the window and save all your changes.', // 3: copied untranslated
  'Cancel', // 4: empty
  'This is a long sentence that needs a proper translation.', // 5: far too short a target
];
const TARGETS: { target: string; confirmed?: boolean; origin?: string; originScore?: number }[] = [
  { target: 'Öffnen Sie die Einstellungsseite und wählen Sie eine Sprache.', confirmed: true },
  { target: 'Sie haben 6 neue Nachrichten.', origin: 'mt' },
  { target: 'Drucken Sie die Seite.', origin: 'tm', originScore: 0.85 },
  { target: 'Close the window and save all your changes.' },
  { target: '' },
  { target: 'Ja.' },
];

describe(`quality evaluation (${testDialect})`, () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let linguist: Awaited<ReturnType<typeof signedInUser>>;
  let stranger: Awaited<ReturnType<typeof signedInUser>>;
  let worker: Worker | null = null;
  let project: ProjectRow;
  let deJob: { id: string; uid: string };
  let frJob: { id: string; uid: string };
  let fileUid: string;
  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);

  const qeWarnings = async (headers: Headers, body: object, status = 200) => {
    const response = await api('POST', 'qualityProfiles/qeWarnings', headers, body);
    expect(response.statusCode, response.body).toBe(status);
    return response.json<QeAnswer>();
  };
  const evaluate = async (headers: Headers, body: object, path = `projects/${project.uid}/jobs/evaluateQuality`) => {
    const response = await api('POST', path, headers, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ id: string; action: string; asyncResponse: unknown }>();
  };
  const startTheWorker = () => {
    worker ??= startWorker(t.deps, createTaskRegistry([qualityEvaluationTask]), { listenConnectionString: null });
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t, 'ADMIN');
    linguist = await signedInUser(t, 'LINGUIST', admin.organization);
    stranger = await signedInUser(t, 'ADMIN');
    project = await makeProject(t, admin.organization.id, { createdById: admin.user.id, targetLangs: ['de', 'fr'] });
    const de = await makeJobs(t, project, { segments: SOURCES, targetLangs: ['de'], providerUserIds: [linguist.user.id] });
    deJob = de.jobs[0]!;
    fileUid = de.sourceUid;
    frJob = (await makeJobs(t, project, { segments: ['One more file.'], targetLangs: ['fr'] })).jobs[0]!;
    const now = t.clock().toISOString();
    await t.database.db
      .insertInto('jobSegments')
      .values(
        TARGETS.map((row, idx) => ({
          jobId: deJob.id as Id,
          idx,
          target: row.target,
          confirmed: row.confirmed === true,
          modifiedAt: now,
          modifiedById: null,
          locked: false,
          origin: row.origin ?? null,
          originScore: row.originScore ?? null,
          originResource: null,
          mtWarnings: null,
        })) as never,
      )
      .execute();
    // The job's last QA run: a missing number on segment 1 (current), and one on segment 0 whose
    // target has changed since (its id no longer matches): only the first counts.
    const current = { s: 1, t: 'MissingNumbersV3' as const, k: '5', i: 1 as const, id: '' };
    current.id = currentWarningId(deJob.uid, 1, current, TARGETS[1]!.target);
    const stale = { s: 0, t: 'MissingNumbersV3' as const, k: '7', i: 1 as const, id: 'an-older-target' };
    await t.database.db
      .insertInto('qaRuns')
      .values({
        jobId: deJob.id,
        ranAt: now,
        ranById: null,
        complete: true,
        segmentCount: 6,
        warningCount: 2,
        warnings: JSON.stringify([current, stale]),
      } as never)
      .execute();
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
  });

  it('qeWarnings before any evaluation: no segments, the job part not evaluated', async () => {
    const answer = await qeWarnings(admin.headers, { jobParts: [{ uid: deJob.uid }] });
    expect(answer).toEqual({
      endReached: true,
      segmentWarnings: [],
      jobParts: [
        {
          uid: deJob.uid,
          evaluated: false,
          score: null,
          threshold: null,
          passed: null,
          words: null,
          segmentsBelowThreshold: null,
          dateEvaluated: null,
        },
      ],
    });
  });

  it('evaluateQuality answers an async request; until the worker finished it, qeWarnings answers nothing; then each segment’s estimate', async () => {
    const request = await evaluate(admin.headers, { jobs: [{ uid: deJob.uid }] });
    expect(request).toMatchObject({ action: 'FILE_FLOW_QUALITY_ESTIMATION', asyncResponse: null, project: { uid: project.uid } });
    // Not finished: empty, which means "not yet", not "clean".
    expect((await qeWarnings(admin.headers, { jobParts: [{ uid: deJob.uid }] })).segmentWarnings).toEqual([]);

    startTheWorker();
    const response = await asyncResponseOf<{ acceptedSegmentsCount: number; errorCode: string | null; warnings: unknown[] }>(
      t,
      admin.headers,
      request.id,
    );
    // 68 (below): the job part under the default threshold of 80 is named.
    expect(response).toMatchObject({
      acceptedSegmentsCount: 6,
      errorCode: null,
      warnings: [{ code: 'QualityBelowThreshold', message: `Job part ${deJob.uid} scored 68 (threshold 80).` }],
    });

    const answer = await qeWarnings(admin.headers, { jobParts: [{ uid: deJob.uid }] });
    expect(answer.endReached).toBe(true);
    expect(answer.segmentWarnings.map((s) => [s.segmentId, s.score, s.passed, s.warnings.map((w) => w.type)])).toEqual([
      [`${fileUid}:0`, 95, true, []],
      [`${fileUid}:1`, 60, false, ['UNEDITED_MT', 'QA_WARNINGS']],
      [`${fileUid}:2`, 85, true, ['FUZZY_TM_MATCH']],
      [`${fileUid}:3`, 40, false, ['UNTRANSLATED_TOKENS']],
      [`${fileUid}:4`, 0, false, ['EMPTY_TARGET']],
      [`${fileUid}:5`, 75, false, ['LENGTH_RATIO']],
    ]);
    expect(answer.segmentWarnings.every((s) => s.jobPartUid === deJob.uid)).toBe(true);
    expect(answer.segmentWarnings[1]!.warnings[1]).toMatchObject({
      message: 'QA warnings: MissingNumbersV3.',
      qeId: 'opentms-heuristic-qe-1/QA_WARNINGS',
    });
    // Word-weighted: 8, 5, 3, 8, 1 and 10 words.
    const score = Math.round((95 * 8 + 60 * 5 + 85 * 3 + 40 * 8 + 0 * 1 + 75 * 10) / 35);
    expect(score).toBe(68);
    expect(answer.jobParts).toEqual([
      expect.objectContaining({
        uid: deJob.uid,
        evaluated: true,
        score,
        threshold: 80,
        passed: score >= 80,
        words: 35,
        segmentsBelowThreshold: 4,
      }),
    ]);
  });

  it('a job part failing its threshold is named in the async response’s warnings', async () => {
    const request = await evaluate(admin.headers, {
      jobs: [{ uid: deJob.uid }],
      threshold: 90,
      lockSegments: false,
      confirmSegments: false,
    });
    const response = await asyncResponseOf<{ warnings: { code: string; args: Record<string, unknown> }[] }>(t, admin.headers, request.id);
    expect(response.warnings).toEqual([
      expect.objectContaining({ code: 'QualityBelowThreshold', args: expect.objectContaining({ jobPartUid: deJob.uid, threshold: 90 }) }),
    ]);
    const answer = await qeWarnings(admin.headers, { jobParts: [{ uid: deJob.uid }] });
    expect(answer.jobParts[0]).toMatchObject({ threshold: 90, passed: false });
    expect(answer.segmentWarnings.filter((s) => s.passed).map((s) => s.score)).toEqual([95]);
  });

  it('segmentWarnings overwrites the segments it names; an empty results array records a passing run', async () => {
    const store = (segments: object[], status = 204) =>
      api('POST', 'qualityProfiles/segmentWarnings', admin.headers, {
        jobPartUid: deJob.uid,
        evaluationId: 'ev-1',
        qualityProfileUid: 'qp-1',
        segments,
      }).then((response) => expect(response.statusCode, response.body).toBe(status));
    await store([
      { segmentId: `${fileUid}:0`, results: [{ type: 'Accuracy', message: 'Mistranslation of “settings”.', qeId: 'ai-1' }] },
      { segmentId: `${deJob.uid}:4`, results: [] },
    ]);
    let answer = await qeWarnings(admin.headers, { jobParts: [{ uid: deJob.uid }] });
    const bySegment = new Map(answer.segmentWarnings.map((s) => [s.segmentId, s]));
    expect(bySegment.get(`${fileUid}:0`)).toEqual({
      jobPartUid: deJob.uid,
      segmentId: `${fileUid}:0`,
      warnings: [{ type: 'Accuracy', message: 'Mistranslation of “settings”.', qeId: 'ai-1' }],
      score: null,
      passed: false,
    });
    expect(bySegment.get(`${fileUid}:4`)).toMatchObject({ warnings: [], score: null, passed: true });
    // Untouched segments keep the estimator's result.
    expect(bySegment.get(`${fileUid}:1`)).toMatchObject({ score: 60 });

    // Stored again: the earlier warnings are gone, not merged.
    await store([{ segmentId: `${fileUid}:0`, results: [{ type: 'Fluency', message: 'Awkward.' }] }]);
    answer = await qeWarnings(admin.headers, { jobParts: [{ uid: deJob.uid }] });
    expect(answer.segmentWarnings.find((s) => s.segmentId === `${fileUid}:0`)!.warnings).toEqual([
      { type: 'Fluency', message: 'Awkward.', qeId: null },
    ]);
  });

  it('segmentWarnings refuses what it cannot store, and stores nothing then', async () => {
    const store = (body: object) => api('POST', 'qualityProfiles/segmentWarnings', admin.headers, body);
    const segments = (n: number) => Array.from({ length: n }, (_, i) => ({ segmentId: `${fileUid}:${i % 6}`, results: [] }));
    const before = await qeWarnings(admin.headers, { jobParts: [{ uid: deJob.uid }] });
    const refused = [
      { jobPartUid: deJob.uid, segments: segments(501) },
      { jobPartUid: deJob.uid, segments: [] },
      { jobPartUid: deJob.uid, segments: [{ segmentId: `${fileUid}:0`, results: [{ type: 'x'.repeat(256), message: 'm' }] }] },
      { jobPartUid: deJob.uid, segments: [{ segmentId: `${fileUid}:0`, results: [{ type: 't', message: 'm'.repeat(1001) }] }] },
      // An unknown segment after a valid one: nothing of the request is stored.
      {
        jobPartUid: deJob.uid,
        segments: [
          { segmentId: `${fileUid}:0`, results: [] },
          { segmentId: `${fileUid}:6`, results: [] },
        ],
      },
      { jobPartUid: deJob.uid, segments: [{ segmentId: 'elsewhere:0', results: [] }] },
      {
        jobPartUid: deJob.uid,
        segments: [
          { segmentId: `${fileUid}:1`, results: [] },
          { segmentId: `${deJob.uid}:1`, results: [] },
        ],
      },
    ];
    for (const body of refused) {
      const response = await store(body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errorCode).toBe('InvalidArguments');
    }
    expect(await qeWarnings(admin.headers, { jobParts: [{ uid: deJob.uid }] })).toEqual(before);
    // 500 segments are fine.
    const big = await makeJobs(t, project, {
      segments: Array.from({ length: 500 }, (_, i) => `Sentence number ${i}.`),
      targetLangs: ['de'],
    });
    const response = await store({
      jobPartUid: big.jobs[0]!.uid,
      segments: Array.from({ length: 500 }, (_, i) => ({ segmentId: `${big.sourceUid}:${i}`, results: [] })),
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe('');
    // Shown at once, on a job part never evaluated: passing runs.
    const stored = await qeWarnings(admin.headers, { jobParts: [{ uid: big.jobs[0]!.uid }] });
    expect(stored.endReached).toBe(false);
    expect(stored.segmentWarnings).toHaveLength(100);
    expect(stored.segmentWarnings[0]).toEqual({
      jobPartUid: big.jobs[0]!.uid,
      segmentId: `${big.sourceUid}:0`,
      warnings: [],
      score: null,
      passed: true,
    });
    expect(stored.jobParts[0]).toMatchObject({ evaluated: false, score: null });
  });

  it('qeWarnings pages by segment position across the job parts of a file, resuming after initialSegmentId', async () => {
    const paged = await makeJobs(t, project, { segments: Array.from({ length: 150 }, (_, i) => `Line ${i} of the manual.`) });
    const parts = paged.jobs.map((job) => ({ uid: job.uid }));
    expect(parts).toHaveLength(2);
    const request = await evaluate(admin.headers, { jobs: parts });
    await asyncResponseOf(t, admin.headers, request.id);
    const first = await qeWarnings(admin.headers, { jobParts: parts });
    expect(first.endReached).toBe(false);
    expect(first.segmentWarnings).toHaveLength(200);
    expect(first.segmentWarnings.slice(0, 2).map((s) => [s.jobPartUid, s.segmentId])).toEqual([
      [parts[0]!.uid, `${paged.sourceUid}:0`],
      [parts[1]!.uid, `${paged.sourceUid}:0`],
    ]);
    expect(first.segmentWarnings.at(-1)!.segmentId).toBe(`${paged.sourceUid}:99`);
    // Untranslated: every target is empty.
    expect(new Set(first.segmentWarnings.map((s) => s.score))).toEqual(new Set([0]));
    const second = await qeWarnings(admin.headers, { jobParts: parts, initialSegmentId: first.segmentWarnings.at(-1)!.segmentId });
    expect(second.endReached).toBe(true);
    expect(second.segmentWarnings).toHaveLength(100);
    expect(second.segmentWarnings[0]!.segmentId).toBe(`${paged.sourceUid}:100`);
    expect(second.segmentWarnings.at(-1)!.segmentId).toBe(`${paged.sourceUid}:149`);
    // null starts from the first segment, as absent does.
    expect((await qeWarnings(admin.headers, { jobParts: parts, initialSegmentId: null })).segmentWarnings[0]!.segmentId).toBe(
      `${paged.sourceUid}:0`,
    );
  });

  it('the deprecated qualityProfiles/evaluate does the same work, and a new evaluation replaces stored warnings', async () => {
    const request = await evaluate(
      admin.headers,
      { jobs: [{ uid: deJob.uid }], qualityProfileUid: 'qp-legacy' },
      'qualityProfiles/evaluate',
    );
    expect(request.action).toBe('FILE_FLOW_QUALITY_ESTIMATION');
    await asyncResponseOf(t, admin.headers, request.id);
    const answer = await qeWarnings(admin.headers, { jobParts: [{ uid: deJob.uid }] });
    expect(answer.segmentWarnings.map((s) => s.score)).toEqual([95, 60, 85, 40, 0, 75]);
    expect(answer.jobParts[0]).toMatchObject({ evaluated: true, threshold: 80 });
  });

  it('bad input is a 400 and starts nothing', async () => {
    const pending = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('asyncRequests')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await pending();
    const bad: [string, object][] = [
      [`projects/${project.uid}/jobs/evaluateQuality`, { jobs: [] }],
      [`projects/${project.uid}/jobs/evaluateQuality`, { jobs: Array.from({ length: 51 }, () => ({ uid: deJob.uid })) }],
      [`projects/${project.uid}/jobs/evaluateQuality`, { jobs: [{ uid: deJob.uid }], threshold: 101 }],
      [`projects/${project.uid}/jobs/evaluateQuality`, { jobs: [{ uid: deJob.uid }], lockSegments: 'yes' }],
      [`projects/${project.uid}/jobs/evaluateQuality`, {}],
      ['qualityProfiles/evaluate', { jobs: [] }],
      ['qualityProfiles/qeWarnings', { jobParts: [] }],
      ['qualityProfiles/qeWarnings', { jobParts: Array.from({ length: 101 }, () => ({ uid: deJob.uid })) }],
      ['qualityProfiles/qeWarnings', { jobParts: [{ uid: deJob.uid }], initialSegmentId: `${fileUid}:999` }],
      ['qualityProfiles/qeWarnings', { jobParts: [{ uid: deJob.uid }], initialSegmentId: 'nonsense' }],
    ];
    for (const [path, body] of bad) {
      const response = await api('POST', path, admin.headers, body);
      expect(response.statusCode, `${path} ${JSON.stringify(body).slice(0, 80)}: ${response.body}`).toBe(400);
    }
    // Job parts of two projects.
    const other = await makeProject(t, admin.organization.id, { createdById: admin.user.id, targetLangs: ['de'] });
    const otherJob = (await makeJobs(t, other, { targetLangs: ['de'] })).jobs[0]!;
    for (const [path, body] of [
      ['qualityProfiles/evaluate', { jobs: [{ uid: deJob.uid }, { uid: otherJob.uid }] }],
      ['qualityProfiles/qeWarnings', { jobParts: [{ uid: deJob.uid }, { uid: otherJob.uid }] }],
    ] as const) {
      const response = await api('POST', path, admin.headers, body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errorDescription).toContain('same project');
    }
    // A job of another project through evaluateQuality's project: not found there.
    const elsewhere = await api('POST', `projects/${project.uid}/jobs/evaluateQuality`, admin.headers, { jobs: [{ uid: otherJob.uid }] });
    expect(elsewhere.statusCode, elsewhere.body).toBe(404);
    expect(await pending()).toBe(before);
  });

  it('access: managers evaluate and store; whoever sees the jobs reads, a linguist their own', async () => {
    // The linguist provides the German job only.
    expect((await qeWarnings(linguist.headers, { jobParts: [{ uid: deJob.uid }] })).segmentWarnings).toHaveLength(6);
    await qeWarnings(linguist.headers, { jobParts: [{ uid: frJob.uid }] }, 404);
    for (const [path, body] of [
      [`projects/${project.uid}/jobs/evaluateQuality`, { jobs: [{ uid: deJob.uid }] }],
      ['qualityProfiles/evaluate', { jobs: [{ uid: deJob.uid }] }],
      ['qualityProfiles/segmentWarnings', { jobPartUid: deJob.uid, segments: [{ segmentId: `${fileUid}:0`, results: [] }] }],
    ] as const) {
      const response = await api('POST', path, linguist.headers, body);
      expect(response.statusCode, `${path}: ${response.body}`).toBe(403);
    }
    // Another organization: the jobs do not exist.
    await qeWarnings(stranger.headers, { jobParts: [{ uid: deJob.uid }] }, 404);
    const store = await api('POST', 'qualityProfiles/segmentWarnings', stranger.headers, {
      jobPartUid: deJob.uid,
      segments: [{ segmentId: `${fileUid}:0`, results: [] }],
    });
    expect(store.statusCode, store.body).toBe(404);
    const evaluated = await api('POST', 'qualityProfiles/evaluate', stranger.headers, { jobs: [{ uid: deJob.uid }] });
    expect(evaluated.statusCode, evaluated.body).toBe(404);
    // No token.
    const anonymous = await t.inject({
      method: 'POST',
      url: '/api2/v1/qualityProfiles/qeWarnings',
      payload: { jobParts: [{ uid: deJob.uid }] },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
