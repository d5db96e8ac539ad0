// Calls of the Reports screen (spec §7 /api/user-reports/*), typed from the contract, and the
// named-report fetch the dashboard uses (spec §8 'Failed to fetch report data for "{name}"').
import type {
  CreateReportRequest,
  ExecuteResponse,
  GenerateRequest,
  GenerateResponse,
  RegenerateRequest,
  RegenerateResponse,
  ReportDataResponse,
  ReportExportRequest,
  ReportSchemaResponse,
  UpdateReportRequest,
  UserReport,
} from '@stockwise/contract';
import { XLSX_CONTENT_TYPE } from '@stockwise/contract';
import { fileOrRefusal } from './downloads.ts';
import { api } from './http.ts';
import { inShopDay } from './shop-day.ts';
import { atVersion } from './versions.ts';
import { i18n } from '../i18n.ts';

const base = '/user-reports/';

export const listReports = async (): Promise<UserReport[]> => (await api.get<UserReport[]>(base)).data;
export const getReport = async (id: number): Promise<UserReport> => (await api.get<UserReport>(`${base}${id}/`)).data;
export const createReport = async (values: CreateReportRequest): Promise<UserReport> => (await api.post<UserReport>(base, values)).data;
/** `version`: the report's as the editor read it; a report saved by someone else since is refused (ADR 0168). */
export const updateReport = async (id: number, values: UpdateReportRequest, version?: string): Promise<UserReport> => (await api.put<UserReport>(`${base}${id}/`, values, atVersion(version))).data;
export const deleteReport = async (id: number, version?: string): Promise<void> => {
  await api.delete(`${base}${id}/`, atVersion(version));
};
export const executeSql = async (sqlCode: string): Promise<ExecuteResponse> => (await api.post<ExecuteResponse>(`${base}execute/`, { sql_code: sqlCode }, inShopDay())).data;

/** The SQL run again by the server, its rows as an .xlsx workbook (docs/api.md "Download a report as Excel"). */
export async function exportXlsx(request: ReportExportRequest): Promise<Blob> {
  const answer = await api.post<ArrayBuffer>(`${base}export/`, request, {
    params: { format: 'xlsx', ...inShopDay().params },
    headers: { Accept: `${XLSX_CONTENT_TYPE}, application/json` },
    responseType: 'arraybuffer',
    transformResponse: fileOrRefusal,
  });
  return new Blob([answer.data], { type: XLSX_CONTENT_TYPE });
}
export const generateFromRequest = async (request: GenerateRequest): Promise<GenerateResponse> => (await api.post<GenerateResponse>(`${base}generate-from-request/`, request, inShopDay())).data;
export const regenerate = async (request: RegenerateRequest): Promise<RegenerateResponse> => (await api.post<RegenerateResponse>(`${base}regenerate/`, request, inShopDay())).data;
export const fetchReportSchema = async (): Promise<ReportSchemaResponse> => (await api.get<ReportSchemaResponse>(`${base}schema/`)).data;

/**
 * A saved report's rows and chart by id or title, for the dashboard. A report fetch with no name is
 * skipped (null, spec §5); any failure is 'Failed to fetch report data for "{name}"' with the
 * failure as `cause` (normalizeError(cause) gives the server's reason).
 */
export async function fetchReportData(name: string | number | null | undefined): Promise<ReportDataResponse | null> {
  if (name === null || name === undefined || String(name).trim() === '') return null;
  try {
    return (await api.get<ReportDataResponse>(`${base}${encodeURIComponent(String(name))}/data/`, inShopDay())).data;
  } catch (error) {
    throw new Error(i18n.t('reports.errors.fetchReportData', { name: String(name) }), { cause: error });
  }
}
