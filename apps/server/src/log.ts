// Errors a request or job has already got past, written as one JSON line the log can be searched by `msg`.
export function logError(msg: string, error: unknown, fields: Record<string, unknown> = {}): void {
  console.error(JSON.stringify({ level: 'error', msg, ...fields, err: error instanceof Error ? (error.stack ?? error.message) : error }));
}
