// Unsaved report edits kept in a Storage (the page's memory in the app; jsdom's localStorage here): per
// user and report, checked when read back, dropped when too old or when their report is gone.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ChartConfig } from '@stockwise/contract';
import { forgetDraft, keepDraft, keptDraftMaxAgeMs, pruneKeptDrafts, readKeptDraft, reportDraftKey, sameDraft, type KeptReportDraft, type ReportDraft } from './report-drafts.ts';

const now = Date.parse('2026-12-03T10:00:00Z');
const draft: ReportDraft = { title: 'Stock by category', description: '', sql_code: 'select category, sum(current_stock) from products group by 1', chart_config: null, pseudocode: '' };
const kept = (changes: Partial<KeptReportDraft> = {}): KeptReportDraft => ({ draft, editedAt: now - 60_000, baseUpdatedAt: '2026-12-01T08:00:00.000Z', ...changes });

beforeEach(() => localStorage.clear());

describe('kept report drafts', () => {
  it('reads back what was kept, for that user and that report only', () => {
    expect(keepDraft(localStorage, 1, 7, kept())).toBe(true);
    expect(readKeptDraft(localStorage, 1, 7, now)).toEqual(kept());
    expect(readKeptDraft(localStorage, 2, 7, now)).toBeNull();
    expect(readKeptDraft(localStorage, 1, 8, now)).toBeNull();
    forgetDraft(localStorage, 1, 7);
    expect(readKeptDraft(localStorage, 1, 7, now)).toBeNull();
    expect(localStorage.length).toBe(0);
  });

  it('drops what it cannot read (an older format, a hand-edited value) instead of restoring it', () => {
    localStorage.setItem(reportDraftKey(1, 7), '{not json');
    expect(readKeptDraft(localStorage, 1, 7, now)).toBeNull();
    expect(localStorage.getItem(reportDraftKey(1, 7))).toBeNull();
    localStorage.setItem(reportDraftKey(1, 7), JSON.stringify({ draft: { title: 'x' }, editedAt: now }));
    expect(readKeptDraft(localStorage, 1, 7, now)).toBeNull();
    expect(localStorage.getItem(reportDraftKey(1, 7))).toBeNull();
  });

  it('drops a draft nobody came back to for longer than the limit', () => {
    keepDraft(localStorage, 1, 7, kept({ editedAt: now - keptDraftMaxAgeMs + 1000 }));
    expect(readKeptDraft(localStorage, 1, 7, now)).not.toBeNull();
    keepDraft(localStorage, 1, 7, kept({ editedAt: now - keptDraftMaxAgeMs - 1000 }));
    expect(readKeptDraft(localStorage, 1, 7, now)).toBeNull();
    expect(localStorage.length).toBe(0);
  });

  it('says so when the browser refuses to keep it (storage full or switched off)', () => {
    const full = { setItem: () => { throw new DOMException('full', 'QuotaExceededError'); } } as unknown as Storage;
    expect(keepDraft(full, 1, 7, kept())).toBe(false);
    expect(keepDraft(null, 1, 7, kept())).toBe(false);
    expect(readKeptDraft(null, 1, 7, now)).toBeNull();
  });

  it("prunes the user's drafts of deleted reports and old ones; other users' and other keys stay", () => {
    keepDraft(localStorage, 1, 7, kept());
    keepDraft(localStorage, 1, 8, kept());
    keepDraft(localStorage, 1, 9, kept({ editedAt: now - keptDraftMaxAgeMs - 1 }));
    keepDraft(localStorage, 2, 8, kept());
    localStorage.setItem('stockwise.refreshToken', 'r1');
    pruneKeptDrafts(localStorage, 1, new Set([7, 9]), now);
    expect(Object.keys(localStorage).sort()).toEqual([reportDraftKey(1, 7), reportDraftKey(2, 8), 'stockwise.refreshToken'].sort());
  });

  it('compares drafts as the server stores them: a chart with its defaults and keys in another order is the same chart', () => {
    const chart: ChartConfig = { type: 'bar', x_field: 'category', series: [{ field: 'stock' }], group_field: null, stacked: false, title: '', sort: null };
    const asStored = JSON.parse('{"sort": null, "type": "bar", "title": "", "series": [{"field": "stock"}], "stacked": false, "x_field": "category", "group_field": null}') as ChartConfig;
    const withoutDefaults = { type: 'bar', x_field: 'category', series: [{ field: 'stock' }] } as ChartConfig;
    expect(sameDraft({ ...draft, chart_config: chart }, { ...draft, chart_config: asStored })).toBe(true);
    expect(sameDraft({ ...draft, chart_config: withoutDefaults }, { ...draft, chart_config: asStored })).toBe(true);
    expect(sameDraft({ ...draft, chart_config: chart }, { ...draft, chart_config: { ...chart, type: 'line' } })).toBe(false);
    expect(sameDraft({ ...draft, chart_config: chart }, draft)).toBe(false);
    expect(sameDraft(draft, { ...draft, sql_code: `${draft.sql_code} ` })).toBe(false);
    expect(sameDraft(draft, { ...draft, title: 'Stock' })).toBe(false);
  });
});
