import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import { signedInUser } from './factories.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import type { Headers } from './support/api.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/**
 * Issue 13, "Outbound URLs are checked when stored": every URL OpenTMS stores to call later (the
 * callbackUrl of asynchronous operations, webhook URLs) that the outbound policy would refuse at
 * delivery gets a 400 InvalidCallbackUrl at the request that stores it, and nothing is stored.
 */

/** URLs the default policy refuses, whatever the host resolves to. */
const REFUSED: Array<[string, string, RegExp]> = [
  ['loopback', 'http://127.0.0.1:8080/callback', /127\.0\.0\.1 is a loopback address/],
  ['a private address', 'http://10.1.2.3/callback', /10\.1\.2\.3 is a private network address/],
  ['the cloud metadata service', 'http://169.254.169.254/latest/meta-data/', /link-local/],
  ['localhost', 'http://localhost:3000/cb', /localhost is the local host/],
  ['IPv6 loopback', 'http://[::1]/cb', /::1 is a loopback address/],
  ['loopback spelled as a number', 'http://2130706433/cb', /127\.0\.0\.1 is a loopback address/],
  ['an ftp URL', 'ftp://hooks.example.test/cb', /Only http and https/],
  ['credentials in the URL', 'https://user:pass@hooks.example.test/cb', /user name or password/],
  ['no URL at all', 'not-a-url', /not a valid absolute URL/],
];

const ACCEPTED = 'https://hooks.example.test/opentms/callback?source=tms';

