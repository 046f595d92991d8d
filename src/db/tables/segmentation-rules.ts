import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Migration 2026-11-30T1000_segmentation_rules (docs/segmentation-rules.md). */
export interface SegmentationRulesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  /** The language the rule is for (a supported code: `en`, `de_at`). */
  locale: string;
  /** At most one primary rule per locale of an organization: the one jobs of that source language use by default. */
  isPrimary: Generated<SqlBool>;
  filename: string;
  /** The SRX file as uploaded. */
  srx: string;
  createdAt: Timestamp;
  createdById: Id | null;
}

export interface SegmentationRuleTables {
  segmentationRules: SegmentationRulesTable;
}
