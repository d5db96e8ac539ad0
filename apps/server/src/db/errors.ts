// Recognising PostgreSQL's errors, as the pg driver and PGlite both raise them (SQLSTATE in `code`).
export type DatabaseError = {
  code: string;
  message: string;
  detail?: string | undefined;
  table?: string | undefined;
  column?: string | undefined;
  constraint?: string | undefined;
};

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** The error as a PostgreSQL error, or null when it is something else. */
export function databaseErrorOf(error: unknown): DatabaseError | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && SQLSTATE.test(code) && typeof severity === 'string' ? (error as DatabaseError) : null;
}

/** Deadlock (40P01) or serialization failure (40001): the same work may well succeed when run again. */
export const isTransientConflict = (error: unknown) => ['40P01', '40001'].includes(databaseErrorOf(error)?.code ?? '');
