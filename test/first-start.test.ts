import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { Writable } from 'node:stream';
import { loadConfig } from '../src/config.js';
import { ensureFirstAdmin } from '../src/modules/identity/organization-admin/first-start.js';
import { createTestDatabase } from './harness.js';
import { verifyPassword } from '../src/modules/identity/credentials/passwords.js';

/** A logger that keeps its JSON lines, to see exactly what a start prints. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

describe('first start', () => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => drop?.());

  it('creates the organization and its ADMIN from OPENTMS_ADMIN_USERNAME / _PASSWORD, and logs no password', async () => {
    const { database, drop: d } = await createTestDatabase();
    drop = d;
    const { log, lines } = capturingLogger();
    await ensureFirstAdmin(database.db, loadConfig({ OPENTMS_ADMIN_USERNAME: 'boss', OPENTMS_ADMIN_PASSWORD: 'sup3r secret' }), log);
    const users = await database.db.selectFrom('users').selectAll().execute();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ userName: 'boss', role: 'ADMIN' });
    expect(users[0]!.uid).toMatch(/^[A-Za-z0-9]{22}$/);
    expect(await verifyPassword('sup3r secret', users[0]!.passwordHash!)).toBe(true);
    expect(JSON.stringify(lines)).not.toContain('sup3r secret');
    expect(await database.db.selectFrom('organizations').selectAll().execute()).toHaveLength(1);
  });

  it('generates a password when none is set, prints it once, and never again', async () => {
    const { database, drop: d } = await createTestDatabase();
    drop = d;
    const first = capturingLogger();
    await ensureFirstAdmin(database.db, loadConfig({}), first.log);
    const announced = first.lines.filter((l) => typeof l.generatedPassword === 'string');
    expect(announced).toHaveLength(1);
    const password = announced[0]!.generatedPassword as string;
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(String(announced[0]!.msg)).toContain(password);
    const [admin] = await database.db.selectFrom('users').selectAll().execute();
    expect(admin!.userName).toBe('admin');
    expect(await verifyPassword(password, admin!.passwordHash!)).toBe(true);

    const second = capturingLogger();
    await ensureFirstAdmin(database.db, loadConfig({}), second.log);
    expect(second.lines).toEqual([]);
    expect(await database.db.selectFrom('users').selectAll().execute()).toHaveLength(1);
  });
});
