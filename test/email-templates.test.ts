import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_PLACEHOLDERS, placeholdersOf } from '../src/domain/workflow-steps/placeholders.js';
import { DEFAULT_EMAIL_TEMPLATES, EMAIL_TEMPLATE_TYPES } from '../src/domain/email-templates/email-template-defaults.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { signedInUser } from './factories.js';

/** Issue 5: email templates, listed and read as the spec says; every organization starts with the defaults. */

interface Template {
  id: string;
  uid: string;
  type: string;
  name: string;
  subject: string;
  body: string;
  ccAddress: string | null;
  bccAddress: string | null;
}

describe('email templates', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let headers: Record<string, string>;

  const get = (path: string, h: Record<string, string> = headers) => t.inject({ url: `/api2/v1/emailTemplates${path}`, headers: h });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t, 'ADMIN');
    headers = admin.headers;
  });
  afterAll(() => t.close());

  it('a new organization has one default template per type the product sends', async () => {
    const page = (await get('')).json();
    expect(page.totalElements).toBe(DEFAULT_EMAIL_TEMPLATES.length);
    const types = page.content.map((x: Template) => x.type);
    expect(types).toEqual(DEFAULT_EMAIL_TEMPLATES.map((x) => x.type));
    for (const required of ['JobAssigned', 'JobStatusChanged', 'NextWorkflowStep', 'JobRejected', 'LoginInfo'])
      expect(types).toContain(required);
    for (const template of page.content as Template[]) {
      expect(template.subject.length).toBeGreaterThan(0);
      expect(template.body.length).toBeGreaterThan(0);
      expect(template).toMatchObject({ ccAddress: null, bccAddress: null });
      expect(template.uid).toMatch(/^[0-9A-Za-z]{22}$/);
    }
    const jobAssigned = page.content.find((x: Template) => x.type === 'JobAssigned');
    expect(jobAssigned.body).toContain('{{job.fileName}}');
  });

  it('the defaults use only the documented placeholders and cover only spec types, once each', () => {
    const known = new Set<string>(KNOWN_PLACEHOLDERS);
    for (const template of DEFAULT_EMAIL_TEMPLATES) {
      for (const placeholder of placeholdersOf(template.subject + template.body))
        expect(known.has(placeholder), `${template.type}: ${placeholder}`).toBe(true);
      expect(EMAIL_TEMPLATE_TYPES).toContain(template.type);
    }
    expect(new Set(DEFAULT_EMAIL_TEMPLATES.map((x) => x.type)).size).toBe(DEFAULT_EMAIL_TEMPLATES.length);
  });

  it('filters by type (400 for a type that does not exist) and pages', async () => {
    const jobAssigned = (await get('?type=JobAssigned')).json();
    expect(jobAssigned.totalElements).toBe(1);
    expect(jobAssigned.content[0].type).toBe('JobAssigned');
    expect((await get('?type=CmsQuoteReady')).json()).toMatchObject({ totalElements: 0, content: [] });
    const bad = await get('?type=JobExploded');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errorCode).toBe('InvalidArguments');

    const all = (await get('')).json().content as Template[];
    const second = (await get('?pageSize=5&pageNumber=1')).json();
    expect(second).toMatchObject({
      pageNumber: 1,
      pageSize: 5,
      numberOfElements: 5,
      totalElements: all.length,
      totalPages: Math.ceil(all.length / 5),
    });
    expect(second.content.map((x: Template) => x.uid)).toEqual(all.slice(5, 10).map((x) => x.uid));
  });

  it('reads one template; another organization’s or an unknown one is 404', async () => {
    const [first] = (await get('?type=LoginInfo')).json().content as Template[];
    expect((await get(`/${first!.uid}`)).json()).toEqual(first);
    const other = await signedInUser(t, 'ADMIN');
    expect((await get(`/${first!.uid}`, other.headers)).statusCode).toBe(404);
    expect((await get('/unknownTemplateUid')).statusCode).toBe(404);
    const theirs = (await get('', other.headers)).json().content as Template[];
    expect(theirs.map((x) => x.uid)).not.toContain(first!.uid);
    expect(theirs).toHaveLength(DEFAULT_EMAIL_TEMPLATES.length);
  });

  it('ADMIN and PROJECT_MANAGER read; other roles are refused', async () => {
    const [first] = (await get('')).json().content as Template[];
    const pm = await signedInUser(t, 'PROJECT_MANAGER', admin.organization);
    expect((await get('', pm.headers)).statusCode).toBe(200);
    expect((await get(`/${first!.uid}`, pm.headers)).statusCode).toBe(200);
    for (const role of ['LINGUIST', 'GUEST', 'SUBMITTER'] as const) {
      const { headers: h } = await signedInUser(t, role, admin.organization);
      expect((await get('', h)).statusCode, role).toBe(403);
      expect((await get(`/${first!.uid}`, h)).statusCode, role).toBe(403);
    }
  });
});
