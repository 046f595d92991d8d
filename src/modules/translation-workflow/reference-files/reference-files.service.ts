import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB, Id } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import type { ApiError } from '../../../errors/index.js';
import { parseJsonDocument } from '../../../http/uploads.js';
import { putUpload, recordStoredFile, releaseStoredFiles } from '../../../storage/stored-files.js';
import { sendStoredFile, sendZip } from '../../../http/downloads.js';
import { toUserReference } from '../../identity/users/index.js';
import { deleteReferences, insertReferences, usersByIds } from './reference-files.repository.js';
import type { ReferenceFileRow, ReferenceOwner } from './reference-files.repository.js';
import { ReferenceNote } from './reference-files.schemas.js';
import type { ReferenceFileReference, TemplateReferenceFile } from './reference-files.schemas.js';
import { withUploads } from '../../../http/multipart-uploads.js';
import type { MultipartUpload, UploadedFile } from '../../../http/multipart-uploads.js';

/** The file a note alone becomes (description: "converted to a .txt file"). */
export const NOTE_FILENAME = 'note.txt';

/** The note of a `json` part (or v1 JSON body); undefined when none was sent. */
export function noteOf(json: string | undefined): string | undefined {
  if (json === undefined) return undefined;
  return (parseJsonDocument(json, ReferenceNote, 'json') as { note: string }).note;
}

/**
 * What a create request makes: one reference per file, each with the note; with no file, one
 * `.txt` reference made from the note (description, "Reference files"). Neither is a 400.
 */
async function plannedReferences(deps: AppDeps, files: readonly UploadedFile[], note: string | undefined): Promise<UploadedFile[]> {
  if (files.length > 0) return [...files];
  if (note === undefined || note.trim() === '') {
    throw errors.FileOrNoteRequired();
  }
  const blob = await putUpload(deps, Buffer.from(note, 'utf8'));
  return [{ filename: NOTE_FILENAME, contentType: 'text/plain', blob }];
}

/**
 * Stores the references of one create request in one transaction: the stored files are recorded
 * with the rows that use them, and a failure leaves neither rows nor unused blobs.
 */
export async function createReferences(
  deps: AppDeps,
  caller: Caller,
  organizationId: Id,
  owner: ReferenceOwner,
  upload: MultipartUpload,
): Promise<ReferenceFileRow[]> {
  const { note, files } = await withUploads(
    deps,
    upload.files.map((f) => f.blob),
    async () => {
      const given = noteOf(upload.json);
      return { note: given, files: await plannedReferences(deps, upload.files, given) };
    },
  );
  const storedNote = note === undefined || note === '' ? null : note;
  return withUploads(
    deps,
    files.map((f) => f.blob),
    () =>
      deps.database.db.transaction().execute(async (trx) => {
        for (const file of files) await recordStoredFile(deps, trx, file.blob);
        const references = files.map((f) => ({
          filename: f.filename,
          note: storedNote,
          sha256: f.blob.sha256,
          size: f.blob.size,
          contentType: f.contentType,
        }));
        return insertReferences(trx, organizationId, owner, references, caller.userId, deps.clock().toISOString());
      }),
  );
}

/** Deletes the references in one transaction, then removes the stored files no other record uses. */
export async function deleteReferenceRows(deps: AppDeps, rows: readonly ReferenceFileRow[]): Promise<void> {
  await deps.database.db.transaction().execute((trx: Kysely<DB>) =>
    deleteReferences(
      trx,
      rows.map((r) => r.id),
    ),
  );
  await releaseStoredFiles(
    deps,
    rows.map((r) => r.sha256),
  );
}

/** One reference as its file, several as a ZIP archive named `archiveName` (description: batch download). */
export function sendReferences(
  deps: AppDeps,
  reply: FastifyReply,
  rows: readonly ReferenceFileRow[],
  archiveName: string,
): Promise<FastifyReply> {
  if (rows.length === 1) return sendStoredFile(deps, reply, rows[0]!);
  const ordered = [...rows].sort((a, b) => Number(a.id) - Number(b.id));
  return sendZip(deps, reply, archiveName, ordered);
}

/** Unique selected values, in the order given. */
/** Ids as bodies send them (numbers or strings), as strings, each once. */
export const distinct = (values: ReadonlyArray<string | number>): string[] => [...new Set(values.map(String))];

/** The 400 for selected references that are not the owner's (description, "Condition to status" 1). */
export function notOwnedReferences(missing: readonly string[], owner: ReferenceOwner): ApiError {
  const where = owner.kind === 'project' ? 'project' : 'project template';
  return errors.InvalidArguments({
    reason: `Reference files ${missing.join(', ')} do not belong to this ${where}.`,
    details: missing.map((value) => ({ field: 'referenceFiles', message: `${value} does not belong to this ${where}` })),
  });
}

/** Spec `ReferenceFileReference` for each row; creators of any organization are shown (vendors' users included). */
export async function toProjectReferenceDtos(db: Kysely<DB>, rows: readonly ReferenceFileRow[]): Promise<ReferenceFileReference[]> {
  const users = new Map(
    (
      await usersByIds(
        db,
        rows.map((r) => r.createdById),
      )
    ).map((u) => [u.id, toUserReference(u)]),
  );
  return rows.map((row) => ({
    id: row.id,
    uid: row.uid,
    filename: row.filename,
    note: row.note,
    dateCreated: row.createdAt,
    createdBy: row.createdById === null ? null : (users.get(row.createdById) ?? null),
  }));
}

/** The template record: `createdBy` without role, null when the creator belongs to another organization (description). */
export async function toTemplateReferenceDtos(
  db: Kysely<DB>,
  organizationId: string,
  rows: readonly ReferenceFileRow[],
): Promise<TemplateReferenceFile[]> {
  const users = new Map(
    (
      await usersByIds(
        db,
        rows.map((r) => r.createdById),
      )
    )
      .filter((u) => u.organizationId === organizationId)
      .map((u) => {
        const { role: _role, ...withoutRole } = toUserReference(u);
        return [u.id, withoutRole] as const;
      }),
  );
  return rows.map((row) => ({
    id: row.id,
    uid: row.uid,
    filename: row.filename,
    note: row.note,
    dateCreated: row.createdAt,
    createdBy: row.createdById === null ? null : (users.get(row.createdById) ?? null),
  }));
}
