import type { Id, Timestamp } from '../schema.js';

/** Migration 2026-11-21T1860_job_handover_files: a job's handover file (docs/job-content-and-handovers.md). */
export interface JobHandoverFilesTable {
  jobId: Id;
  organizationId: Id;
  /** `fileId` on the wire; shared by the jobs of one upload. */
  fileUid: string;
  filename: string;
  sha256: string;
  size: number | string;
  contentType: string | null;
  createdAt: Timestamp;
  createdById: Id | null;
}

export interface HandoverFileTables {
  jobHandoverFiles: JobHandoverFilesTable;
}
