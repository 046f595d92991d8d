import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../src/http/access.js';
import { parseRoleSettings } from '../src/domain/users/role-settings.js';
import type { RoleSettings } from '../src/domain/users/role-settings.js';
import { findVisibleProject, requireProject } from '../src/modules/translation-workflow/kernel/index.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { makeClient, makeOrganization, makeUser } from './factories.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/** The project visibility rules of src/modules/translation-workflow/kernel/project-access.ts, on real rows. */
describe('project access rules', () => {
  let t: TestApp;
  let organization: OrganizationRow;

  const callerOf = (user: UserRow, settings: RoleSettings | null = null): Caller => ({
    userId: user.id,
    userUid: user.uid,
    userName: user.userName,
    organizationId: user.organizationId,
    role: user.role,
    isBot: false,
    settings,
    credential: { kind: 'api_token', id: '1' },
    scopes: null,
    impersonatorId: null,
    csrfTokenHash: null,
  });

  beforeAll(async () => {
    t = await createTestApp();
    organization = await makeOrganization(t.database.db);
  });
  afterAll(() => t.close());

  it('lets ADMIN see and change every project, and a PM their own; others by right', async () => {
    const db = t.database.db;
    const admin = await makeUser(db, organization, { role: 'ADMIN' });
    const pm = await makeUser(db, organization, { role: 'PROJECT_MANAGER' });
    const otherPm = await makeUser(db, organization, { role: 'PROJECT_MANAGER' });
    const project = await makeProject(t, organization.id, { createdById: otherPm.id });

    expect((await requireProject(db, callerOf(admin), project.uid, 'delete')).canDelete).toBe(true);
    // Default PM rights include viewing, editing and deleting others' projects.
    expect((await requireProject(db, callerOf(pm), project.uid, 'edit')).canEdit).toBe(true);

    const viewOnly = parseRoleSettings(
      'PROJECT_MANAGER',
      JSON.stringify({ rights: { projectEditOther: false, projectDeleteOther: false } }),
    );
    await expect(requireProject(db, callerOf(pm, viewOnly), project.uid, 'edit')).rejects.toMatchObject({ statusCode: 403 });
    const blind = parseRoleSettings('PROJECT_MANAGER', JSON.stringify({ rights: { projectViewOther: false } }));
    await expect(requireProject(db, callerOf(pm, blind), project.uid, 'view')).rejects.toMatchObject({ statusCode: 404 });
    expect(await findVisibleProject(db, callerOf(otherPm, blind), project.uid)).not.toBeNull();
  });

  it('shows a linguist only projects with a job they provide, read-only', async () => {
    const db = t.database.db;
    const linguist = await makeUser(db, organization, { role: 'LINGUIST' });
    const project = await makeProject(t, organization.id);
    expect(await findVisibleProject(db, callerOf(linguist), project.uid)).toBeNull();
    await makeJobs(t, project, { providerUserIds: [linguist.id] });
    const access = await requireProject(db, callerOf(linguist), project.uid);
    expect(access).toMatchObject({ view: 'LINGUIST', canEdit: false });
  });

  it("shows a guest the projects of the guest's client only", async () => {
    const db = t.database.db;
    const client = await makeClient(db, organization);
    const guest = await makeUser(db, organization, { role: 'GUEST' });
    await db.updateTable('users').set({ guestClientId: client.id }).where('id', '=', guest.id).execute();
    const ofClient = await makeProject(t, organization.id, { clientId: client.id });
    const other = await makeProject(t, organization.id);
    const settings = parseRoleSettings('GUEST', '{}');
    expect(await findVisibleProject(db, callerOf(guest, settings), ofClient.uid)).not.toBeNull();
    expect(await findVisibleProject(db, callerOf(guest, settings), other.uid)).toBeNull();
  });

  it('shows a submitter their own projects, and hides deleted and foreign ones from everyone', async () => {
    const db = t.database.db;
    const submitter = await makeUser(db, organization, { role: 'SUBMITTER' });
    const admin = await makeUser(db, organization, { role: 'ADMIN' });
    const own = await makeProject(t, organization.id, { createdById: submitter.id });
    const notOwn = await makeProject(t, organization.id);
    expect(await findVisibleProject(db, callerOf(submitter), own.uid)).not.toBeNull();
    expect(await findVisibleProject(db, callerOf(submitter), notOwn.uid)).toBeNull();

    await db.updateTable('projects').set({ deletedAt: t.clock().toISOString() }).where('id', '=', own.id).execute();
    expect(await findVisibleProject(db, callerOf(admin), own.uid)).toBeNull();

    const foreignAdmin = await makeUser(db, await makeOrganization(db), { role: 'ADMIN' });
    expect(await findVisibleProject(db, callerOf(foreignAdmin), notOwn.uid)).toBeNull();
  });

  it('gives projects internal ids 1, 2, … per organization', async () => {
    const fresh = await makeOrganization(t.database.db);
    const first = await makeProject(t, fresh.id);
    const second = await makeProject(t, fresh.id);
    expect([first.internalId, second.internalId]).toEqual([1, 2]);
  });
});
