import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { newUid } from '../../../db/ids.js';
import type { DB } from '../../../db/schema.js';
import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import { extensionOf, FormatError } from '../../../formats/index.js';
import { ZipPackage } from '../../../formats/zip-package.js';
import type { Caller } from '../../../http/access.js';
import { discardUploads } from '../../../http/multipart-uploads.js';
import type { MultipartUpload } from '../../../http/multipart-uploads.js';
import { parseJsonDocument } from '../../../http/uploads.js';
import type { StoredBlob } from '../../../storage/blob-store.js';
import { putUpload, recordStoredFile } from '../../../storage/stored-files.js';
import { findVisibleJob, findVisibleProject } from '../kernel/index.js';
import type { ProjectAccess } from '../kernel/index.js';
import { PreviewPackageJson } from './job-previews.schemas.js';
import type { JobPreviewPackage } from './job-previews.schemas.js';

/**
 * Job preview packages (docs/previews.md, "Preview packages"): a ZIP (an HTML build of the
 * document with its styles and images) uploaded for a project, expanded entry by entry into the
 * blob store and served one entry at a time by asset uid (getAsset). Entry names are checked when
 * the ZIP is read (ZipPackage: no `..`, absolute paths, backslashes, drive letters, duplicates;
 * size and ratio limits against bombs); they are only ever looked up by uid afterwards, never
 * turned into file paths.
 */

/** Most file entries of a package. */
export const MAX_PACKAGE_ENTRIES = 2000;

/** Content types of package entries by extension; others are application/octet-stream. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  xhtml: 'application/xhtml+xml',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  eot: 'application/vnd.ms-fontobject',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
};

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extensionOf(path)] ?? 'application/octet-stream';
}

/** Whether a served entry is a document the browser renders with scripts (HTML, XHTML, SVG): it gets the restrictive CSP. */
export function isActiveContent(contentType: string): boolean {
  return /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|application\/xml)/.test(contentType);
}

interface StoredAsset {
  path: string;
  blob: StoredBlob;
  contentType: string;
}

/** uploadJobPreviewPackage: stores the package's entries and links it to the jobs the `json` part names. */
export async function uploadPreviewPackage(
  deps: AppDeps,
  caller: Caller,
  access: ProjectAccess,
  upload: MultipartUpload,
): Promise<JobPreviewPackage> {
  const uploads = upload.files.map((f) => f.blob);
  const assets: StoredAsset[] = [];
  try {
    if (upload.files.length !== 1) {
      throw errors.InvalidArguments({
        reason: 'Send the preview package as one `file` part (a ZIP archive).',
        details: [{ field: 'file', message: upload.files.length === 0 ? 'is missing' : 'only one file is accepted' }],
      });
    }
    const json = upload.json === undefined ? {} : (parseJsonDocument(upload.json, PreviewPackageJson, 'json') as PreviewPackageJson);
    const jobIds = await linkedJobIds(deps.database.db, caller, access, json.jobs ?? []);
    const file = upload.files[0]!;
    assets.push(...(await expandPackage(deps, file.blob.sha256)));
    const db = deps.database.db;
    const now = deps.clock().toISOString();
    const stored = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('jobPreviewPackages')
        .values({
          uid: newUid(),
          organizationId: access.project.organizationId,
          projectId: access.project.id,
          filename: file.filename,
          size: file.blob.size,
          createdAt: now,
          createdById: caller.isBot ? null : caller.userId,
        })
        .returning(['id', 'uid'])
        .executeTakeFirstOrThrow();
      const rows = [];
      for (const asset of assets) {
        await recordStoredFile(deps, trx, asset.blob);
        rows.push({
          uid: newUid(),
          packageId: row.id,
          path: asset.path,
          sha256: asset.blob.sha256,
          size: asset.blob.size,
          contentType: asset.contentType,
        });
      }
      for (let from = 0; from < rows.length; from += 500)
        await trx
          .insertInto('jobPreviewAssets')
          .values(rows.slice(from, from + 500))
          .execute();
      if (jobIds.length > 0) {
        await trx
          .insertInto('jobPreviewPackageJobs')
          .values(jobIds.map((jobId) => ({ packageId: row.id, jobId })))
          .execute();
      }
      return { uid: row.uid, rows };
    });
    return {
      uid: stored.uid,
      filename: file.filename,
      size: file.blob.size,
      jobs: (json.jobs ?? []).map((j) => ({ uid: j.uid })),
      assets: stored.rows.map((r) => ({ uid: r.uid, path: r.path, contentType: r.contentType, size: Number(r.size) })),
    };
  } catch (error) {
    await discardUploads(
      deps,
      assets.map((a) => a.blob),
    );
    throw error;
  } finally {
    // The ZIP itself is not kept: its entries are.
    await discardUploads(deps, uploads);
  }
}

