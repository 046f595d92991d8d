import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { insertOrganization } from '../src/modules/identity/organizations/organizations.repository.js';
import { createTestApp } from './harness.js';
import { apiCaller } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';

/**
 * Issue 5: vendors (the buyer's side of a link between organizations), buyers (the vendor's
 * side) and the vendor token, with two organizations: a buyer and its vendors.
 */

let stepCounter = 0;

describe('vendors and buyers', () => {
  let t: TestApp;
  let buyer: Awaited<ReturnType<typeof signedInUser>>;
  let vendor: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    buyer = await signedInUser(t, 'ADMIN');
    vendor = await signedInUser(t, 'ADMIN');
  });
  afterAll(() => t.close());

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);

  async function ok(method: Method, url: string, headers: Headers, payload?: unknown, status = 200) {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }

  const tokenOf = async (headers: Headers) => (await ok('GET', 'vendorToken', headers)).vendorToken as string;

  /** A new organization with a signed-in ADMIN (another vendor). */
  async function organization(name = `Org ${newUid().slice(0, 8)}`) {
    const org = await insertOrganization(t.database.db, name);
    const admin = await makeUser(t.database.db, org, { role: 'ADMIN' });
    return { organization: org, admin, headers: apiToken(await loginAs(t, admin)) };
  }

  /** A user of `org` signed in; PROJECT_MANAGER rights through the users API. */
  async function member(adminHeaders: Headers, role: 'PROJECT_MANAGER' | 'LINGUIST', rights: Record<string, boolean> = {}) {
    const userName = `u-${newUid().slice(0, 10)}`;
    const created = await ok(
      'POST',
      '../v3/users',
      adminHeaders,
      {
        userName,
        firstName: 'Pat',
        lastName: 'Member',
        email: `${userName}@example.test`,
        password: 'a good password',
        role,
        timezone: 'Europe/Prague',
        ...rights,
      },
      201,
    );
    const row = await t.database.db.selectFrom('users').selectAll().where('uid', '=', created.uid).executeTakeFirstOrThrow();
    return { uid: row.uid, id: row.id, headers: apiToken(await loginAs(t, row, 'a good password')) };
  }

  const named = async (path: string, headers: Headers, name = `${path} ${newUid().slice(0, 8)}`) =>
    (await ok('POST', path, headers, { name }, 201)) as { uid: string; name: string; id: string };

  /** Workflow steps are another module's records: written directly, with the columns it defines. */
  async function workflowStep(organizationId: string | number, order: number) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const db = t.database.db as unknown as Kysely<any>;
    const n = ++stepCounter;
    return db
      .insertInto('workflowSteps')
      .values({
        uid: newUid(),
        organizationId,
        name: `Step ${n} ${newUid().slice(0, 6)}`,
        abbr: `Q${n}`.slice(0, 3),
        orderIndex: order,
        lqaEnabled: order === 2,
        createdAt: t.clock().toISOString(),
      })
      .returning(['id', 'uid', 'name'])
      .executeTakeFirstOrThrow() as Promise<{ id: string | number; uid: string; name: string }>;
  }

  const vendorCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('vendors')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('vendor token', () => {
    it('is created on first read, stays the same, is long and unguessable, and only ADMIN reads it', async () => {
      const { headers } = await organization();
      const first = await ok('GET', 'vendorToken', headers);
      expect(first.vendorToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      expect(first.dateCreated).toBe(t.clock().toISOString());
      expect((await ok('GET', 'vendorToken', headers)).vendorToken).toBe(first.vendorToken);
      expect(await tokenOf(vendor.headers)).not.toBe(first.vendorToken);
      const pm = await member(headers, 'PROJECT_MANAGER');
      expect((await api('GET', 'vendorToken', pm.headers)).statusCode).toBe(403);
      expect((await api('POST', 'vendorToken/regenerate', pm.headers)).statusCode).toBe(403);
    });

    it('regenerating replaces the token: the old one no longer links, existing links stay', async () => {
      const other = await organization();
      const old = await tokenOf(other.headers);
      const linked = await ok('POST', 'vendors', buyer.headers, { vendorToken: old }, 201);
      const fresh = await ok('POST', 'vendorToken/regenerate', other.headers);
      expect(fresh.vendorToken).not.toBe(old);
      expect(fresh.vendorToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      expect(await tokenOf(other.headers)).toBe(fresh.vendorToken);

      const second = await organization();
      const refused = await api('POST', 'vendors', second.headers, { vendorToken: old });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errorCode).toBe('InvalidVendorToken');
      await ok('POST', 'vendors', second.headers, { vendorToken: fresh.vendorToken }, 201);
      expect((await ok('GET', `vendors/${linked.uid}`, buyer.headers)).vendorToken).toBe(old);
    });
  });

  describe('linking (createVendor)', () => {
    it('links a vendor by its token with locales and the buyer’s own clients, domains, subdomains and workflow steps', async () => {
      const client = await named('clients', buyer.headers);
      const domain = await named('domains', buyer.headers);
      const subDomain = await named('subDomains', buyer.headers);
      const review = await workflowStep(buyer.organization.id, 2);
      const translation = await workflowStep(buyer.organization.id, 1);
      const { organization: vendorOrg, headers } = await organization('Lingua Vendor s.r.o.');
      const created = await ok(
        'POST',
        'vendors',
        buyer.headers,
        {
          vendorToken: await tokenOf(headers),
          sourceLocales: ['en'],
          targetLocales: ['de', 'cs', 'de'],
          clients: [{ uid: client.uid }],
          domains: [{ uid: domain.uid }],
          subDomains: [{ uid: subDomain.uid }],
          workflowSteps: [{ uid: review.uid }, { uid: translation.uid }],
          priceList: null,
          netRateScheme: null,
        },
        201,
      );
      expect(created).toMatchObject({
        name: vendorOrg.name,
        sourceLocales: ['en'],
        targetLocales: ['de', 'cs'],
        clients: [{ uid: client.uid, name: client.name, id: client.id }],
        domains: [{ uid: domain.uid, name: domain.name }],
        subDomains: [{ uid: subDomain.uid, name: subDomain.name }],
        // In the organization's workflow order, whatever the order given.
        workflowSteps: [
          { uid: translation.uid, name: translation.name, order: 1, lqaEnabled: false, id: String(translation.id) },
          { uid: review.uid, order: 2, lqaEnabled: true },
        ],
        priceList: null,
        netRateScheme: null,
        active: true,
        buyerOwner: null,
        createdBy: { uid: buyer.user.uid, userName: buyer.user.userName },
        dateCreated: t.clock().toISOString(),
        timezone: 'Europe/London',
      });
      expect(created.uid).toHaveLength(22);
      expect(typeof created.id).toBe('string');
      expect(await ok('GET', `vendors/${created.uid}`, buyer.headers)).toEqual(created);
      const listed = await ok('GET', `vendors?name=${encodeURIComponent('lingua vendor')}`, buyer.headers);
      expect(listed.content).toEqual([created]);
    });

    it('refuses an unknown token, the caller’s own token, and a vendor linked already', async () => {
      const unknown = await api('POST', 'vendors', buyer.headers, { vendorToken: 'no-such-token' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({ errorCode: 'InvalidVendorToken', errorDetails: [{ field: 'vendorToken' }] });

      const self = await api('POST', 'vendors', buyer.headers, { vendorToken: await tokenOf(buyer.headers) });
      expect(self.statusCode).toBe(400);
      expect(self.json().errorCode).toBe('CannotLinkOwnOrganization');

      const { headers } = await organization();
      const token = await tokenOf(headers);
      await ok('POST', 'vendors', buyer.headers, { vendorToken: token }, 201);
      const before = await vendorCount();
      const twice = await api('POST', 'vendors', buyer.headers, { vendorToken: token });
      expect(twice.statusCode).toBe(409);
      expect(twice.json().errorCode).toBe('VendorAlreadyExists');
      expect(await vendorCount()).toBe(before);
    });

    it('a system organization can never be a vendor', async () => {
      const db = t.database.db;
      const system =
        (await db.selectFrom('organizations').selectAll().where('isSystem', '=', true).executeTakeFirst()) ??
        (await insertOrganization(db, { name: 'system', isSystem: true }));
      const token = `system-${newUid()}`;
      await db
        .insertInto('organizationVendorTokens')
        .values({ organizationId: system.id, token, createdAt: t.clock().toISOString() })
        .execute();
      const response = await api('POST', 'vendors', buyer.headers, { vendorToken: token });
      expect(response.statusCode).toBe(400);
      expect(response.json().errorCode).toBe('InvalidVendorToken');
    });

    it('refuses unknown or other organizations’ references, unsupported locales, and price lists or net rate schemes, writing nothing', async () => {
      const { headers } = await organization();
      const token = await tokenOf(headers);
      const client = await named('clients', buyer.headers);
      const vendorsClient = await named('clients', vendor.headers);
      const vendorsDomain = await named('domains', vendor.headers);
      const vendorsStep = await workflowStep(vendor.organization.id, 1);
      const before = await vendorCount();
      const cases: [Record<string, unknown>, string, string][] = [
        [{ clients: [{ uid: client.uid }, { uid: 'nope' }] }, 'ReferenceNotFound', 'clients'],
        [{ clients: [{ uid: vendorsClient.uid }] }, 'ReferenceNotFound', 'clients'],
        [{ domains: [{ uid: vendorsDomain.uid }] }, 'ReferenceNotFound', 'domains'],
        [{ subDomains: [{ uid: 'nope' }] }, 'ReferenceNotFound', 'subDomains'],
        [{ workflowSteps: [{ uid: vendorsStep.uid }] }, 'ReferenceNotFound', 'workflowSteps'],
        [{ priceList: { uid: 'some-price-list' } }, 'ReferenceNotFound', 'priceList'],
        [{ netRateScheme: { uid: 'some-scheme' } }, 'ReferenceNotFound', 'netRateScheme'],
        [{ targetLocales: ['de', 'xx_not_a_language'] }, 'UnsupportedLanguage', 'targetLocales'],
        [{ sourceLocales: ['klingon!'] }, 'UnsupportedLanguage', 'sourceLocales'],
      ];
      for (const [extra, errorCode, field] of cases) {
        const response = await api('POST', 'vendors', buyer.headers, { vendorToken: token, clients: [{ uid: client.uid }], ...extra });
        expect(response.statusCode, JSON.stringify(extra)).toBe(400);
        expect(response.json()).toMatchObject({ errorCode, errorDetails: [{ field }] });
      }
      expect(await vendorCount()).toBe(before);
      expect(await t.database.db.selectFrom('vendorClients').selectAll().where('clientId', '=', client.id).execute()).toEqual([]);
      // The token is still free to link: nothing was written.
      await ok('POST', 'vendors', buyer.headers, { vendorToken: token, clients: [{ uid: client.uid }] }, 201);
    });

    it('deleting a client, domain, subdomain or workflow step removes it from the link', async () => {
      const client = await named('clients', buyer.headers);
      const keptClient = await named('clients', buyer.headers);
      const domain = await named('domains', buyer.headers);
      const subDomain = await named('subDomains', buyer.headers);
      const step = await workflowStep(buyer.organization.id, 5);
      const { headers } = await organization();
      const link = await ok(
        'POST',
        'vendors',
        buyer.headers,
        {
          vendorToken: await tokenOf(headers),
          clients: [{ uid: client.uid }, { uid: keptClient.uid }],
          domains: [{ uid: domain.uid }],
          subDomains: [{ uid: subDomain.uid }],
          workflowSteps: [{ uid: step.uid }],
        },
        201,
      );
      expect(link.clients).toHaveLength(2);
      await ok('DELETE', `clients/${client.uid}`, buyer.headers, undefined, 204);
      await ok('DELETE', `domains/${domain.uid}`, buyer.headers, undefined, 204);
      await ok('DELETE', `subDomains/${subDomain.uid}`, buyer.headers, undefined, 204);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      await (t.database.db as unknown as Kysely<any>).deleteFrom('workflowSteps').where('id', '=', step.id).execute();
      const after = await ok('GET', `vendors/${link.uid}`, buyer.headers);
      expect(after).toMatchObject({ clients: [{ uid: keptClient.uid }], domains: [], subDomains: [], workflowSteps: [] });
    });
  });

  describe('reading and deleting vendors', () => {
    it('lists vendors by part of the vendor’s name ignoring case, paged, in a stable order; another organization’s vendor is 404', async () => {
      const tag = newUid().slice(0, 6);
      const { buyerHeaders, uids } = await (async () => {
        const fresh = await organization();
        const result: string[] = [];
        for (const name of [`Alpha ${tag} One`, `ALPHA ${tag} Two`, `Beta ${tag}`]) {
          const v = await organization(name);
          result.push((await ok('POST', 'vendors', fresh.headers, { vendorToken: await tokenOf(v.headers) }, 201)).uid);
        }
        return { buyerHeaders: fresh.headers, uids: result };
      })();
      const all = await ok('GET', 'vendors', buyerHeaders);
      expect(all.content.map((v: { uid: string }) => v.uid)).toEqual(uids);
      const alpha = await ok('GET', `vendors?name=${encodeURIComponent(`alpha ${tag}`)}`, buyerHeaders);
      expect(alpha).toMatchObject({ totalElements: 2, content: [{ uid: uids[0] }, { uid: uids[1] }] });
      const page = await ok('GET', `vendors?pageSize=2&pageNumber=1`, buyerHeaders);
      expect(page).toMatchObject({ totalElements: 3, totalPages: 2, numberOfElements: 1, content: [{ uid: uids[2] }] });
      // The buyer's link is not the vendor's vendor, nor anybody else's.
      const get = await api('GET', `vendors/${uids[0]}`, buyer.headers);
      expect(get.statusCode).toBe(404);
    });

    it('deletes a batch all or none; an empty batch is 400', async () => {
      const links: string[] = [];
      for (let i = 0; i < 3; i++) {
        const v = await organization();
        links.push((await ok('POST', 'vendors', buyer.headers, { vendorToken: await tokenOf(v.headers) }, 201)).uid);
      }
      const empty = await api('DELETE', 'vendors', buyer.headers, { vendors: [] });
      expect(empty.statusCode).toBe(400);
      const unknown = await api('DELETE', 'vendors', buyer.headers, { vendors: [{ uid: links[0] }, { uid: 'not-a-vendor' }] });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().errorDetails).toEqual([{ field: 'vendors', message: 'unknown uid "not-a-vendor"' }]);
      await ok('GET', `vendors/${links[0]}`, buyer.headers);
      // Another organization cannot delete the buyer's links.
      const foreign = await api('DELETE', 'vendors', vendor.headers, { vendors: [{ uid: links[0] }] });
      expect(foreign.statusCode).toBe(404);
      await ok('DELETE', 'vendors', buyer.headers, { vendors: [{ uid: links[0] }, { uid: links[1] }] }, 204);
      expect((await api('GET', `vendors/${links[0]}`, buyer.headers)).statusCode).toBe(404);
      expect((await api('GET', `vendors/${links[1]}`, buyer.headers)).statusCode).toBe(404);
      await ok('GET', `vendors/${links[2]}`, buyer.headers);
    });

    it('a deleted link disappears from the vendor’s buyers, and the buyer may link again', async () => {
      const v = await organization();
      const token = await tokenOf(v.headers);
      const link = await ok('POST', 'vendors', buyer.headers, { vendorToken: token }, 201);
      expect((await ok('GET', 'buyers', v.headers)).content.map((b: { uid: string }) => b.uid)).toEqual([link.uid]);
      await ok('DELETE', 'vendors', buyer.headers, { vendors: [{ uid: link.uid }] }, 204);
      expect((await ok('GET', 'buyers', v.headers)).content).toEqual([]);
      await ok('POST', 'vendors', buyer.headers, { vendorToken: token }, 201);
    });
  });

  describe('project managers', () => {
    it('need vendorCreate to link; other roles are refused', async () => {
      const v = await organization();
      const token = await tokenOf(v.headers);
      const without = await member(buyer.headers, 'PROJECT_MANAGER', { vendorCreate: false });
      expect((await api('POST', 'vendors', without.headers, { vendorToken: token })).statusCode).toBe(403);
      const linguist = await member(buyer.headers, 'LINGUIST');
      expect((await api('GET', 'vendors', linguist.headers)).statusCode).toBe(403);
      const withRight = await member(buyer.headers, 'PROJECT_MANAGER');
      const created = await ok('POST', 'vendors', withRight.headers, { vendorToken: token }, 201);
      expect(created.createdBy.uid).toBe(withRight.uid);
    });

    it('see others’ vendors only with vendorViewOther and delete them only with vendorDeleteOther', async () => {
      const { headers: orgAdmin } = await organization();
      const byAdmin = await ok('POST', 'vendors', orgAdmin, { vendorToken: await tokenOf((await organization()).headers) }, 201);
      const blind = await member(orgAdmin, 'PROJECT_MANAGER', { vendorViewOther: false });
      const own = await ok('POST', 'vendors', blind.headers, { vendorToken: await tokenOf((await organization()).headers) }, 201);
      expect((await ok('GET', 'vendors', blind.headers)).content.map((v: { uid: string }) => v.uid)).toEqual([own.uid]);
      expect((await api('GET', `vendors/${byAdmin.uid}`, blind.headers)).statusCode).toBe(404);
      expect((await api('DELETE', 'vendors', blind.headers, { vendors: [{ uid: byAdmin.uid }] })).statusCode).toBe(404);

      const viewer = await member(orgAdmin, 'PROJECT_MANAGER', { vendorDeleteOther: false });
      expect((await ok('GET', 'vendors', viewer.headers)).totalElements).toBe(2);
      await ok('GET', `vendors/${byAdmin.uid}`, viewer.headers);
      const refused = await api('DELETE', 'vendors', viewer.headers, { vendors: [{ uid: byAdmin.uid }, { uid: own.uid }] });
      expect(refused.statusCode).toBe(403);
      await ok('GET', `vendors/${own.uid}`, orgAdmin);

      await ok('DELETE', 'vendors', blind.headers, { vendors: [{ uid: own.uid }] }, 204);
      const deleter = await member(orgAdmin, 'PROJECT_MANAGER');
      await ok('DELETE', 'vendors', deleter.headers, { vendors: [{ uid: byAdmin.uid }] }, 204);
      expect((await ok('GET', 'vendors', orgAdmin)).totalElements).toBe(0);
    });
  });

  describe('buyers (the vendor’s side)', () => {
    it('lists the organizations that linked the caller, by part of their name, with the link’s uid', async () => {
      const v = await organization();
      const token = await tokenOf(v.headers);
      const tag = newUid().slice(0, 6);
      const first = await organization(`Buyer ${tag} Alpha`);
      const second = await organization(`Buyer ${tag} Beta`);
      const l1 = await ok('POST', 'vendors', first.headers, { vendorToken: token, sourceLocales: ['en'], targetLocales: ['fr'] }, 201);
      const l2 = await ok('POST', 'vendors', second.headers, { vendorToken: token }, 201);
      const all = await ok('GET', 'buyers', v.headers);
      expect(all.content).toEqual([
        {
          id: l1.id,
          uid: l1.uid,
          name: first.organization.name,
          organization: { uid: first.organization.uid, name: first.organization.name },
          active: true,
          buyerOwner: null,
          timezone: 'Europe/London',
          sourceLocales: ['en'],
          targetLocales: ['fr'],
          createdBy: {
            id: first.admin.id,
            uid: first.admin.uid,
            userName: first.admin.userName,
            firstName: 'Test',
            lastName: 'User',
            email: first.admin.email,
            role: 'ADMIN',
          },
          dateCreated: t.clock().toISOString(),
        },
        expect.objectContaining({ uid: l2.uid, name: second.organization.name }),
      ]);
      const beta = await ok('GET', `buyers?name=${encodeURIComponent(`${tag} BETA`)}`, v.headers);
      expect(beta).toMatchObject({ totalElements: 1, content: [{ uid: l2.uid }] });
      // The buyers' own lists are unaffected: they have vendors, not buyers.
      expect((await ok('GET', 'buyers', first.headers)).content).toEqual([]);
    });

    it('edits the vendor-side settings partially; the buyer sees them on its vendor', async () => {
      const v = await organization();
      const b = await organization();
      const link = await ok('POST', 'vendors', b.headers, { vendorToken: await tokenOf(v.headers), targetLocales: ['de'] }, 201);
      const owner = await member(v.headers, 'PROJECT_MANAGER');
      t.clock.advance(60_000);
      const edited = await ok('PUT', `buyers/${link.uid}`, v.headers, {
        active: false,
        buyerOwner: { uid: owner.uid },
        timezone: 'Europe/Prague',
      });
      expect(edited).toMatchObject({
        uid: link.uid,
        active: false,
        buyerOwner: { uid: owner.uid, role: 'PROJECT_MANAGER' },
        timezone: 'Europe/Prague',
        targetLocales: ['de'],
      });
      const seen = await ok('GET', `vendors/${link.uid}`, b.headers);
      expect(seen).toMatchObject({
        active: false,
        buyerOwner: { uid: owner.uid },
        timezone: 'Europe/Prague',
        targetLocales: ['de'],
        dateCreated: link.dateCreated,
      });

      const partial = await ok('PUT', `buyers/${link.uid}`, v.headers, { active: true });
      expect(partial).toMatchObject({ active: true, buyerOwner: { uid: owner.uid }, timezone: 'Europe/Prague' });
      expect((await ok('GET', 'buyers?active=false', v.headers)).content).toEqual([]);
      const cleared = await ok('PUT', `buyers/${link.uid}`, v.headers, { buyerOwner: null });
      expect(cleared).toMatchObject({ active: true, buyerOwner: null, timezone: 'Europe/Prague' });
      expect(await ok('PUT', `buyers/${link.uid}`, v.headers, {})).toEqual(cleared);
    });

    it('refuses an owner who is not an active ADMIN or PROJECT_MANAGER of the vendor, and unknown time zones, changing nothing', async () => {
      const v = await organization();
      const b = await organization();
      const link = await ok('POST', 'vendors', b.headers, { vendorToken: await tokenOf(v.headers) }, 201);
      const linguist = await member(v.headers, 'LINGUIST');
      const buyersPm = await member(b.headers, 'PROJECT_MANAGER');
      for (const uid of [linguist.uid, buyersPm.uid, 'nobody']) {
        const response = await api('PUT', `buyers/${link.uid}`, v.headers, { active: false, buyerOwner: { uid } });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ errorCode: 'ReferenceNotFound', errorDetails: [{ field: 'buyerOwner' }] });
      }
      const zone = await api('PUT', `buyers/${link.uid}`, v.headers, { active: false, timezone: 'Mars/Olympus' });
      expect(zone.statusCode).toBe(400);
      expect(zone.json().errorDetails).toEqual([{ field: 'timezone', message: 'unknown time zone' }]);
      expect((await ok('GET', 'buyers', v.headers)).content[0]).toMatchObject({
        active: true,
        buyerOwner: null,
        timezone: 'Europe/London',
      });
    });

    it('only the vendor’s ADMIN edits: the buyer and other organizations get 404, project managers 403', async () => {
      const v = await organization();
      const b = await organization();
      const link = await ok('POST', 'vendors', b.headers, { vendorToken: await tokenOf(v.headers) }, 201);
      expect((await api('PUT', `buyers/${link.uid}`, b.headers, { active: false })).statusCode).toBe(404);
      expect((await api('PUT', `buyers/${link.uid}`, buyer.headers, { active: false })).statusCode).toBe(404);
      const pm = await member(v.headers, 'PROJECT_MANAGER');
      expect((await api('GET', 'buyers', pm.headers)).statusCode).toBe(403);
      expect((await api('PUT', `buyers/${link.uid}`, pm.headers, { active: false })).statusCode).toBe(403);
      expect((await ok('GET', `vendors/${link.uid}`, b.headers)).active).toBe(true);
    });
  });
});
