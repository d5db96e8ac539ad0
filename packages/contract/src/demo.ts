// The demo data's removal (docs/api.md "Demo data"; ADR 0165).
import { z } from 'zod';

/** How much of the demo shop is still here: its products (found by code and name) and their rows of sales. */
export const demoDataResponse = z.object({ products: z.number().int(), sales_rows: z.number().int() });
export type DemoDataResponse = z.infer<typeof demoDataResponse>;

/** What the removal deleted, and the sentence that says so. */
export const demoRemovalResponse = demoDataResponse.extend({ message: z.string() });
export type DemoRemovalResponse = z.infer<typeof demoRemovalResponse>;