/** The ids of the jobs (of this project, seen by the caller) a package is for; an unknown one is a 400. */
async function linkedJobIds(db: Kysely<DB>, caller: Caller, access: ProjectAccess, jobs: readonly { uid: string }[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, { uid }] of jobs.entries()) {
    const job = await findVisibleJob(db, caller, access, uid);
    if (!job) {
      throw errors.InvalidArguments({
        reason: `jobs[${i}]: job ${uid} is not a job of the project.`,
        details: [{ field: `jobs[${i}].uid`, message: 'not a job of the project' }],
      });
    }
    if (!ids.includes(job.job.id)) ids.push(job.job.id);
  }
  return ids;
}

/** Reads the ZIP and stores each file entry as a blob; a ZIP that cannot be used is a 400. */
async function expandPackage(deps: AppDeps, sha256: string): Promise<StoredAsset[]> {
  const limits = {
    maxEntries: MAX_PACKAGE_ENTRIES,
    maxArchiveBytes: deps.config.uploadLimitBytes,
    maxTotalBytes: Math.max(deps.config.uploadLimitBytes * 4, 64 * 1024 * 1024),
  };
  let zip: ZipPackage;
  try {
    zip = await ZipPackage.open(await deps.blobs.open(sha256), limits);
  } catch (error) {
    if (error instanceof FormatError) throw errors.PreviewPackageInvalid({ reason: error.message });
    throw error;
  }
  const assets: StoredAsset[] = [];
  try {
    for (const entry of zip.entries) {
      if (entry.isDirectory || entry.name.startsWith('__MACOSX/')) continue;
      const blob = await putUpload(deps, Readable.from(zip.read(entry)));
      assets.push({ path: entry.name, blob, contentType: contentTypeOf(entry.name) });
    }
    if (assets.length === 0) throw new FormatError('the archive holds no file');
    return assets;
  } catch (error) {
    await discardUploads(
      deps,
      assets.map((a) => a.blob),
    );
    if (error instanceof FormatError) throw errors.PreviewPackageInvalid({ reason: error.message });
    throw error;
  } finally {
    await zip.close();
  }
}

export interface ServedAsset {
  path: string;
  sha256: string;
  size: number | string;
  contentType: string;
}

/**
 * getAsset: the asset `assetUid` of a preview package, for job `jobUid` of the caller's
 * organization: the caller must see the job; the package must be of the job's project and either
 * linked to the job or linked to no job. Anything else is 404.
 */
export async function findAsset(db: Kysely<DB>, caller: Caller, jobUid: string, assetUid: string): Promise<ServedAsset> {
  const job = await db
    .selectFrom('jobs')
    .innerJoin('projects', 'projects.id', 'jobs.projectId')
    .select(['projects.uid as projectUid'])
    .where('jobs.uid', '=', jobUid)
    .where('jobs.organizationId', '=', caller.organizationId)
    .executeTakeFirst();
  const project = job ? await findVisibleProject(db, caller, job.projectUid) : null;
  const access = project ? await findVisibleJob(db, caller, project, jobUid) : null;
  if (!access) throw errors.ResourceNotFound({ what: 'Job' });
  const asset = await db
    .selectFrom('jobPreviewAssets')
    .innerJoin('jobPreviewPackages', 'jobPreviewPackages.id', 'jobPreviewAssets.packageId')
    .select(['jobPreviewAssets.path', 'jobPreviewAssets.sha256', 'jobPreviewAssets.size', 'jobPreviewAssets.contentType'])
    .where('jobPreviewAssets.uid', '=', assetUid)
    .where('jobPreviewPackages.projectId', '=', access.job.projectId)
    .where((eb) =>
      eb.or([
        eb.not(
          eb.exists(
            eb
              .selectFrom('jobPreviewPackageJobs')
              .select('jobId')
              .whereRef('jobPreviewPackageJobs.packageId', '=', 'jobPreviewPackages.id'),
          ),
        ),
        eb.exists(
          eb
            .selectFrom('jobPreviewPackageJobs')
            .select('jobId')
            .whereRef('jobPreviewPackageJobs.packageId', '=', 'jobPreviewPackages.id')
            .where('jobPreviewPackageJobs.jobId', '=', access.job.id),
        ),
      ]),
    )
    .executeTakeFirst();
  if (!asset) throw errors.ResourceNotFound({ what: 'Preview asset' });
  return asset;
}
