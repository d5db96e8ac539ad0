// Unsaved edits of a report, kept in this page's memory per signed-in user and report until they
// are saved or discarded, so that opening another report or another screen loses no SQL typed by
// hand (ADR 0159, unsaved report edits). Spec §9 lets only the refresh token persist in the browser,
// so a reload or a closed tab does not keep them: the page asks first. Only the editor's fields are
// kept, never a result row.
import { z } from 'zod';
import { chartConfig, type ChartConfig, type UserReport } from '@stockwise/contract';

export type ReportDraft = { title: string; description: string; sql_code: string; chart_config: ChartConfig | null; pseudocode: string };

/** A kept draft: the edits, when they were last written, and the saved version they started from. */
export type KeptReportDraft = { draft: ReportDraft; editedAt: number; baseUpdatedAt: string };

const keptReportDraft = z.object({
  draft: z.object({
    title: z.string(),
    description: z.string(),
    sql_code: z.string(),
    chart_config: chartConfig.nullable(),
    pseudocode: z.string(),
  }),
  editedAt: z.number(),
  baseUpdatedAt: z.string(),
});

const keyPrefix = 'stockwise.reportDraft.';
/** Drafts nobody came back to in this long are dropped rather than kept forever. */
export const keptDraftMaxAgeMs = 30 * 24 * 60 * 60 * 1000;

export const reportDraftKey = (userId: number, reportId: number): string => `${keyPrefix}${userId}.${reportId}`;

export const draftOf = (report: UserReport): ReportDraft => ({
  title: report.title,
  description: report.description,
  sql_code: report.sql_code,
  chart_config: report.chart_config,
  pseudocode: report.pseudocode,
});

/** JSON with object keys sorted: the server stores a chart as jsonb, which reorders its keys. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b))) : inner,
  );
}

/** A chart as the server would store it (defaults filled in), so an unchanged one never counts as an edit. */
const storedChart = (chart: ChartConfig | null) => (chart === null ? null : canonicalJson(chartConfig.safeParse(chart).data ?? chart));

export function sameDraft(a: ReportDraft, b: ReportDraft): boolean {
  return a.title === b.title && a.description === b.description && a.sql_code === b.sql_code && a.pseudocode === b.pseudocode && storedChart(a.chart_config) === storedChart(b.chart_config);
}

/** A Storage in this page's memory: gone with a reload, as spec §9 wants anything but the refresh token. */
class PageMemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  clear(): void {
    this.items.clear();
  }
}

const pageMemory = new PageMemoryStorage();
/** Where drafts are kept: this page's memory (a Storage, so a test can hand in another). */
export const draftStorage = (): Storage => pageMemory;

export function readKeptDraft(storage: Storage | null, userId: number, reportId: number, now = Date.now()): KeptReportDraft | null {
  const key = reportDraftKey(userId, reportId);
  const text = storage?.getItem(key);
  if (!text) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const kept = keptReportDraft.safeParse(parsed);
  if (!kept.success || now - kept.data.editedAt > keptDraftMaxAgeMs) {
    storage?.removeItem(key);
    return null;
  }
  return kept.data;
}

/** Keeps the draft; false when the browser refused it (storage full or switched off). */
export function keepDraft(storage: Storage | null, userId: number, reportId: number, kept: KeptReportDraft): boolean {
  if (!storage) return false;
  try {
    storage.setItem(reportDraftKey(userId, reportId), JSON.stringify(kept));
    return true;
  } catch {
    return false;
  }
}

export function forgetDraft(storage: Storage | null, userId: number, reportId: number): void {
  storage?.removeItem(reportDraftKey(userId, reportId));
}

/** Drops the user's drafts of reports that no longer exist (deleted elsewhere) and those too old to matter. */
export function pruneKeptDrafts(storage: Storage | null, userId: number, existingReportIds: ReadonlySet<number>, now = Date.now()): void {
  if (!storage) return;
  const userPrefix = `${keyPrefix}${userId}.`;
  const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index)).filter((key): key is string => key?.startsWith(userPrefix) ?? false);
  for (const key of keys) {
    const reportId = Number(key.slice(userPrefix.length));
    if (!existingReportIds.has(reportId)) storage.removeItem(key);
    else readKeptDraft(storage, userId, reportId, now);
  }
}
