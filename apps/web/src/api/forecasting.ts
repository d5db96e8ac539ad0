// Calls of the Forecasting screen (spec §7 /api/forecasting/*, products from the table named
// `products`), typed from the contract. Owns the shared forecast fetch of spec §4: one pending
// request per product, cached afterwards, dropped after a regeneration.
import type { z } from 'zod';
import type { OpenDayAnswer, ProductForecastResponse, RowPage, TableRow, TaskStatus, TaskStatusResponse, generationResponse, latestReportResponse } from '@stockwise/contract';
import { DEFAULT_FORECAST_DAYS, WHOLE_CATALOGUE } from '@stockwise/contract';
import { api } from './http.ts';
import { fetchExport, fetchWorkbook } from './downloads.ts';
import { normalizeError } from './errors.ts';
import { i18n } from '../i18n.ts';
import type { RowDataParams } from './tables.ts';

/** Spec §7: products are read from the table named products, page 1, page size 50. */
export const productsTable = 'products';
export const productsPageSize = 50;

/** Spec §3 Product, plus the lead time and category the products table carries. */
export type Product = {
  id: number | string;
  styleCode: string;
  name: string;
  currentStock: number;
  unitCost: number;
  leadTimeDays: number | null;
  category: string | null;
};

export type LatestReportResponse = z.infer<typeof latestReportResponse>;
export type GenerationResponse = z.infer<typeof generationResponse>;

/** A status poll's answer; a 404 becomes `not_found` (spec §8), and a newer server may send a status we do not know. */
export type PolledTaskStatus = Omit<TaskStatusResponse, 'status' | 'restart'> & { status: TaskStatus | 'not_found' | (string & {}); restart?: TaskStatusResponse['restart'] };

const numberOr = (value: unknown, fallback: number): number => {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : fallback;
};
const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null);

/** Spec §3: styleCode from product_code, else styleCode, else id. */
export function toProduct(row: TableRow): Product {
  const id = (row['id'] as number | string | undefined) ?? '';
  const leadTime = numberOr(row['lead_time_days'], Number.NaN);
  return {
    id,
    styleCode: textOf(row['product_code']) ?? textOf(row['styleCode']) ?? String(id),
    name: textOf(row['name']) ?? '',
    currentStock: numberOr(row['current_stock'] ?? row['currentStock'], 0),
    unitCost: numberOr(row['unit_cost'] ?? row['unitCost'], 0),
    leadTimeDays: Number.isFinite(leadTime) ? leadTime : null,
    category: textOf(row['category']),
  };
}

const productsPath = `/records/tables/${productsTable}/data/`;

async function fetchProductRows(params: RowDataParams): Promise<RowPage> {
  return (await api.get<RowPage>(productsPath, { params })).data;
}

/** The first page of products (spec §7: page 1, page size 50). */
export async function fetchProducts(): Promise<Product[]> {
  return (await fetchProductRows({ page: 1, page_size: productsPageSize })).results.map(toProduct);
}

/**
 * Server-side search beyond the first page: product_code contains the text, or name contains it.
 * Filters are ANDed (docs/api.md), so the two are asked separately and merged (codes first).
 */
export async function searchProducts(text: string): Promise<Product[]> {
  const query = text.trim();
  if (query === '') return fetchProducts();
  const ask = (column: string) => fetchProductRows({ page: 1, page_size: productsPageSize, filters_json: JSON.stringify({ [column]: { contains: query } }) });
  const [byCode, byName] = await Promise.all([ask('product_code'), ask('name')]);
  const seen = new Set<string>();
  const merged: Product[] = [];
  for (const product of [...byCode.results, ...byName.results].map(toProduct)) {
    if (seen.has(product.styleCode)) continue;
    seen.add(product.styleCode);
    merged.push(product);
  }
  return merged;
}

/** Performance marks the chart benchmark reads (bench/forecast-chart). */
export const forecastMarks = { received: 'forecast:received', committed: 'forecast:committed', rendered: 'forecast:rendered' } as const;

const pendingForecasts = new Map<string, Promise<ProductForecastResponse>>();
/** The horizon asked for, when not the stored forecast's (ADR 0162, amendment 2026-12-04 horizon). */
const horizonQuery = (days: number) => (days === DEFAULT_FORECAST_DAYS ? '' : `?forecast_days=${days}`);
const forecastKey = (styleCode: string, days: number) => `${days}:${styleCode}`;

/**
 * Spec §4: one pending forecast fetch per product and horizon, shared by every caller and cached
 * once answered. A failed fetch is forgotten, so the next call asks again. A horizon other than the
 * stored 90 days is forecast by the server when asked.
 */
