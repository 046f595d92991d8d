import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import type { AppDeps } from '../src/deps.js';
import type { Caller } from '../src/http/access.js';
import { findVisibleProject } from '../src/modules/translation-workflow/kernel/index.js';
import { PRE_TRANSLATE_PAGE } from '../src/modules/translation-workflow/pre-translation/pre-translation.task.js';
import { requestPreTranslation } from '../src/modules/translation-workflow/pre-translation/pre-translation.service.js';
import { makeOrganization, makeUser } from './factories.js';
import { testDialect } from './harness.js';
import { apertiumUrl } from './support/apertium.js';
import { withTimeout } from './support/child-process.js';
import { waitFor } from './support/wait.js';
import { workerProcessFixture } from './support/worker-process-fixture.js';
import type { WorkerProcessFixture } from './support/worker-process-fixture.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/**
 * A pre-translation through a real apertium-apy in a worker process of its own, killed with -9
 * after its first page was committed: a new worker resumes after the last committed page, every
 * segment is filled exactly once, and what the engine answered before the kill comes from the MT
 * cache, so nothing is translated (or counted) twice — bar the texts of the one engine request
 * that may have been answered in the instant between the engine's answer and its commit.
 */

const apy = await apertiumUrl();
if (!apy) console.warn('apertium-apy is not installed: the pre-translation kill test is skipped.');

describe.skipIf(!apy)(`a pre-translation killed with -9 (${testDialect})`, () => {
  let fixture: WorkerProcessFixture;
  let database: Database;
  let deps: AppDeps;

  beforeAll(async () => {
    fixture = await workerProcessFixture('opentms-pretranslate-kill-');
    ({ database, deps } = fixture);
  });
  afterAll(() => fixture?.close());

  it('resumes after the last committed page and fills every segment once', async () => {
    const db = database.db;
    const organization = await makeOrganization(db);
    const admin = await makeUser(db, organization, { role: 'ADMIN' });
    const t = { database, deps, clock: deps.clock } as unknown as Parameters<typeof makeProject>[0];
    const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['es'] });
    const now = new Date().toISOString();
    const settings = await db
      .insertInto('mtSettings')
      .values({
        uid: `mt-${organization.uid}`,
        organizationId: organization.id,
        name: 'Apertium',
        type: 'Apertium',
        args: JSON.stringify({ url: apy }),
        createdAt: now,
        modifiedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('mtSettingsAssignments').values({ projectId: project.id, targetLang: null, mtSettingsId: settings.id }).execute();
    const count = 3 * PRE_TRANSLATE_PAGE;
    const segments = Array.from({ length: count }, (_, i) => `Record number ${i} is ready for the big house.`);
    const made = await makeJobs(t, project, { segments, targetLangs: ['es'], createdById: admin.id });
    const caller = { organizationId: organization.id, userId: admin.id, role: 'ADMIN' } as Caller;
    const access = (await findVisibleProject(db, caller, project.uid))!;
    const request = await requestPreTranslation(deps, caller, access, {
      jobs: [{ uid: made.jobs[0]!.uid }],
      preTranslateSettings: { translationMemorySettings: { useTranslationMemory: false } },
    });
    const run = () => db.selectFrom('preTranslations').selectAll().where('asyncRequestId', '=', request.id).executeTakeFirstOrThrow();
    const filled = async () =>
      Number(
        (
          await db
            .selectFrom('jobSegments')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('jobId', '=', made.jobs[0]!.id)
            .executeTakeFirstOrThrow()
        ).n,
      );

    const first = await fixture.startWorkerProcess();
    await waitFor('the first page to be committed', async () => Number((await run()).doneSegments) >= PRE_TRANSLATE_PAGE, 60_000, 5);
    first.child.kill('SIGKILL');
    await withTimeout(first.exited, 10_000, 'the killed worker to exit');
    const kept = await run();
    expect(Number(kept.doneSegments)).toBeLessThan(count);
    expect(await filled()).toBe(Number(kept.nextIdx) + 1);
    const cachedAtKill = Number(
      (
        await db
          .selectFrom('mtCache')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(cachedAtKill).toBeGreaterThanOrEqual(await filled());

    const second = await fixture.startWorkerProcess();
    const response = await waitFor(
      'the pre-translation to finish in the new worker',
      async () => {
        const row = await db.selectFrom('asyncRequests').select('response').where('id', '=', request.id).executeTakeFirstOrThrow();
        return row.response ? (JSON.parse(row.response) as { errorCode: string | null; acceptedSegmentsCount: number }) : null;
      },
      120_000,
      50,
    );
    second.child.kill('SIGKILL');
    expect(response.errorCode).toBeNull();
    expect(response.acceptedSegmentsCount).toBe(count);
    const rows = await db.selectFrom('jobSegments').select(['idx', 'target', 'origin']).where('jobId', '=', made.jobs[0]!.id).execute();
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((r) => Number(r.idx))).size).toBe(count);
    expect(rows.every((r) => r.origin === 'mt' && /casa grande/i.test(r.target))).toBe(true);
    // Each distinct text reached the engine once: the usage is their characters, give or take the one request in flight at the kill.
    const sent = segments.reduce((sum, text) => sum + text.length, 0);
    const usage = Number(
      (await db.selectFrom('mtUsage').select('characters').where('organizationId', '=', organization.id).executeTakeFirstOrThrow())
        .characters,
    );
    expect(usage).toBeGreaterThanOrEqual(sent);
    expect(usage - sent).toBeLessThanOrEqual(200 * segments[0]!.length + 200);
    const progress = await db
      .selectFrom('asyncRequests')
      .select(['progressDone', 'progressTotal'])
      .where('id', '=', request.id)
      .executeTakeFirstOrThrow();
    expect(progress).toEqual({ progressDone: count, progressTotal: count });
  });
});
