import type { Generated } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Migration 2026-11-30T1200_job_previews (docs/previews.md). */
export interface JobPreviewPackagesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  projectId: Id;
  /** The uploaded ZIP's name. */
  filename: string;
  /** The uploaded ZIP's size in bytes. */
  size: number | string;
  createdAt: Timestamp;
  createdById: Id | null;
}

/** One file entry of a preview package, stored as a blob of its own. */
export interface JobPreviewAssetsTable {
  id: Generated<Id>;
  /** getAsset's assetFileUid. */
  uid: string;
  packageId: Id;
  /** The entry's name inside the package (checked safe when read). */
  path: string;
  sha256: string;
  size: number | string;
  /** By the path's extension. */
  contentType: string;
}

/** The jobs a package was uploaded for; none: every job of its project. */
export interface JobPreviewPackageJobsTable {
  packageId: Id;
  jobId: Id;
}

export interface JobPreviewTables {
  jobPreviewPackages: JobPreviewPackagesTable;
  jobPreviewAssets: JobPreviewAssetsTable;
  jobPreviewPackageJobs: JobPreviewPackageJobsTable;
}
