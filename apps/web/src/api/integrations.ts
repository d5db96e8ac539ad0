// Calls of the scheduled integrations (spec §7 /api/integrations/scheduled/*) and of trying an
// endpoint before saving (/api/integrations/try/), typed from the contract.
import type { Integration, IntegrationInput, IntegrationLogPage, IntegrationStatusResponse, IntegrationTryRequest, IntegrationTryResponse, RunResponse } from '@stockwise/contract';
import { api } from './http.ts';
import { atVersion } from './versions.ts';

const base = '/integrations/scheduled';
const one = (id: number) => `${base}/${id}`;

export async function fetchIntegrations(): Promise<Integration[]> {
  return (await api.get<Integration[]>(`${base}/`)).data;
}

export async function createIntegration(input: IntegrationInput): Promise<Integration> {
  return (await api.post<Integration>(`${base}/`, input)).data;
}

/**
 * Sends only the fields given; the server keeps the rest (the enabled switch sends `{enabled}`).
 * `version`: the integration's as the editor opened it; one saved by someone else since is refused (ADR 0168).
 */
export async function updateIntegration(id: number, input: IntegrationInput, version?: string): Promise<Integration> {
  return (await api.put<Integration>(`${one(id)}/`, input, atVersion(version))).data;
}

export async function deleteIntegration(id: number, version?: string): Promise<void> {
  await api.delete(`${one(id)}/`, atVersion(version));
}

export async function runIntegration(id: number): Promise<RunResponse> {
  return (await api.post<RunResponse>(`${one(id)}/run/`, {})).data;
}

export async function fetchIntegrationStatus(id: number): Promise<IntegrationStatusResponse> {
  return (await api.get<IntegrationStatusResponse>(`${one(id)}/status/`)).data;
}

/** Spec §7: "results list or plain list"; this server pages them. */
export async function fetchIntegrationLogs(id: number, page: number, pageSize: number): Promise<IntegrationLogPage> {
  const answer = (await api.get<IntegrationLogPage | IntegrationLogPage['results']>(`${one(id)}/logs/`, { params: { page, page_size: pageSize } })).data;
  return Array.isArray(answer) ? { results: answer, count: answer.length, next: null } : answer;
}

/** Fetches the endpoint's first page as a run would and types its first records; saves nothing. */
export async function tryEndpoint(input: IntegrationTryRequest): Promise<IntegrationTryResponse> {
  return (await api.post<IntegrationTryResponse>('/integrations/try/', input)).data;
}
