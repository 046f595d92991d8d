import type { Generated } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Migration 2026-11-29T0900_term_bases (docs/terminology.md, "Records"). */
export interface TermBasesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  internalId: number;
  name: string;
  /** JSON array of language codes, in the order given. */
  langs: Generated<string>;
  clientId: Id | null;
  businessUnitId: Id | null;
  domainId: Id | null;
  subDomainId: Id | null;
  note: string | null;
  createdAt: Timestamp;
  createdById: Id | null;
  ownerId: Id | null;
  /** Set by a delete without `purge`. */
  deletedAt: Timestamp | null;
  /** Bumped by every write transaction on the term base's terms. */
  version: Generated<number | string>;
  /** The term base's last background task (import), for lastBackgroundTask. */
  lastAsyncRequestId: Id | null;
}

export interface TermBaseTables {
  termBases: TermBasesTable;
}
