import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';
import { projectQaSettings } from '../src/modules/translation-workflow/qa-settings/index.js';
import { defaultQaSettings } from '../src/domain/quality-assurance/settings.js';
import { parseRoleSettings } from '../src/domain/users/role-settings.js';

/**
 * Issue 19: the QA settings of projects and templates (GET/PUT template, PUT project v2), the
 * project's enabled warning types (v1 qaSettingsChecks), the views jobs get (v2 deprecated, v4),
 * the copy into projects made from templates, and who may read and edit them.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('QA settings of projects and templates', () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let linguist: Headers;
  let linguistId: string;

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    const user = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
    linguistId = user.id;
    linguist = apiToken(await loginAs(t, user));
  });
  afterAll(() => t.close());

  const api = (method: Method, url: string, headers: Headers, payload?: unknown) =>
    apiCaller(t, /^v\d\//.test(url) ? '/api2/' : '/api2/v1/')(method, url, headers, payload);
  async function ok(method: Method, url: string, headers: Headers, payload?: unknown, status = 200): Promise<any> {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.json();
  }
  async function refused(url: string, payload: unknown, field: string, text?: string) {
    const response = await api('PUT', url, home.headers, payload);
    expect(response.statusCode, `${JSON.stringify(payload)}: ${response.body}`).toBe(400);
    const body = response.json();
    expect(body.errorCode).toBe('InvalidArguments');
    expect(body.errorDetails.map((d: any) => d.field)).toContain(field);
    if (text) expect(body.errorDescription).toContain(text);
  }
  const project = (targetLangs = ['de', 'fr']) =>
    makeProject(t, home.organization.id, { sourceLang: 'en', targetLangs, createdById: home.user.id });
  async function template() {
    const source = await project();
    return ok('POST', 'projectTemplates', home.headers, { project: { uid: source.uid }, name: uniqueName('Template') }, 201);
  }
  const check = (view: any, name: string) => view.checks.find((c: any) => c.name === name);
  const checkerTypes = (view: any) => view.enabledChecks.map((c: any) => c.checkerType);

  it('answers the defaults for a template that never set them, every check once', async () => {
    const tpl = await template();
    const view = await ok('GET', `projectTemplates/${tpl.uid}/qaSettings`, home.headers);
    expect(view.checks).toHaveLength(Object.keys(defaultQaSettings().checks).length);
    expect(new Set(view.checks.map((c: any) => c.name)).size).toBe(view.checks.length);
    expect(check(view, 'emptyTarget')).toEqual({ type: 'VOID', name: 'emptyTarget', enabled: true, ignorable: true, instant: false });
    expect(check(view, 'targetLength')).toEqual({ type: 'NUMBER', name: 'targetLength', enabled: false, ignorable: true, instant: false });
    expect(check(view, 'forbiddenStringsEnabled')).toMatchObject({ type: 'STRING', enabled: false, value: '' });
    expect(check(view, 'regexp')).toEqual({ type: 'REGEX', name: 'regexp', enabled: false, rules: [] });
    expect(check(view, 'moravia')).toMatchObject({ type: 'MORAVIA', enabled: false });
    expect(view.inconsistencyScope).toBe('JOB');
    expect(view.customChecks).toContainEqual({ name: 'unbalancedBrackets', enabled: true, ignorable: true });
  });

  it('edits a template: only the listed checks and fields change; the answer is what GET shows', async () => {
    const tpl = await template();
    const url = `projectTemplates/${tpl.uid}/qaSettings`;
    const before = await ok('GET', url, home.headers);
    const after = await ok('PUT', url, home.headers, {
      checks: [
        { ignorable: false, enabled: true, type: 'VOID', instant: false, name: 'emptyTarget' },
        { ignorable: false, enabled: true, value: 12, type: 'NUMBER', name: 'targetLength' },
        { ignorable: false, enabled: true, value: 'ASAP, irony', type: 'STRING', instant: true, name: 'forbiddenStrings' },
        { enabled: true, profile: 'jiris', ignorable: true, type: 'MORAVIA', name: 'moravia' },
        {
          rules: [
            { description: 'Description', sourceRegexp: '.+', targetRegexp: '.+', ignorable: true },
            { description: 'Digits', sourceRegexp: '\\d+', ignorable: false },
          ],
          type: 'REGEX',
          name: 'regexp',
        },
        { enabled: true, ignorable: true, type: 'VOID', name: 'customQa' },
      ],
      inconsistencyScope: 'PROJECT',
    });
    expect(await ok('GET', url, home.headers)).toEqual(after);
    expect(check(after, 'emptyTarget')).toEqual({ type: 'VOID', name: 'emptyTarget', enabled: true, ignorable: false, instant: false });
    expect(check(after, 'targetLength')).toMatchObject({ enabled: true, ignorable: false, value: 12 });
    expect(check(after, 'forbiddenStringsEnabled')).toMatchObject({ enabled: true, instant: true, value: 'ASAP, irony' });
    expect(check(after, 'moravia')).toMatchObject({ enabled: true, profile: 'jiris' });
    const regexp = check(after, 'regexp');
    expect(regexp.enabled).toBe(true);
    expect(regexp.rules.map((r: any) => [r.description, r.sourceRegexp, r.targetRegexp, r.ignorable])).toEqual([
      ['Description', '.+', '.+', true],
      ['Digits', '\\d+', undefined, false],
    ]);
    expect(regexp.rules.every((r: any) => typeof r.id === 'string' && r.id.length > 0)).toBe(true);
    expect(after.customChecks.every((c: any) => c.enabled)).toBe(true);
    expect(after.inconsistencyScope).toBe('PROJECT');
    // Checks the edit did not list keep their values.
    for (const name of ['endPunctuation', 'missingNumber', 'spellCheck', 'segmentNotConfirmed'])
      expect(check(after, name)).toEqual(check(before, name));

    // A partial edit: the fields left out keep their values, the rules keep their ids.
    const partial = await ok('PUT', url, home.headers, {
      checks: [
        { name: 'targetLength', enabled: false },
        { name: 'regexp', type: 'REGEX', rules: [{ ...regexp.rules[1], description: 'Numbers' }] },
      ],
    });
    expect(check(partial, 'targetLength')).toMatchObject({ enabled: false, ignorable: false, value: 12 });
    expect(check(partial, 'regexp').rules).toEqual([{ ...regexp.rules[1], description: 'Numbers' }]);
    expect(check(partial, 'emptyTarget')).toEqual(check(after, 'emptyTarget'));
    expect(partial.inconsistencyScope).toBe('PROJECT');
    // No body, or no checks: nothing changes.
    expect(await ok('PUT', url, home.headers, {})).toEqual(partial);
  });

  it('refuses what it cannot store with a 400 naming the check, and changes nothing', async () => {
    const tpl = await template();
    const url = `projectTemplates/${tpl.uid}/qaSettings`;
    const before = await ok('GET', url, home.headers);
    await refused(url, { checks: [{ name: 'emptyTarget' }, { name: 'noSuchCheck', type: 'VOID' }] }, 'checks[1].name', 'noSuchCheck');
    await refused(url, { checks: [{ name: 'targetLength', type: 'VOID', enabled: true, value: 3 }] }, 'checks[0].type', 'NUMBER');
    await refused(url, { checks: [{ name: 'targetLength', type: 'NUMBER', enabled: true, value: -1 }] }, 'checks[0].value');
    await refused(url, { checks: [{ name: 'emptyTarget', enabled: 'yes' }] }, 'checks[0].enabled');
    await refused(
      url,
      {
        checks: [
          { name: 'emptyTarget', enabled: false },
          { name: 'regexp', type: 'REGEX', rules: [{ sourceRegexp: 'a' }, { targetRegexp: '(unclosed' }] },
        ],
      },
      'checks[1].rules[1].targetRegexp',
      'checks[1].rules[1].targetRegexp',
    );
    await refused(url, { inconsistencyScope: 'ORGANIZATION' }, 'inconsistencyScope');
    await refused(url, { customChecks: [{ name: 'grammar', enabled: true }] }, 'customChecks[0].name');
    expect(await ok('GET', url, home.headers)).toEqual(before);
  });

  it('gives a project made from a template the template’s settings; other projects have the defaults', async () => {
    const tpl = await template();
    const edited = await ok('PUT', `projectTemplates/${tpl.uid}/qaSettings`, home.headers, {
      checks: [
        { name: 'segmentNotConfirmed', type: 'VOID', enabled: true, ignorable: false },
        { name: 'absoluteTargetLength', type: 'NUMBER', enabled: true, value: '40' },
        { name: 'strictJobStatus', enabled: true },
      ],
    });
    expect(check(edited, 'absoluteTargetLength').value).toBe(40);
    const made = await ok('POST', `v2/projects/applyTemplate/${tpl.uid}`, home.headers, { name: uniqueName('From template') }, 201);
    const row = await t.database.db.selectFrom('projects').select('id').where('uid', '=', made.uid).executeTakeFirstOrThrow();
    const settings = await projectQaSettings(t.database.db, home.organization.id, row.id);
    expect(settings.checks.segmentNotConfirmed).toEqual({ enabled: true, ignorable: false, instant: false });
    expect(settings.checks.absoluteTargetLength.value).toBe(40);
    expect(settings.checks.strictJobStatus.enabled).toBe(true);
    const checks = await ok('GET', `projects/${made.uid}/qaSettingsChecks`, home.headers);
    expect(checks.enabledChecks).toContain('NotConfirmed');
    expect(checks.enabledChecks).toContain('AbsoluteLength');

    // The project's own edit does not touch the template; the template's later edit does not touch the project.
    const projectView = await ok('PUT', `v2/projects/${made.uid}/qaSettings`, home.headers, {
      checks: [{ name: 'segmentNotConfirmed', enabled: false }],
    });
    expect(check(projectView, 'segmentNotConfirmed').enabled).toBe(false);
    expect(check(projectView, 'absoluteTargetLength').value).toBe(40);
    expect(check(await ok('GET', `projectTemplates/${tpl.uid}/qaSettings`, home.headers), 'segmentNotConfirmed').enabled).toBe(true);
    await ok('PUT', `projectTemplates/${tpl.uid}/qaSettings`, home.headers, { checks: [{ name: 'absoluteTargetLength', value: 99 }] });
    expect((await projectQaSettings(t.database.db, home.organization.id, row.id)).checks.absoluteTargetLength.value).toBe(40);

    // A clone of the project keeps them, and so does a template made from the project.
    const clone = await ok('POST', `projects/${made.uid}/clone`, home.headers, { name: uniqueName('Clone') }, 201);
    const cloneRow = await t.database.db.selectFrom('projects').select('id').where('uid', '=', clone.uid).executeTakeFirstOrThrow();
    expect((await projectQaSettings(t.database.db, home.organization.id, cloneRow.id)).checks.segmentNotConfirmed.enabled).toBe(false);
    const copy = await ok('POST', 'projectTemplates', home.headers, { project: { uid: made.uid }, name: uniqueName('Copy') }, 201);
    expect(await ok('GET', `projectTemplates/${copy.uid}/qaSettings`, home.headers)).toEqual(projectView);

    // A project made without a template has the defaults.
    const plain = await project();
    expect(await projectQaSettings(t.database.db, home.organization.id, plain.id)).toEqual(defaultQaSettings());
    expect((await ok('GET', `projects/${plain.uid}/qaSettingsChecks`, home.headers)).enabledChecks).not.toContain('NotConfirmed');
    // Another organization's project is not found.
    const stranger = await signedInUser(t, 'ADMIN');
    await expect(projectQaSettings(t.database.db, stranger.organization.id, plain.id)).rejects.toMatchObject({ status: 404 });
  });

  it('shows jobs their project’s settings (v2 per job and per project, v4), to a linguist on their own job', async () => {
    const p = await project(['de', 'fr']);
    const { jobs } = await makeJobs(t, p, { providerUserIds: [linguistId], targetLangs: ['de'] });
    const { jobs: others } = await makeJobs(t, p, { targetLangs: ['fr'] });
    const job = jobs[0]!;
    await ok('PUT', `v2/projects/${p.uid}/qaSettings`, home.headers, {
      checks: [
        { name: 'forbiddenStringsEnabled', type: 'STRING', enabled: true, value: 'foo, bar' },
        { name: 'excludeLockedSegments', enabled: true },
        { name: 'emptyTarget', ignorable: false, instant: true },
        { name: 'regexp', rules: [{ id: 'r1', targetRegexp: '\\s{3}', description: 'three spaces' }] },
        { name: 'spellCheck', enabled: false },
      ],
      customChecks: [{ name: 'capitalization', enabled: true, ignorable: false }],
    });
    const v2 = await ok('GET', `v2/projects/${p.uid}/jobs/${job.uid}/qualityAssurances/settings`, linguist);
    expect(v2.forbiddenStrings).toEqual(['foo', 'bar']);
    expect(v2.excludeLockedSegments).toBe(true);
    expect(v2.strictJobStatus).toBe(false);
    expect(v2.userCanSetInstantQA).toBe(true);
    expect(v2.regexpRules).toEqual([{ id: 'r1', description: 'three spaces', targetRegexp: '\\s{3}', ignorable: true, instant: false }]);
    expect(v2.enabledChecks).toContainEqual({ checkerType: 'EmptyTranslation', ignorable: false, instant: true });
    expect(v2.enabledChecks).toContainEqual({
      checkerType: 'CustomQA',
      ignorable: false,
      instant: false,
      context: { customQaDisplayName: 'capitalization', provider: 'OpenTMS' },
    });
    expect(checkerTypes(v2)).toEqual(
      expect.arrayContaining(['MissingNumbersV3', 'ExtraNumbersV3', 'ForbiddenString', 'SourceOrTargetRegexp']),
    );
    expect(checkerTypes(v2)).not.toContain('SpellCheck');

    const v4 = await ok('GET', `v4/projects/${p.uid}/jobs/qualityAssurances/settings?jobUid=${job.uid}`, linguist);
    expect(v4).toEqual(v2);
    expect(await ok('GET', `v2/projects/${p.uid}/jobs/qualityAssurances/settings`, linguist)).toEqual(v2);
    expect(await ok('GET', `v2/projects/${p.uid}/jobs/qualityAssurances/settings`, home.headers)).toEqual(v2);
    const types = await ok('GET', `projects/${p.uid}/qaSettingsChecks`, linguist);
    expect(types.enabledChecks).toEqual(expect.arrayContaining(['ForbiddenString', 'CustomQA', 'SourceOrTargetRegexp']));
    expect(types.enabledChecks).not.toContain('SpellCheck');

    // The project's access settings say whether linguists may switch instant QA off.
    await ok('PUT', `v2/projects/${p.uid}/accessSettings`, home.headers, { userMaySetInstantQA: false });
    expect((await ok('GET', `v4/projects/${p.uid}/jobs/qualityAssurances/settings?jobUid=${job.uid}`, linguist)).userCanSetInstantQA).toBe(
      false,
    );

    // A job the linguist does not provide does not exist for them; the v4 query needs its job.
    expect((await api('GET', `v2/projects/${p.uid}/jobs/${others[0]!.uid}/qualityAssurances/settings`, linguist)).statusCode).toBe(404);
    expect((await api('GET', `v4/projects/${p.uid}/jobs/qualityAssurances/settings?jobUid=${others[0]!.uid}`, linguist)).statusCode).toBe(
      404,
    );
    expect((await api('GET', `v4/projects/${p.uid}/jobs/qualityAssurances/settings?jobUid=nope`, home.headers)).statusCode).toBe(404);
    const missing = await api('GET', `v4/projects/${p.uid}/jobs/qualityAssurances/settings`, home.headers);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errorDetails.map((d: any) => d.field)).toContain('jobUid');
  });

  it('lets linguists read but not edit; project managers edit projects they may edit', async () => {
    const p = await project(['de']);
    await makeJobs(t, p, { providerUserIds: [linguistId] });
    const url = `v2/projects/${p.uid}/qaSettings`;
    const denied = await api('PUT', url, linguist, { checks: [{ name: 'emptyTarget', enabled: false }] });
    expect(denied.statusCode).toBe(403);
    expect((await ok('GET', `projects/${p.uid}/qaSettingsChecks`, linguist)).enabledChecks).toContain('EmptyTranslation');
    const tpl = await template();
    expect((await api('GET', `projectTemplates/${tpl.uid}/qaSettings`, linguist)).statusCode).toBe(403);
    expect((await api('PUT', `projectTemplates/${tpl.uid}/qaSettings`, linguist, { checks: [] })).statusCode).toBe(403);
    // A project manager without the right to edit others' projects sees their settings but edits only their own.
    const manager = await makeUser(t.database.db, home.organization, { role: 'PROJECT_MANAGER' });
    await t.database.db
      .updateTable('users')
      .set({ roleSettings: JSON.stringify(parseRoleSettings('PROJECT_MANAGER', JSON.stringify({ rights: { projectEditOther: false } }))) })
      .where('id', '=', manager.id)
      .execute();
    const managerHeaders = apiToken(await loginAs(t, manager));
    expect((await api('PUT', url, managerHeaders, { checks: [] })).statusCode).toBe(403);
    expect((await ok('GET', `v2/projects/${p.uid}/jobs/qualityAssurances/settings`, managerHeaders)).enabledChecks.length).toBeGreaterThan(
      0,
    );
    const own = await makeProject(t, home.organization.id, { createdById: manager.id });
    const mine = await ok('PUT', `v2/projects/${own.uid}/qaSettings`, managerHeaders, {
      checks: [{ name: 'emptyTarget', enabled: false }],
    });
    expect(check(mine, 'emptyTarget').enabled).toBe(false);
    // Nothing the linguist was refused was written.
    expect((await ok('GET', `projects/${p.uid}/qaSettingsChecks`, home.headers)).enabledChecks).toContain('EmptyTranslation');
  });
});
