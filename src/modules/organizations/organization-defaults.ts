import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { OrganizationRow } from './organizations.repository.js';

/**
 * The records a new organization starts with (default workflow steps, default email templates,
 * …). Called by `insertOrganization` in the creator's transaction, for every organization except
 * the installation's system organization. Organizations that existed before a default was
 * introduced get it from that default's migration.
 */
export async function seedOrganizationDefaults(_db: Kysely<DB>, _organization: OrganizationRow): Promise<void> {}
