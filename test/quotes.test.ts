import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import type { ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { parseRoleSettings } from '../src/domain/users/role-settings.js';
import { analysisTask } from '../src/modules/quoting/analyses/index.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { waitFor } from './support/wait.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/**
 * Issue 15: quotes over HTTP, priced from the analysis worked example (docs/analysis.md, "Quotes"):
 * 14.55 weighted words, 83 weighted characters; every total below is computed by hand. Emails go
 * to a real SMTP server listening on loopback (smtp-server) and are parsed back (mailparser).
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

interface Received {
  rcptTo: string[];
  mail: ParsedMail;
}

describe('quotes', () => {
  let t: TestApp;
  let worker: Worker;
  let smtp: SMTPServer;
  const received: Received[] = [];
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let headers: Headers;
  let project: ProjectRow;
  let analysis: { id: string; uid: string };
  let partId: string;
  let translationStepId: string;
  let linguist: { uid: string; email: string };

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t, '/api2/')(...args);
  async function ok(method: Method, url: string, payload?: unknown, status = 200, as = headers): Promise<any> {
    const response = await api(method, url, as, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }
  async function refused(method: Method, url: string, payload: unknown, status: number, errorCode: string, as = headers) {
    const response = await api(method, url, as, payload);
    expect([response.statusCode, response.json().errorCode], response.body).toEqual([status, errorCode]);
    return response.json() as { errorDescription: string };
  }

  const SEGMENTS = [
    'Welcome.',
    'Open the file.',
    'Close the window.',
    'You have 5 new messages.',
    'Print the page.',
    'Open the file.',
    '12.5 %',
    'Delete the selected file now.',
    'Delete the selected files now.',
  ];

  /** A price list with the pair en → de: `prices` per workflow step id, and a minimum price. */
  async function priceList(billingUnit: string, prices: Record<string, number>, minimumPrice = 0, currencyCode = 'EUR', targetLang = 'de') {
    const list = await ok('POST', 'v1/priceLists', { name: uniqueName('Prices'), currencyCode, billingUnit }, 201);
    await ok('POST', `v1/priceLists/${list.uid}/priceSets`, { sourceLanguages: ['en'], targetLanguages: [targetLang] }, 201);
    for (const [stepId, price] of Object.entries(prices)) {
      await ok('POST', `v1/priceLists/${list.uid}/priceSets/prices`, { price, workflowSteps: [{ id: stepId }] });
    }
    if (minimumPrice) await ok('POST', `v1/priceLists/${list.uid}/priceSets/minimumPrices`, { minimumPrice });
    return list as { id: string; uid: string };
  }
  const quoteBody = (list: { id: string }, extra: object = {}) => ({
    name: 'Quote',
    project: { uid: project.uid },
    analyse: { id: analysis.id },
    priceList: { id: list.id },
    ...extra,
  });

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream).then(
          (mail) => {
            received.push({ rcptTo: session.envelope.rcptTo.map((r) => r.address), mail });
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    t = await createTestApp({ env: { OPENTMS_SMTP_URL: `smtp://127.0.0.1:${port}`, OPENTMS_MAIL_FROM: 'Quotes <quotes@opentms.test>' } });
    home = await signedInUser(t, 'ADMIN');
    headers = home.headers;
    const user = await makeUser(t.database.db, home.organization, { role: 'LINGUIST', firstName: 'Lina', lastName: 'Linguist' });
    linguist = { uid: user.uid, email: user.email };
    project = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de'] });
    worker = startWorker(t.deps, createTaskRegistry([analysisTask]), { listenConnectionString: null });
    const tm = await ok('POST', 'v1/transMemories', { name: uniqueName('TM'), sourceLang: 'en', targetLangs: ['de'] }, 201);
    const insert = (body: object) => ok('POST', `v1/transMemories/${tm.uid}/segments`, { targetLang: 'de', ...body }, 204);
    await insert({
      sourceSegment: 'Open the file.',
      targetSegment: 'Öffnen Sie die Datei.',
      previousSourceSegment: 'Welcome.',
      nextSourceSegment: 'Close the window.',
    });
    await insert({ sourceSegment: 'You have 3 new messages.', targetSegment: 'Sie haben 3 neue Nachrichten.' });
    await insert({ sourceSegment: 'Print the page.', targetSegment: 'Drucken Sie die Seite.', previousSourceSegment: 'Elsewhere.' });
    await ok('PUT', `v3/projects/${project.uid}/transMemories`, {
      dataPerContext: [{ transMemories: [{ transMemory: { uid: tm.uid }, readMode: true, writeMode: false }] }],
    });
    const made = await makeJobs(t, project, {
      filename: 'example.txt',
      segments: SEGMENTS,
      targetLangs: ['de'],
      createdById: home.user.id,
    });
    const scheme = await ok(
      'POST',
      'v1/netRateSchemes',
      { name: uniqueName('Scheme'), rates: { repetition: 10, tm101: 5, tm100: 20, tm95: 50, tm0: 100, nt100: 0, if95: 40 } },
      201,
    );
    const created = await ok('POST', 'v2/analyses', {
      jobs: [{ uid: made.jobs[0]!.uid }],
      includeNonTranslatables: true,
      separateFuzzyRepetitions: true,
      netRateScheme: { id: scheme.id },
    });
    const item = created.asyncRequests[0];
    t.deps.taskWakeup.notify();
    await waitFor('the analysis', async () => {
      const r = await t.database.db
        .selectFrom('asyncRequests')
        .selectAll()
        .where('id', '=', item.asyncRequest.id)
        .executeTakeFirstOrThrow();
      return r.finishedAt ? r : null;
    });
    analysis = item.analyse;
    const full = await ok('GET', `v3/analyses/${analysis.uid}`);
    expect(full.analyseLanguageParts[0].discountedData.all.words).toBe(14.55);
    partId = full.analyseLanguageParts[0].id;
    const step = await t.database.db
      .selectFrom('workflowSteps')
      .select('id')
      .where('organizationId', '=', home.organization.id)
      .where('name', '=', 'Translation')
      .executeTakeFirstOrThrow();
    translationStepId = String(step.id);
  });
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('prices the worked example: 14.55 weighted words × 0.12 EUR = 1.746, rounded to 1.75', async () => {
    const list = await priceList('Word', { [translationStepId]: 0.12 });
    const quote = await ok('POST', 'v2/quotes', quoteBody(list, { name: 'Worked example' }), 201);
    expect(quote).toMatchObject({
      name: 'Worked example',
      status: 'NEW',
      currency: 'EUR',
      billingUnit: 'Word',
      totalPrice: 1.75,
      priceList: { id: list.id, uid: list.uid },
      workflowStepList: [{ id: translationStepId, name: 'Translation' }],
      quoteType: 'BUYER',
      editable: true,
      outdated: false,
      additionalSteps: [],
      createdBy: { uid: home.user.uid },
    });
    // The analysis's scheme weighs it (the body names none).
    expect(quote.netRateScheme).toBeDefined();
    const row = await t.database.db.selectFrom('quotes').selectAll().where('uid', '=', quote.uid).executeTakeFirstOrThrow();
    expect(row.totalPrice).toBe('1.75');
    expect(JSON.parse(row.breakdown).parts[0]).toMatchObject({
      steps: [{ units: '14.55', price: '0.12', amount: '1.746' }],
      amount: '1.746',
    });

    const got = await ok('GET', `v1/quotes/${quote.uid}`);
    expect(got).toMatchObject({ uid: quote.uid, totalPrice: 1.75 });
    expect(got.additionalSteps).toBeUndefined();
    expect((await ok('GET', `v1/quotes/${quote.id}`)).uid).toBe(quote.uid);
    const page = await ok('GET', `v1/projects/${project.uid}/quotes`);
    expect(page.content.map((q: any) => q.uid)).toContain(quote.uid);
  });

  it('charges at least the minimum price of the price set: 1.746 < 5 gives 5.00', async () => {
    const list = await priceList('Word', { [translationStepId]: 0.12 }, 5);
    expect((await ok('POST', 'v2/quotes', quoteBody(list), 201)).totalPrice).toBe(5);
  });

  it('a net rate scheme in the body replaces the analysis’s: at 100 % everywhere, 29 words × 0.12 = 3.48', async () => {
    const list = await priceList('Word', { [translationStepId]: 0.12 });
    const full = await ok(
      'POST',
      'v1/netRateSchemes',
      {
        name: uniqueName('Full'),
        rates: Object.fromEntries(['repetition', 'tm101', 'tm100', 'tm95', 'nt100', 'if95'].map((b) => [b, 100])),
      },
      201,
    );
    const quote = await ok('POST', 'v2/quotes', quoteBody(list, { netRateScheme: { id: full.id } }), 201);
    expect([quote.totalPrice, quote.netRateScheme.id]).toEqual([3.48, full.id]);
  });

  it('Character: 83 weighted characters × 0.01 = 0.83; Page: 83 / 1,800 = 0.05 pages × 20 = 1.00', async () => {
    // Characters of each band × its rate, half up: 14 × 5 % = 1, 15 × 20 % = 3, 24 × 50 % = 12, 14 × 10 % = 1, 6 × 0 = 0, 30 × 40 % = 12, 54 × 100 % = 54.
    const chars = await priceList('Character', { [translationStepId]: 0.01 });
    expect((await ok('POST', 'v2/quotes', quoteBody(chars), 201)).totalPrice).toBe(0.83);
    const pages = await priceList('Page', { [translationStepId]: 20 });
    const quote = await ok('POST', 'v2/quotes', quoteBody(pages), 201);
    expect([quote.billingUnit, quote.totalPrice]).toEqual(['Page', 1]);
  });

  it('Hour: the hours the request gives per language part (2.5 h × 40 = 100.00); v1 refuses Hour price lists', async () => {
    const list = await priceList('Hour', { [translationStepId]: 40 });
    const quote = await ok('POST', 'v2/quotes', quoteBody(list, { units: [{ analyseLanguagePart: { id: partId }, value: 2.5 }] }), 201);
    expect([quote.billingUnit, quote.totalPrice]).toEqual(['Hour', 100]);
    // The step's own hours win over the part's.
    const perStep = await ok(
      'POST',
      'v2/quotes',
      quoteBody(list, {
        units: [{ analyseLanguagePart: { id: partId }, value: 2.5 }],
        workflowSettings: [{ workflowStep: { id: translationStepId }, units: [{ analyseLanguagePart: { id: partId }, value: 1.25 }] }],
      }),
      201,
    );
    expect(perStep.totalPrice).toBe(50);
    await refused('POST', 'v2/quotes', quoteBody(list), 400, 'InvalidArguments');
    await refused(
      'POST',
      'v2/quotes',
      quoteBody(list, { units: [{ analyseLanguagePart: { id: '999999' }, value: 1 }] }),
      400,
      'ReferenceNotFound',
    );
    const v1 = await refused('POST', 'v1/quotes', quoteBody(list), 400, 'HourBillingNotSupported');
    expect(v1.errorDescription).toMatch(/billing unit Hour/);
  });

  it('v1 creates a quote from the same body and answers QuoteDto', async () => {
    const list = await priceList('Word', { [translationStepId]: 0.12 });
    const quote = await ok('POST', 'v1/quotes', quoteBody(list), 201);
    expect(quote.totalPrice).toBe(1.75);
    expect(quote.additionalSteps).toBeUndefined();
  });

  it('lists additional workflow steps by name; an unknown name is 400', async () => {
    const list = await priceList('Word', { [translationStepId]: 0.12 });
    const dtp = await ok('POST', 'v1/additionalWorkflowSteps', { name: uniqueName('DTP') }, 201);
    const quote = await ok('POST', 'v2/quotes', quoteBody(list, { additionalSteps: [dtp.name] }), 201);
    expect(quote.additionalSteps).toEqual([{ id: dtp.id, name: dtp.name }]);
    expect(quote.totalPrice).toBe(1.75);
    const error = await refused('POST', 'v2/quotes', quoteBody(list, { additionalSteps: ['No such step'] }), 400, 'ReferenceNotFound');
    expect(error.errorDescription).toMatch(/No such step/);
  });

  it('refuses a price list without the language pair, an unfinished analysis and an analysis of another project', async () => {
    const french = await priceList('Word', { [translationStepId]: 0.12 }, 0, 'EUR', 'fr');
    const missing = await refused('POST', 'v2/quotes', quoteBody(french), 400, 'NoPriceForLanguagePair');
    expect(missing.errorDescription).toMatch(/en → de/);
    const list = await priceList('Word', { [translationStepId]: 0.12 });
    const running = await t.database.db
      .insertInto('analyses')
      .values({
        uid: newUid(),
        organizationId: home.organization.id,
        projectId: project.id,
        innerId: 99,
        type: 'PreAnalyse',
        name: 'Running',
        providerUserId: null,
        providerVendorId: null,
        netRateSchemeId: null,
        settings: '{}',
        status: 'RUNNING',
        errorMessage: null,
        asyncRequestId: null,
        createdAt: t.clock().toISOString(),
        createdById: home.user.id,
        deletedAt: null,
      })
      .returning(['id'])
      .executeTakeFirstOrThrow();
    await refused('POST', 'v2/quotes', quoteBody(list, { analyse: { id: String(running.id) } }), 409, 'AnalysisNotFinished');
    const other = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de'] });
    await refused('POST', 'v2/quotes', { ...quoteBody(list), project: { uid: other.uid } }, 400, 'InvalidArguments');
    await refused('POST', 'v2/quotes', quoteBody(list, { analyse: { id: '999999' } }), 400, 'ReferenceNotFound');
  });

  it('deleting needs edit rights on the project; another organization sees no quote', async () => {
    const list = await priceList('Word', { [translationStepId]: 0.12 });
    const quote = await ok('POST', 'v2/quotes', quoteBody(list), 201);
    const pm = await makeUser(t.database.db, home.organization, { role: 'PROJECT_MANAGER' });
    await t.database.db
      .updateTable('users')
      .set({ roleSettings: JSON.stringify(parseRoleSettings('PROJECT_MANAGER', JSON.stringify({ rights: { projectEditOther: false } }))) })
      .where('id', '=', pm.id)
      .execute();
    const viewer = apiToken(await loginAs(t, pm));
    expect((await ok('GET', `v1/quotes/${quote.uid}`, undefined, 200, viewer)).uid).toBe(quote.uid);
    await refused('DELETE', `v1/quotes/${quote.uid}`, undefined, 403, 'AccessDenied', viewer);
    const stranger = (await signedInUser(t, 'ADMIN')).headers;
    await refused('GET', `v1/quotes/${quote.uid}`, undefined, 404, 'ResourceNotFound', stranger);
    await refused('DELETE', `v1/quotes/${quote.uid}`, undefined, 404, 'ResourceNotFound', stranger);
    await ok('DELETE', `v1/quotes/${quote.uid}`, undefined, 204);
    await refused('GET', `v1/quotes/${quote.uid}`, undefined, 404, 'ResourceNotFound');
  });

  it('emails a quote to its provider through the SMTP server, with subject, body, cc and bcc', async () => {
    const list = await priceList('Word', { [translationStepId]: 0.12 });
    const quote = await ok('POST', 'v2/quotes', quoteBody(list, { name: 'For Lina', provider: { type: 'USER', uid: linguist.uid } }), 201);
    expect(quote).toMatchObject({ quoteType: 'PROVIDER', provider: { type: 'USER', uid: linguist.uid } });
    const before = received.length;
    const answer = await ok('POST', 'v1/quotes/email', {
      quotes: [{ uid: quote.uid }],
      subject: 'Quote {{quote.name}}',
      body: 'Hello {{recipient.firstName}}, the total is {{quote.totalPrice}} {{quote.currency}}.',
      cc: 'pm@example.test',
      bcc: 'archive@example.test',
    });
    expect(answer).toEqual({ recipients: [linguist.email] });
    expect(received.length).toBe(before + 1);
    const { rcptTo, mail } = received.at(-1)!;
    expect([...rcptTo].sort()).toEqual([linguist.email, 'archive@example.test', 'pm@example.test'].sort());
    expect(mail.subject).toBe('Quote For Lina');
    expect(mail.text?.trim()).toBe('Hello Lina, the total is 1.75 EUR.');
    expect(mail.from?.value[0]?.address).toBe('quotes@opentms.test');
    expect((Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value.map((a) => a.address)).toEqual([linguist.email]);
    expect((Array.isArray(mail.cc) ? mail.cc[0] : mail.cc)?.value.map((a) => a.address)).toEqual(['pm@example.test']);
  });

  it('refuses to email when a quote has no provider, and sends nothing', async () => {
    const list = await priceList('Word', { [translationStepId]: 0.12 });
    const withProvider = await ok('POST', 'v2/quotes', quoteBody(list, { provider: { type: 'USER', uid: linguist.uid } }), 201);
    const without = await ok('POST', 'v2/quotes', quoteBody(list), 201);
    const before = received.length;
    const error = await refused(
      'POST',
      'v1/quotes/email',
      { quotes: [{ uid: withProvider.uid }, { uid: without.uid }], subject: 'S', body: 'B' },
      400,
      'QuoteWithoutProvider',
    );
    expect(error.errorDescription).toContain(without.uid);
    expect(received.length).toBe(before);
    await refused(
      'POST',
      'v1/quotes/email',
      { quotes: [{ uid: withProvider.uid }], subject: 'S', body: 'B', cc: 'not an address' },
      400,
      'InvalidArguments',
    );
    await refused('POST', 'v1/quotes/email', { quotes: [{ uid: 'nope' }], subject: 'S', body: 'B' }, 404, 'ResourceNotFound');
  });
});

