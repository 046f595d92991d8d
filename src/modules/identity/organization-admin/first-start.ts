import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../../config.js';
import type { DB } from '../../../db/schema.js';
import { generatePassword, hashPassword } from '../credentials/index.js';
import { findUserByUserName, insertUser } from '../users/index.js';
import { countOrganizations, findSystemOrganization, insertOrganization } from '../organizations/index.js';

/**
 * On the very first start (no organization yet) creates the organization and its ADMIN user from
 * OPENTMS_ADMIN_USERNAME / OPENTMS_ADMIN_PASSWORD. Without a password it generates one and logs
 * it this once: later starts find the organization and log nothing.
 *
 * Runs in one transaction, so a crash half-way leaves no organization without its admin, and two
 * processes starting together on one PostgreSQL database create only one (the unique user name).
 */
export async function ensureFirstAdmin(db: Kysely<DB>, config: Config, log: FastifyBaseLogger): Promise<void> {
  if ((await countOrganizations(db)) > 0) return;
  const generated = config.admin.password === null;
  const password = config.admin.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  try {
    await db.transaction().execute(async (trx) => {
      const organization = await insertOrganization(trx, 'My organization');
      await insertUser(trx, {
        organizationId: organization.id,
        userName: config.admin.username,
        email: `${config.admin.username}@localhost`,
        firstName: 'Admin',
        lastName: 'Administrator',
        role: 'ADMIN',
        passwordHash,
      });
    });
  } catch (error) {
    if ((await countOrganizations(db)) > 0) return; // another process won the race
    throw error;
  }
  if (generated) {
    // The one password ever logged, on purpose: generated for an installation that set none, shown
    // once so that its operator can log in (docs/logging.md). Not named `password`, which the
    // log configuration redacts everywhere.
    log.warn(
      { userName: config.admin.username, generatedPassword: password },
      `Created the first ADMIN user "${config.admin.username}" with the generated password "${password}". ` +
        'It is shown this once: log in and change it (or set OPENTMS_ADMIN_PASSWORD before the first start).',
    );
  } else {
    log.info(
      { userName: config.admin.username },
      `Created the first ADMIN user "${config.admin.username}" with the password from OPENTMS_ADMIN_PASSWORD.`,
    );
  }
}

/**
 * When OPENTMS_SYSADMIN_USERNAME and OPENTMS_SYSADMIN_PASSWORD are set, makes sure the system
 * organization and that SYS_ADMIN user exist. An existing user keeps its password: the variables
 * create the account, they do not reset it on every start.
 */
export async function ensureSysAdmin(db: Kysely<DB>, config: Config, log: FastifyBaseLogger): Promise<void> {
  const wanted = config.sysAdmin;
  if (!wanted) return;
  const existing = await findUserByUserName(db, wanted.username);
  if (existing) {
    if (existing.role !== 'SYS_ADMIN')
      log.error(
        { userName: wanted.username },
        'OPENTMS_SYSADMIN_USERNAME names an existing user who is not a SYS_ADMIN; no system administrator was created',
      );
    return;
  }
  const passwordHash = await hashPassword(wanted.password);
  try {
    await db.transaction().execute(async (trx) => {
      const system = (await findSystemOrganization(trx)) ?? (await insertOrganization(trx, { name: 'OpenTMS system', isSystem: true }));
      await insertUser(trx, {
        organizationId: system.id,
        userName: wanted.username,
        email: `${wanted.username}@localhost`,
        firstName: 'System',
        lastName: 'Administrator',
        role: 'SYS_ADMIN',
        passwordHash,
      });
    });
  } catch (error) {
    if (await findUserByUserName(db, wanted.username)) return; // another process won the race
    throw error;
  }
  log.info({ userName: wanted.username }, `Created the SYS_ADMIN user "${wanted.username}".`);
}
