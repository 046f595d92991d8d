/**
 * Recognizes constraint violations raised by either database, so that services can turn a race
 * lost at the database (two creations of one name at once) into the same 4xx as the check made
 * before the write.
 */
function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/** A unique index or constraint refused the write (`23505` / `SQLITE_CONSTRAINT_UNIQUE`). */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** A foreign key refused the write (`23503` / `SQLITE_CONSTRAINT_FOREIGNKEY`). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
