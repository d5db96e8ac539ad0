// Named queries: read-only SQL from the configuration that yields {id, value} rows (spec §7 /api/queries/*).
import { z } from 'zod';

export const namedQuerySummary = z.object({
  name: z.string(),
  description: z.string(),
  params: z.record(z.string(), z.object({ type: z.string(), default: z.union([z.string(), z.number(), z.boolean()]).optional() })),
});
export const namedQueryList = z.array(namedQuerySummary);
export const namedQueryRow = z.object({ id: z.union([z.number(), z.string()]), value: z.union([z.number(), z.string(), z.boolean(), z.null()]) });
export const namedQueryRows = z.array(namedQueryRow);
export type NamedQueryRow = z.infer<typeof namedQueryRow>;