describe('URLs that OpenTMS calls later are checked when they are stored', () => {
  let t: TestApp;
  let organization: OrganizationRow;
  let admin: UserRow;
  let headers: Headers;
  let project: ProjectRow;

  beforeAll(async () => {
    t = await createTestApp();
    ({ organization, user: admin, headers } = await signedInUser(t, 'ADMIN'));
    project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de'], workflowStepUids: [] });
  });
  afterAll(() => t.close());

  const disposition = (name: string) => `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;
  const octetStream = (url: string, memsource: unknown) =>
    t.inject({
      method: 'POST',
      url,
      headers: {
        ...headers,
        'content-type': 'application/octet-stream',
        'content-disposition': disposition('strings.txt'),
        memsource: JSON.stringify(memsource),
      },
      payload: Buffer.from('Hello world.', 'utf8'),
    });

  /** Rows of the tables a refused request must leave alone. */
  async function counts() {
    const db = t.database.db;
    const count = async (table: 'jobs' | 'jobSources' | 'asyncRequests' | 'tasks' | 'webhooks' | 'projects' | 'storedFiles') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      jobs: await count('jobs'),
      jobSources: await count('jobSources'),
      asyncRequests: await count('asyncRequests'),
      tasks: await count('tasks'),
      webhooks: await count('webhooks'),
      projects: await count('projects'),
      storedFiles: await count('storedFiles'),
    };
  }

  function expectRefused(response: { statusCode: number; json(): unknown }, field: string, reason: RegExp, name: string) {
    expect(response.statusCode, name).toBe(400);
    const body = response.json() as {
      errorCode: string;
      errorDescription: string;
      errorDetails: Array<{ field: string; message: string }>;
    };
    expect(body.errorCode, name).toBe('InvalidCallbackUrl');
    expect(body.errorDescription, name).toMatch(new RegExp(`^Invalid ${field}: `));
    expect(body.errorDescription, name).toMatch(reason);
    expect(body.errorDetails, name).toEqual([{ field, message: expect.stringMatching(reason) }]);
  }

  it('createJob: a callbackUrl the policy refuses is a 400 and stores nothing', async () => {
    const before = await counts();
    for (const [name, callbackUrl, reason] of REFUSED) {
      expectRefused(
        await octetStream(`/api2/v1/projects/${project.uid}/jobs`, { targetLangs: ['de'], callbackUrl }),
        'callbackUrl',
        reason,
        name,
      );
    }
    // The same in the json part of a multipart upload.
    const boundary = '----opentms-test';
    const multipart = [
      `--${boundary}\r\nContent-Disposition: form-data; name="json"\r\n\r\n${JSON.stringify({ targetLangs: ['de'], callbackUrl: 'http://192.168.1.1/' })}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nHello.\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const response = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs`,
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: multipart,
    });
    expectRefused(response, 'callbackUrl', /192\.168\.1\.1 is a private network address/, 'multipart');
    expect(await counts()).toEqual(before);
  });

  it('createJob: a public callbackUrl is stored as given, and no callbackUrl stays null', async () => {
    const created = await octetStream(`/api2/v1/projects/${project.uid}/jobs`, { targetLangs: ['de'], callbackUrl: ACCEPTED });
    expect(created.statusCode).toBe(201);
    const asyncRequestId = (created.json() as { asyncRequest: { id: string } }).asyncRequest.id;
    const stored = await t.database.db
      .selectFrom('asyncRequests')
      .select('callbackUrl')
      .where('id', '=', asyncRequestId)
      .executeTakeFirstOrThrow();
    expect(stored.callbackUrl).toBe(ACCEPTED);
    for (const callbackUrl of [null, '']) {
      const plain = await octetStream(`/api2/v1/projects/${project.uid}/jobs`, { targetLangs: ['de'], callbackUrl });
      expect(plain.statusCode).toBe(201);
    }
  });

  it('updateSource and updateTarget: a refused callbackUrl is a 400 and stores nothing', async () => {
    const {
      jobs: [job],
    } = await makeJobs(t, project, { targetLangs: ['de'] });
    const before = await counts();
    for (const [name, callbackUrl, reason] of REFUSED) {
      const memsource = { jobs: [{ uid: job!.uid }], callbackUrl };
      expectRefused(await octetStream(`/api2/v1/projects/${project.uid}/jobs/source`, memsource), 'callbackUrl', reason, `source: ${name}`);
      expectRefused(await octetStream(`/api2/v1/projects/${project.uid}/jobs/target`, memsource), 'callbackUrl', reason, `target: ${name}`);
    }
    expect(await counts()).toEqual(before);
  });

  it('createProjectFromTemplateV2Async: a refused callbackUrl is a 400 and creates nothing', async () => {
    const template = await t.inject({
      method: 'POST',
      url: '/api2/v1/projectTemplates',
      headers,
      payload: { name: 'Callback template', project: { uid: project.uid } },
    });
    expect(template.statusCode).toBe(201);
    const templateUid = (template.json() as { uid: string }).uid;
    const before = await counts();
    for (const [name, callbackUrl, reason] of REFUSED) {
      const response = await t.inject({
        method: 'POST',
        url: `/api2/v2/projects/applyTemplate/async/${templateUid}`,
        headers,
        payload: { name: 'From template', callbackUrl },
      });
      expectRefused(response, 'callbackUrl', reason, name);
    }
    expect(await counts()).toEqual(before);
    const accepted = await t.inject({
      method: 'POST',
      url: `/api2/v2/projects/applyTemplate/async/${templateUid}`,
      headers,
      payload: { name: 'From template', callbackUrl: ACCEPTED },
    });
    expect(accepted.statusCode).toBe(202);
  });

  it('webhooks: a refused URL is a 400 on create and on update, and changes nothing', async () => {
    const before = await counts();
    for (const [name, url, reason] of REFUSED) {
      const response = await t.inject({ method: 'POST', url: '/api2/v2/webhooks', headers, payload: { url, events: ['JOB_CREATED'] } });
      expectRefused(response, 'url', reason, name);
    }
    expect(await counts()).toEqual(before);
    const created = await t.inject({
      method: 'POST',
      url: '/api2/v2/webhooks',
      headers,
      payload: { url: ACCEPTED, events: ['JOB_CREATED'] },
    });
    expect(created.statusCode).toBe(201);
    const uid = (created.json() as { uid: string }).uid;
    for (const [name, url, reason] of REFUSED) {
      const response = await t.inject({
        method: 'PUT',
        url: `/api2/v2/webhooks/${uid}`,
        headers,
        payload: { url, events: ['JOB_CREATED'] },
      });
      expectRefused(response, 'url', reason, `update: ${name}`);
    }
    const stored = await t.inject({ url: `/api2/v2/webhooks/${uid}`, headers });
    expect((stored.json() as { url: string }).url).toBe(ACCEPTED);
  });
});

describe('with OPENTMS_ALLOW_PRIVATE_CALLBACKS=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { OPENTMS_ALLOW_PRIVATE_CALLBACKS: 'true' } });
  });
  afterAll(() => t.close());

  it('accepts loopback and private callback and webhook URLs, but still refuses what is never callable', async () => {
    const { organization, user, headers } = await signedInUser(t, 'ADMIN');
    const project = await makeProject(t, organization.id, { createdById: user.id, targetLangs: ['de'], workflowStepUids: [] });
    const upload = (callbackUrl: string) =>
      t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${project.uid}/jobs`,
        headers: {
          ...headers,
          'content-type': 'application/octet-stream',
          'content-disposition': "attachment; filename*=UTF-8''a.txt",
          memsource: JSON.stringify({ targetLangs: ['de'], callbackUrl }),
        },
        payload: Buffer.from('Hello.'),
      });
    expect((await upload('http://127.0.0.1:8080/callback')).statusCode).toBe(201);
    expect((await upload('http://localhost:8080/callback')).statusCode).toBe(201);
    expect((await upload('ftp://127.0.0.1/callback')).json()).toMatchObject({ errorCode: 'InvalidCallbackUrl' });
    const webhook = await t.inject({
      method: 'POST',
      url: '/api2/v2/webhooks',
      headers,
      payload: { url: 'http://10.0.0.5/hook', events: ['JOB_CREATED'] },
    });
    expect(webhook.statusCode).toBe(201);
  });
});