export function fetchProductForecast(styleCode: string, days: number = DEFAULT_FORECAST_DAYS): Promise<ProductForecastResponse> {
  const key = forecastKey(styleCode, days);
  const cached = pendingForecasts.get(key);
  if (cached) return cached;
  const request = api
    .get<ProductForecastResponse>(`/forecasting/forecasts/${encodeURIComponent(styleCode)}${horizonQuery(days)}`)
    .then((answer) => {
      if (typeof performance !== 'undefined') performance.mark(forecastMarks.received, { detail: styleCode });
      return answer.data;
    })
    .catch((error: unknown) => {
      if (pendingForecasts.get(key) === request) pendingForecasts.delete(key);
      throw error;
    });
  pendingForecasts.set(key, request);
  return request;
}

/** Drops the cached forecasts of one product (every horizon), or of every product (after a whole-catalogue run). */
export function invalidateProductForecast(styleCode?: string | null): void {
  if (styleCode == null || styleCode === WHOLE_CATALOGUE) pendingForecasts.clear();
  else for (const key of [...pendingForecasts.keys()]) if (key.slice(key.indexOf(':') + 1) === styleCode) pendingForecasts.delete(key);
}

/** Starts a generation task; style_code omitted = the whole catalogue. Throws the §8 message when the answer has no task_id. */
export async function requestForecastGeneration(styleCode: string | null, forecastDays = DEFAULT_FORECAST_DAYS): Promise<string> {
  const body = styleCode === null ? { forecast_days: forecastDays } : { style_code: styleCode, forecast_days: forecastDays };
  const answer = (await api.post<Partial<GenerationResponse> | null>('/forecasting/request-generation/', body)).data;
  const taskId = answer?.task_id;
  if (typeof taskId !== 'string' || taskId === '') throw new Error(i18n.t('forecasting.errors.missingTaskId'));
  return taskId;
}

/** One status poll; a 404 is `not_found` with the §8 message (the task may not be visible yet). */
export async function fetchTaskStatus(taskId: string): Promise<PolledTaskStatus> {
  try {
    return (await api.get<PolledTaskStatus>(`/forecasting/status/${encodeURIComponent(taskId)}/`)).data;
  } catch (error) {
    const normalized = normalizeError(error);
    if (normalized.details.status !== 404) throw normalized;
    return { task_id: taskId, status: 'not_found', progress: { done: 0, total: 0 }, results: null, error: i18n.t('forecasting.errors.taskNotFound') };
  }
}

/** The product's forecast over the horizon shown as an .xlsx (the columns of its CSV, typed cells for a European Excel; docs/api.md). */
export const fetchForecastWorkbook = (styleCode: string, days: number): Promise<Blob> =>
  fetchWorkbook(`/forecasting/forecasts/${encodeURIComponent(styleCode)}/export/`, days === DEFAULT_FORECAST_DAYS ? {} : { forecast_days: days });

/**
 * The list's supplier filter (ADR 0184): undefined, every supplier; null, the products with none;
 * else the supplier's name. The API's `supplier` parameter says "none" blank.
 */
export type SupplierFilter = string | null | undefined;
const supplierParam = (supplier: SupplierFilter): Record<string, string> => (supplier === undefined ? {} : { supplier: supplier ?? '' });
/** Products made here (ADR 0194) are asked for only when shown: the server leaves them out by default. */
const madeHereParam = (includeMadeHere: boolean | undefined): Record<string, string> => (includeMadeHere ? { include_made_here: 'true' } : {});

/** The latest report's whole list under the filters shown (every page, not only the one loaded), as CSV or .xlsx. */
export const fetchReportExport = (format: 'csv' | 'xlsx', report: { inactive_days: number }, includeInactive: boolean, supplier?: SupplierFilter, includeMadeHere = false): Promise<Blob> =>
  fetchExport('/forecasting/latest-report/export/', format, { inactive_days: report.inactive_days, include_inactive: includeInactive ? 'true' : 'false', ...madeHereParam(includeMadeHere), ...supplierParam(supplier) });

/** One page of the latest report (of the server's size unless `pageSize`); products without recent demand only when `includeInactive`; one supplier's only when `supplier` is given. */
/** Whether the shop is closed on `date` (YYYY-MM-DD), the note of its own closed day, and the next day it is open (ADR 0182, amendment 2026-12-06). */
export const fetchOpenDay = async (date: string): Promise<OpenDayAnswer> => (await api.get<OpenDayAnswer>('/forecasting/open-day/', { params: { date } })).data;

export async function fetchLatestReport(options: { page?: number; pageSize?: number; includeInactive?: boolean; includeMadeHere?: boolean; supplier?: SupplierFilter } = {}): Promise<LatestReportResponse> {
  const params = { page: options.page ?? 1, ...(options.pageSize ? { page_size: options.pageSize } : {}), include_inactive: options.includeInactive ? 'true' : 'false', ...madeHereParam(options.includeMadeHere), ...supplierParam(options.supplier) };
  return (await api.get<LatestReportResponse>('/forecasting/latest-report/', { params })).data;
}
