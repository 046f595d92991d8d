import { Writable } from 'node:stream';
import { Migrator, sql } from 'kysely';
import type { Kysely } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { migrations } from '../src/db/migrations/index.js';
import * as workflowStepsMigration from '../src/db/migrations/2026-11-21T1710_workflow_steps_and_organization_defaults.js';
import { DEFAULT_WORKFLOW_STEPS } from '../src/domain/workflow-steps/workflow-steps.js';
import { DEFAULT_EMAIL_TEMPLATES } from '../src/domain/email-templates/email-template-defaults.js';
import { ensureSysAdmin } from '../src/modules/identity/organization-admin/first-start.js';
import { createTestApp, createTestDatabase } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, signedInUser } from './factories.js';

/** Issue 5: workflow steps per organization (defaults, unique names and abbreviations, order, delete rules, access). */

interface Step {
  id: string;
  uid: string;
  name: string;
  abbr: string;
  order: number;
  lqaEnabled: boolean;
}

const SYS = { OPENTMS_SYSADMIN_USERNAME: 'root', OPENTMS_SYSADMIN_PASSWORD: 'system password' };
const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, done) => done() }));

describe('workflow steps', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let headers: Record<string, string>;
  let other: Awaited<ReturnType<typeof signedInUser>>;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, h: Record<string, string> = headers, payload?: unknown) =>
    t.inject({ method, url: `/api2/v1/${path}`, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) });

  async function create(payload: Record<string, unknown>, h = headers): Promise<Step> {
    const response = await api('POST', 'workflowSteps', h, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  async function list(query = '', h = headers): Promise<{ totalElements: number; content: Step[] }> {
    const response = await api('GET', `workflowSteps${query}`, h);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  /** A user made through the API by the ADMIN, logged in. */
  async function user(role: string, extra: Record<string, unknown> = {}) {
    const userName = `u-${newUid().slice(0, 10)}`;
    const response = await t.inject({
      method: 'POST',
      url: '/api2/v3/users',
      headers,
      payload: {
        userName,
        firstName: 'F',
        lastName: 'L',
        email: `${userName}@example.test`,
        password: 'a good password',
        role,
        timezone: 'Europe/Prague',
        ...extra,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const row = await t.database.db.selectFrom('users').selectAll().where('uid', '=', response.json().uid).executeTakeFirstOrThrow();
    return { uid: row.uid, headers: apiToken(await loginAs(t, row, 'a good password')) };
  }

  beforeAll(async () => {
    t = await createTestApp({ env: SYS });
    admin = await signedInUser(t, 'ADMIN');
    headers = admin.headers;
    other = await signedInUser(t, 'ADMIN');
  });
  afterAll(() => t.close());

  it('a new organization starts with Translation, Revision and Client review', async () => {
    const { content, totalElements } = await list('?sort=ORDER');
    expect(totalElements).toBe(3);
    expect(content.map(({ name, abbr, order, lqaEnabled }) => ({ name, abbr, order, lqaEnabled }))).toEqual([
      { name: 'Translation', abbr: 'T', order: 1, lqaEnabled: false },
      { name: 'Revision', abbr: 'R', order: 2, lqaEnabled: true },
      { name: 'Client review', abbr: 'C', order: 3, lqaEnabled: false },
    ]);
    for (const step of content) {
      expect(step.uid).toMatch(/^[0-9A-Za-z]{22}$/);
      expect(step.id).toMatch(/^\d+$/);
    }
  });

  it('an organization created by the SYS_ADMIN has the default steps and email templates; the system organization has none', async () => {
    await ensureSysAdmin(t.database.db, t.config, silent);
    const login = await t.inject({
      method: 'POST',
      url: '/api2/v3/auth/login',
      payload: { userName: 'root', password: 'system password' },
    });
    expect(login.statusCode, login.body).toBe(200);
    const userName = `acme-${newUid().slice(0, 8)}`;
    const created = await t.inject({
      method: 'POST',
      url: '/api2/v1/admin/organizations',
      headers: apiToken(login.json().token),
      payload: {
        name: `Acme ${userName}`,
        admin: { userName, password: 'acme password', email: 'a@acme.test', firstName: 'A', lastName: 'Cme' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const acmeLogin = await t.inject({ method: 'POST', url: '/api2/v3/auth/login', payload: { userName, password: 'acme password' } });
    const acme = apiToken(acmeLogin.json().token);
    expect((await list('?sort=ORDER', acme)).content.map((s) => s.abbr)).toEqual(['T', 'R', 'C']);
    const templates = (await t.inject({ url: '/api2/v1/emailTemplates', headers: acme })).json();
    expect(templates.content.map((x: { type: string }) => x.type)).toEqual(DEFAULT_EMAIL_TEMPLATES.map((x) => x.type));

    const system = await t.database.db.selectFrom('organizations').select('id').where('isSystem', '=', true).executeTakeFirstOrThrow();
    expect(await t.database.db.selectFrom('workflowSteps').select('id').where('organizationId', '=', system.id).execute()).toEqual([]);
    expect(await t.database.db.selectFrom('emailTemplates').select('id').where('organizationId', '=', system.id).execute()).toEqual([]);
  });

  describe('create', () => {
    it('creates a step; without order it comes after the last one; lqaEnabled defaults to false; text is trimmed', async () => {
      const step = await create({ name: '  Post-editing ', abbr: 'PE ' });
      expect(step).toMatchObject({ name: 'Post-editing', abbr: 'PE', lqaEnabled: false });
      const orders = (await list('?sort=ORDER&order=DESC')).content.map((s) => s.order);
      expect(step.order).toBe(orders[0]);
      expect(step.order).toBeGreaterThan(3);
      const explicit = await create({ name: 'Linguistic QA', abbr: 'LQA', order: 2, lqaEnabled: true });
      expect(explicit).toMatchObject({ order: 2, lqaEnabled: true });
      expect((await api('GET', `workflowSteps/${explicit.uid}`)).json()).toEqual(explicit);
    });

    it('refuses invalid fields with 400 and writes nothing', async () => {
      const before = (await list()).totalElements;
      for (const payload of [
        {},
        { abbr: 'X' },
        { name: 'No abbreviation' },
        { name: '   ', abbr: 'B' },
        { name: 'x'.repeat(256), abbr: 'B' },
        { name: 'Too long abbr', abbr: 'ABCD' },
        { name: 'Blank abbr', abbr: '  ' },
        { name: 'Spaced abbr', abbr: 'A B' },
        { name: 'Order zero', abbr: 'OZ', order: 0 },
        { name: 'Order text', abbr: 'OT', order: 'first' },
        { name: 'Order fraction', abbr: 'OF', order: 1.5 },
        { name: 'LQA text', abbr: 'LT', lqaEnabled: 'maybe' },
      ]) {
        const response = await api('POST', 'workflowSteps', headers, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      }
      expect((await list()).totalElements).toBe(before);
    });

    it('keeps names and abbreviations unique in the organization, ignoring case (409)', async () => {
      const sameName = await api('POST', 'workflowSteps', headers, { name: 'TRANSLATION', abbr: 'TR' });
      expect(sameName.statusCode).toBe(409);
      expect(sameName.json()).toMatchObject({
        errorCode: 'NameAlreadyExists',
        errorDetails: [{ field: 'name', message: 'already exists' }],
      });
      const sameAbbr = await api('POST', 'workflowSteps', headers, { name: 'Transcreation', abbr: 't' });
      expect(sameAbbr.statusCode).toBe(409);
      expect(sameAbbr.json()).toMatchObject({
        errorCode: 'AbbreviationAlreadyExists',
        errorDetails: [{ field: 'abbr', message: 'already exists' }],
      });
      // Another organization has its own steps.
      await create({ name: 'Post-editing', abbr: 'PE' }, other.headers);
    });

    it('a race lost at the unique index answers the same 409', async () => {
      // Only the names collide: with the abbreviations colliding too, either index may refuse first.
      const results = await Promise.all([1, 2, 3].map((n) => api('POST', 'workflowSteps', headers, { name: 'Raced step', abbr: `R${n}` })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
      for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().errorCode).toBe('NameAlreadyExists');
    });
  });

  describe('list', () => {
    it('sorts by ID, NAME, ORDER and ABBR in both directions, filters by name and abbreviation, and pages', async () => {
      const all = (await list()).content;
      const ids = all.map((s) => Number(s.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect((await list('?order=DESC')).content.map((s) => Number(s.id))).toEqual([...ids].sort((a, b) => b - a));
      const byName = (await list('?sort=NAME')).content.map((s) => s.name.toLowerCase());
      expect(byName).toEqual([...byName].sort());
      const byAbbrDesc = (await list('?sort=ABBR&order=DESC')).content.map((s) => s.abbr.toLowerCase());
      expect(byAbbrDesc).toEqual([...byAbbrDesc].sort().reverse());
      const byOrder = (await list('?sort=ORDER')).content;
      for (let i = 1; i < byOrder.length; i++) {
        const [a, b] = [byOrder[i - 1]!, byOrder[i]!];
        expect(a.order < b.order || (a.order === b.order && Number(a.id) < Number(b.id))).toBe(true);
      }

      expect((await list('?name=REVIS')).content.map((s) => s.name)).toEqual(['Revision']);
      expect((await list('?name=ion')).content.map((s) => s.name).sort()).toEqual(
        ['Raced step', 'Revision', 'Translation'].filter((n) => n.includes('ion')).sort(),
      );
      expect((await list('?abbr=r')).content.map((s) => s.name)).toEqual(['Revision']);
      expect((await list('?abbr=P')).content).toEqual([]);
      expect((await list('?name=%25')).content).toEqual([]);

      const page = await list('?pageSize=2&pageNumber=1');
      expect(page).toMatchObject({
        totalElements: all.length,
        pageSize: 2,
        pageNumber: 1,
        numberOfElements: 2,
        totalPages: Math.ceil(all.length / 2),
      });
      expect(page.content.map((s) => s.uid)).toEqual(all.slice(2, 4).map((s) => s.uid));
      expect((await api('GET', 'workflowSteps?sort=DATE')).statusCode).toBe(400);
      expect((await api('GET', 'workflowSteps?pageSize=51')).statusCode).toBe(400);
    });

    it('shows only the caller organization’s steps', async () => {
      const mine = new Set((await list()).content.map((s) => s.uid));
      for (const step of (await list('', other.headers)).content) expect(mine.has(step.uid)).toBe(false);
    });
  });

  describe('edit', () => {
    it('changes only the fields given', async () => {
      const step = await create({ name: 'Editable', abbr: 'ED', order: 7 });
      const renamed = await api('PUT', `workflowSteps/${step.uid}`, headers, { name: 'Edited' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json()).toEqual({ ...step, name: 'Edited' });
      const flagged = (await api('PUT', `workflowSteps/${step.uid}`, headers, { lqaEnabled: true, order: 9 })).json();
      expect(flagged).toEqual({ ...step, name: 'Edited', lqaEnabled: true, order: 9 });
      expect((await api('PUT', `workflowSteps/${step.uid}`, headers, {})).json()).toEqual(flagged);
      // The step's own name and abbreviation in another case are not a clash.
      expect((await api('PUT', `workflowSteps/${step.uid}`, headers, { name: 'EDITED', abbr: 'ed' })).json()).toMatchObject({
        name: 'EDITED',
        abbr: 'ed',
      });
    });

    it('refuses clashes (409) and invalid fields (400) and changes nothing', async () => {
      const step = await create({ name: 'Stable', abbr: 'ST' });
      for (const [payload, status, code] of [
        [{ name: 'revision' }, 409, 'NameAlreadyExists'],
        [{ abbr: 'T' }, 409, 'AbbreviationAlreadyExists'],
        [{ name: '' }, 400, null],
        [{ name: '  ' }, 400, 'InvalidArguments'],
        [{ abbr: 'LONG' }, 400, null],
        [{ order: -1 }, 400, null],
        [{ name: 'Fine', abbr: 'X Y' }, 400, 'InvalidArguments'],
      ] as const) {
        const response = await api('PUT', `workflowSteps/${step.uid}`, headers, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(status);
        if (code) expect(response.json().errorCode).toBe(code);
      }
      expect((await api('GET', `workflowSteps/${step.uid}`)).json()).toEqual(step);
      // A null field is an absent one (generated clients send every unset field as null).
      const unchanged = await api('PUT', `workflowSteps/${step.uid}`, headers, { name: null, abbr: null });
      expect(unchanged.statusCode).toBe(200);
      expect(unchanged.json()).toEqual(step);
    });

    it('another organization’s step and an unknown uid are 404', async () => {
      const theirs = await create({ name: 'Theirs', abbr: 'TH' }, other.headers);
      expect((await api('GET', `workflowSteps/${theirs.uid}`)).statusCode).toBe(404);
      expect((await api('PUT', `workflowSteps/${theirs.uid}`, headers, { name: 'Mine now' })).statusCode).toBe(404);
      expect((await api('DELETE', `workflowSteps/${theirs.uid}`)).statusCode).toBe(404);
      expect((await api('GET', `workflowSteps/${theirs.uid}`, other.headers)).json().name).toBe('Theirs');
      expect((await api('GET', 'workflowSteps/doesNotExist')).statusCode).toBe(404);
    });
  });

  describe('delete', () => {
    it('deletes a step and removes it from users’ settings', async () => {
      const step = await create({ name: 'Short-lived', abbr: 'SL' });
      const translation = (await list('?abbr=T')).content[0]!;
      const linguist = await user('LINGUIST', { workflowSteps: [{ uid: step.uid }, { uid: translation.uid }] });
      const before = (await t.inject({ url: `/api2/v3/users/${linguist.uid}`, headers })).json();
      expect(before.workflowSteps.map((s: { uid: string }) => s.uid).sort()).toEqual([step.uid, translation.uid].sort());

      expect((await api('DELETE', `workflowSteps/${step.uid}`)).statusCode).toBe(204);
      expect((await api('GET', `workflowSteps/${step.uid}`)).statusCode).toBe(404);
      expect((await list()).content.some((s) => s.uid === step.uid)).toBe(false);
      const after = (await t.inject({ url: `/api2/v3/users/${linguist.uid}`, headers })).json();
      expect(after.workflowSteps.map((s: { uid: string }) => s.uid)).toEqual([translation.uid]);
      // The user stays editable: the settings hold no reference to a missing step.
      const { userName, firstName, lastName, email, timezone } = after;
      const edited = await t.inject({
        method: 'PUT',
        url: `/api2/v3/users/${linguist.uid}`,
        headers,
        payload: { userName, firstName, lastName, email, timezone, role: 'LINGUIST', workflowSteps: after.workflowSteps },
      });
      expect(edited.statusCode, edited.body).toBe(200);
    });

    it('refuses to delete the organization’s last step (400)', async () => {
      const lonely = await signedInUser(t, 'ADMIN');
      const steps = (await list('', lonely.headers)).content;
      expect(steps).toHaveLength(3);
      expect((await api('DELETE', `workflowSteps/${steps[0]!.uid}`, lonely.headers)).statusCode).toBe(204);
      expect((await api('DELETE', `workflowSteps/${steps[1]!.uid}`, lonely.headers)).statusCode).toBe(204);
      const last = await api('DELETE', `workflowSteps/${steps[2]!.uid}`, lonely.headers);
      expect(last.statusCode).toBe(400);
      expect(last.json().errorCode).toBe('LastWorkflowStep');
      expect((await list('', lonely.headers)).content.map((s) => s.uid)).toEqual([steps[2]!.uid]);
    });

    it('concurrent deletes never leave the organization without a step', async () => {
      const pair = await signedInUser(t, 'ADMIN');
      const steps = (await list('', pair.headers)).content;
      await api('DELETE', `workflowSteps/${steps[0]!.uid}`, pair.headers);
      const results = await Promise.all(steps.slice(1).map((s) => api('DELETE', `workflowSteps/${s.uid}`, pair.headers)));
      expect(results.map((r) => r.statusCode).sort()).toEqual([204, 400]);
      expect((await list('', pair.headers)).totalElements).toBe(1);
    });

    it('a step that a restricting reference (projects, templates) uses is not deleted (409)', async () => {
      // Projects arrive in issue 6; a table of the same kind stands in for them here.
      const db = t.database.db as unknown as Kysely<unknown>;
      await db.schema
        .createTable('test_step_users')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('workflow_step_id', t.database.dialect === 'postgres' ? 'bigint' : 'integer', (c) =>
          c.notNull().references('workflow_steps.id'),
        )
        .execute();
      const step = await create({ name: 'In use', abbr: 'IU' });
      await sql`insert into test_step_users (id, workflow_step_id) values (1, ${step.id})`.execute(db);
      const response = await api('DELETE', `workflowSteps/${step.uid}`);
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().errorCode).toBe('WorkflowStepInUse');
      expect((await api('GET', `workflowSteps/${step.uid}`)).statusCode).toBe(200);
      await db.schema.dropTable('test_step_users').execute();
      expect((await api('DELETE', `workflowSteps/${step.uid}`)).statusCode).toBe(204);
    });
  });

  describe('access', () => {
    it('ADMIN, PROJECT_MANAGER and LINGUIST read; GUEST and SUBMITTER do not', async () => {
      const step = (await list()).content[0]!;
      for (const role of ['PROJECT_MANAGER', 'LINGUIST']) {
        const { headers: h } = await signedInUser(t, role as 'LINGUIST', admin.organization);
        expect((await api('GET', 'workflowSteps', h)).statusCode, role).toBe(200);
        expect((await api('GET', `workflowSteps/${step.uid}`, h)).statusCode, role).toBe(200);
        if (role === 'LINGUIST') expect((await api('POST', 'workflowSteps', h, { name: 'By linguist', abbr: 'BL' })).statusCode).toBe(403);
      }
      for (const role of ['GUEST', 'SUBMITTER'] as const) {
        const { headers: h } = await signedInUser(t, role, admin.organization);
        expect((await api('GET', 'workflowSteps', h)).statusCode, role).toBe(403);
        expect((await api('GET', `workflowSteps/${step.uid}`, h)).statusCode, role).toBe(403);
      }
    });

    it('a PROJECT_MANAGER writes only with the setupServer right', async () => {
      const without = await user('PROJECT_MANAGER', { setupServer: false });
      const withRight = await user('PROJECT_MANAGER', { setupServer: true });
      expect((await api('GET', 'workflowSteps', without.headers)).statusCode).toBe(200);
      expect((await api('POST', 'workflowSteps', without.headers, { name: 'By PM', abbr: 'PM' })).statusCode).toBe(403);
      const step = await create({ name: 'By PM', abbr: 'PM' }, withRight.headers);
      expect((await api('PUT', `workflowSteps/${step.uid}`, without.headers, { name: 'Renamed by PM' })).statusCode).toBe(403);
      expect((await api('DELETE', `workflowSteps/${step.uid}`, without.headers)).statusCode).toBe(403);
      expect((await api('PUT', `workflowSteps/${step.uid}`, withRight.headers, { name: 'Renamed by PM' })).statusCode).toBe(200);
      expect((await api('DELETE', `workflowSteps/${step.uid}`, withRight.headers)).statusCode).toBe(204);
    });
  });
});

describe('the migration that introduced workflow steps', () => {
  it('gives organizations that existed before it the default steps and email templates (not the system organization)', async () => {
    const { database, drop, schema } = await createTestDatabase({ migrate: false });
    try {
      const names = Object.keys(migrations).sort();
      const target = '2026-11-21T1710_workflow_steps_and_organization_defaults';
      const before = names[names.indexOf(target) - 1]!;
      const migrator = new Migrator({
        db: database.db,
        provider: { getMigrations: async () => migrations },
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      expect((await migrator.migrateTo(before)).error).toBeUndefined();
      const db = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const at = new Date().toISOString();
      const flag = (value: boolean) => (database.dialect === 'postgres' ? value : Number(value));
      await db
        .insertInto('organizations')
        .values([
          { uid: newUid(), name: 'Existing one', created_at: at, is_system: flag(false) },
          { uid: newUid(), name: 'Existing two', created_at: at, is_system: flag(false) },
          { uid: newUid(), name: 'System', created_at: at, is_system: flag(true) },
        ])
        .execute();
      expect((await migrator.migrateTo(target)).error).toBeUndefined();

      const orgs = await database.db.selectFrom('organizations').select(['id', 'name']).orderBy('id').execute();
      for (const org of orgs) {
        const steps = await database.db
          .selectFrom('workflowSteps')
          .selectAll()
          .where('organizationId', '=', org.id)
          .orderBy('orderIndex')
          .execute();
        const templates = await database.db
          .selectFrom('emailTemplates')
          .selectAll()
          .where('organizationId', '=', org.id)
          .orderBy('id')
          .execute();
        if (org.name === 'System') {
          expect(steps).toEqual([]);
          expect(templates).toEqual([]);
          continue;
        }
        expect(steps.map((s) => ({ name: s.name, abbr: s.abbr, order: s.orderIndex, lqaEnabled: Boolean(s.lqaEnabled) }))).toEqual([
          ...DEFAULT_WORKFLOW_STEPS,
        ]);
        for (const s of steps) expect(s.uid).toMatch(/^[0-9A-Za-z]{22}$/);
        expect(templates.map((x) => ({ type: x.type, name: x.name, subject: x.subject, body: x.body }))).toEqual([
          ...DEFAULT_EMAIL_TEMPLATES,
        ]);
        expect(templates.every((x) => Boolean(x.isDefault))).toBe(true);
      }
      // The rest of the migrations still apply on top.
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
    } finally {
      await drop();
    }
  });

  it('repeats the application’s defaults word for word', () => {
    expect(workflowStepsMigration.DEFAULT_WORKFLOW_STEPS).toEqual([...DEFAULT_WORKFLOW_STEPS]);
    expect(workflowStepsMigration.DEFAULT_EMAIL_TEMPLATES).toEqual([...DEFAULT_EMAIL_TEMPLATES]);
  });
});
