// Calls of Settings → Demo data (docs/api.md "Demo data").
import type { DemoDataResponse, DemoRemovalResponse } from '@stockwise/contract';
import { api } from './http.ts';

export const fetchDemoData = async (): Promise<DemoDataResponse> => (await api.get<DemoDataResponse>('/demo/')).data;
export const removeDemoData = async (): Promise<DemoRemovalResponse> => (await api.post<DemoRemovalResponse>('/demo/remove/', {})).data;