describe('quotes without a mail server', () => {
  it('answers 400 MailNotConfigured once the quotes are checked', async () => {
    const t = await createTestApp();
    try {
      const { organization, user, headers } = await signedInUser(t, 'ADMIN');
      const project = await makeProject(t, organization.id, { createdById: user.id, targetLangs: ['de'] });
      const quote = await t.database.db
        .insertInto('quotes')
        .values({
          uid: newUid(),
          organizationId: organization.id,
          projectId: project.id,
          analysisId: null,
          priceListId: null,
          netRateSchemeId: null,
          providerUserId: user.id,
          providerVendorId: null,
          name: 'Q',
          status: 'NEW',
          currency: 'EUR',
          billingUnit: 'Word',
          totalPrice: '1.00',
          breakdown: '{}',
          createdAt: t.clock().toISOString(),
          createdById: user.id,
        })
        .returning('uid')
        .executeTakeFirstOrThrow();
      const response = await t.inject({
        method: 'POST',
        url: '/api2/v1/quotes/email',
        headers,
        payload: { quotes: [{ uid: quote.uid }], subject: 'S', body: 'B' },
      });
      expect([response.statusCode, response.json().errorCode]).toEqual([400, 'MailNotConfigured']);
      expect(response.json().errorDescription).toMatch(/OPENTMS_SMTP_URL/);
    } finally {
      await t.close();
    }
  });
});
