import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyUsers } from '../src/modules/integration/notifications/notifications.service.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { signedInUser } from './factories.js';

/** Issue 5: notifications, listed for the current user only; later modules add them with notifyUsers. */

interface Notification {
  id: string;
  uid: string;
  type: string;
  title: string;
  message: string;
  payload: Record<string, unknown>;
  dateCreated: string;
  read: boolean;
  dateRead: string | null;
}

describe('notifications', () => {
  let t: TestApp;
  let anna: Awaited<ReturnType<typeof signedInUser>>;
  let ben: Awaited<ReturnType<typeof signedInUser>>;
  let organizationId: string;

  const list = async (headers: Record<string, string>, query = '') => {
    const response = await t.inject({ url: `/api2/v1/notifications${query}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { totalElements: number; totalPages: number; numberOfElements: number; content: Notification[] };
  };

  beforeAll(async () => {
    t = await createTestApp();
    anna = await signedInUser(t, 'LINGUIST');
    ben = await signedInUser(t, 'PROJECT_MANAGER', anna.organization);
    organizationId = anna.organization.id;
  });
  afterAll(() => t.close());

  it('a new user has none', async () => {
    expect(await list(anna.headers)).toMatchObject({ totalElements: 0, content: [] });
  });

  it('lists the caller’s own notifications, newest first, with their payload', async () => {
    const db = t.database.db;
    const created = await notifyUsers(db, {
      organizationId,
      userIds: [anna.user.id, ben.user.id, anna.user.id],
      type: 'JOB_ASSIGNED',
      title: 'New job',
      message: 'You have been assigned guide.docx (de).',
      payload: { projectUid: 'p1', jobUid: 'j1' },
      at: t.clock(),
    });
    expect(created).toBe(2);
    t.clock.advance(60_000);
    await notifyUsers(db, {
      organizationId,
      userIds: [anna.user.id],
      type: 'JOB_STATUS_CHANGED',
      title: 'Job completed',
      message: 'guide.docx (de) is completed.',
      at: t.clock(),
    });

    const annas = await list(anna.headers);
    expect(annas.totalElements).toBe(2);
    expect(annas.content.map((n) => n.type)).toEqual(['JOB_STATUS_CHANGED', 'JOB_ASSIGNED']);
    expect(annas.content[1]).toMatchObject({
      title: 'New job',
      message: 'You have been assigned guide.docx (de).',
      payload: { projectUid: 'p1', jobUid: 'j1' },
      read: false,
      dateRead: null,
      dateCreated: '2026-11-21T12:00:00.000Z',
    });
    expect(annas.content[0]!.payload).toEqual({});
    const bens = await list(ben.headers);
    expect(bens.content.map((n) => n.title)).toEqual(['New job']);
    expect(bens.content[0]!.uid).not.toBe(annas.content[1]!.uid);
  });

  it('ties on the time are broken by the newest record', async () => {
    const carl = await signedInUser(t, 'ADMIN', anna.organization);
    for (const title of ['first', 'second', 'third'])
      await notifyUsers(t.database.db, { organizationId, userIds: [carl.user.id], type: 'T', title, message: title, at: t.clock() });
    expect((await list(carl.headers)).content.map((n) => n.title)).toEqual(['third', 'second', 'first']);
  });

  it('filters unread ones and pages', async () => {
    const db = t.database.db;
    const dora = await signedInUser(t, 'SUBMITTER', anna.organization);
    for (let i = 1; i <= 5; i++) {
      t.clock.advance(1000);
      await notifyUsers(db, {
        organizationId,
        userIds: [dora.user.id],
        type: 'INFO',
        title: `n${i}`,
        message: `message ${i}`,
        at: t.clock(),
      });
    }
    const oldest = await db.selectFrom('notifications').select('id').where('userId', '=', dora.user.id).orderBy('id').limit(2).execute();
    await db
      .updateTable('notifications')
      .set({ readAt: t.clock().toISOString() })
      .where(
        'id',
        'in',
        oldest.map((n) => n.id),
      )
      .execute();

    const all = await list(dora.headers);
    expect(all.content.map((n) => [n.title, n.read])).toEqual([
      ['n5', false],
      ['n4', false],
      ['n3', false],
      ['n2', true],
      ['n1', true],
    ]);
    expect(all.content[3]!.dateRead).toBe(t.clock().toISOString());
    expect((await list(dora.headers, '?unreadOnly=true')).content.map((n) => n.title)).toEqual(['n5', 'n4', 'n3']);
    const page = await list(dora.headers, '?pageSize=2&pageNumber=2');
    expect(page).toMatchObject({ totalElements: 5, totalPages: 3, numberOfElements: 1 });
    expect(page.content.map((n) => n.title)).toEqual(['n1']);
    expect((await t.inject({ url: '/api2/v1/notifications?unreadOnly=perhaps', headers: dora.headers })).statusCode).toBe(400);
  });

  it('never notifies users of another organization, and goes with the caller’s transaction', async () => {
    const stranger = await signedInUser(t, 'ADMIN');
    expect(await notifyUsers(t.database.db, { organizationId, userIds: [stranger.user.id], type: 'X', title: 'x', message: 'x' })).toBe(0);
    expect(await notifyUsers(t.database.db, { organizationId, userIds: [], type: 'X', title: 'x', message: 'x' })).toBe(0);
    expect((await list(stranger.headers)).totalElements).toBe(0);

    const before = (await list(anna.headers)).totalElements;
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await notifyUsers(trx, { organizationId, userIds: [anna.user.id], type: 'X', title: 'rolled back', message: 'x' });
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect((await list(anna.headers)).totalElements).toBe(before);
  });

  it('go with their user', async () => {
    const eve = await signedInUser(t, 'LINGUIST', anna.organization);
    await notifyUsers(t.database.db, { organizationId, userIds: [eve.user.id], type: 'X', title: 'x', message: 'x' });
    await t.database.db.deleteFrom('users').where('id', '=', eve.user.id).execute();
    expect(await t.database.db.selectFrom('notifications').select('id').where('userId', '=', eve.user.id).execute()).toEqual([]);
  });

  it('every role of an organization lists its own (the access matrix checks that the SYS_ADMIN is refused)', async () => {
    for (const role of ['ADMIN', 'PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER'] as const) {
      const { headers } = await signedInUser(t, role, anna.organization);
      expect((await list(headers)).totalElements, role).toBe(0);
    }
  });
});
