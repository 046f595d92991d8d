import type { Generated, SqlBool } from 'kysely';
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

/** Migration 2026-11-29T1000_term_base_concepts_and_terms: a term base's concepts. */
export interface TbConceptsTable {
  id: Generated<Id>;
  termBaseId: Id;
  definition: string | null;
  /** The organization's domain record, or null. */
  domainId: Id | null;
  /** A domain name from an imported file that no record has (kept for the export). */
  domainName: string | null;
  /** JSON array of the organization's subdomain ids. */
  subdomains: Generated<string>;
  /** JSON array of subdomain names from an imported file that no record has. */
  subdomainNames: Generated<string>;
  note: string | null;
  url: string | null;
  createdAt: Timestamp;
  createdById: Id | null;
  modifiedAt: Timestamp;
  modifiedById: Id | null;
}

/** One term, in one language, of one concept. */
export interface TbTermsTable {
  id: Generated<Id>;
  conceptId: Id;
  termBaseId: Id;
  lang: string;
  text: string;
  /** The lower-case text cut to 200 characters (browse, prefix search, duplicates). */
  textKey: string;
  /** New, Approved or Rejected (answered as New: docs/terminology.md, "Records"). */
  status: Generated<string>;
  usage: string | null;
  forbidden: Generated<SqlBool>;
  preferred: Generated<SqlBool>;
  caseSensitive: Generated<SqlBool>;
  exactMatch: Generated<SqlBool>;
  termType: string | null;
  partOfSpeech: string | null;
  gender: string | null;
  number: string | null;
  note: string | null;
  shortTranslation: string | null;
  createdAt: Timestamp;
  createdById: Id | null;
  modifiedAt: Timestamp;
  modifiedById: Id | null;
}

/** Columns shared by the term base settings of projects and templates. */
interface TermBaseSettingColumns {
  id: Generated<Id>;
  termBaseId: Id;
  /** null: every target language. */
  targetLang: string | null;
  readMode: Generated<SqlBool>;
  writeMode: Generated<SqlBool>;
  qualityAssurance: Generated<SqlBool>;
  /** Order within its context (target language and step), from 0: the priority of the term bases. */
  position: number;
}

export interface ProjectTermBasesTable extends TermBaseSettingColumns {
  projectId: Id;
  /** null: every workflow step. */
  projectWorkflowStepId: Id | null;
}

export interface TemplateTermBasesTable extends TermBaseSettingColumns {
  templateId: Id;
  templateWorkflowStepId: Id | null;
}

/** One term base import (its async request): docs/terminology.md, "Import and export". */
export interface TbTransfersTable {
  asyncRequestId: Id;
  organizationId: Id;
  termBaseId: Id | null;
  kind: string;
  /** tbx, xlsx or csv. */
  format: string;
  filename: string | null;
  /** The stored upload, until the import is over. */
  uploadSha256: string | null;
  /** JSON: the import's options (duplicates, strictLangMatching). */
  options: Generated<string>;
  /** Entries of the file committed so far (a rerun skips them). */
  entries: Generated<number | string>;
  createdTerms: Generated<number | string>;
  updatedTerms: Generated<number | string>;
  skippedTerms: Generated<number | string>;
  createdAt: Timestamp;
}

export interface TermBaseTables {
  tbTransfers: TbTransfersTable;
  termBases: TermBasesTable;
  tbConcepts: TbConceptsTable;
  tbTerms: TbTermsTable;
  projectTermBases: ProjectTermBasesTable;
  templateTermBases: TemplateTermBasesTable;
}
