// Calls of the dashboard (docs/api.md "Dashboard") and the assistant (docs/api.md "Assistant").
import type { AssistantActionRequest, AssistantContext, ChatMessage, DashboardResponse, QuickAction, Task } from '@stockwise/contract';
import { api } from './http.ts';

export const fetchDashboard = async (): Promise<DashboardResponse> => (await api.get<DashboardResponse>('/dashboard/')).data;
export const addTask = async (text: string): Promise<Task> => (await api.post<Task>('/dashboard/tasks/', { text })).data;
export const toggleTask = async (id: number): Promise<Task> => (await api.post<Task>(`/dashboard/tasks/${id}/toggle/`, {})).data;
export const deleteTask = async (id: number): Promise<void> => {
  await api.delete(`/dashboard/tasks/${id}/`);
};
export const pinReport = async (reportId: number) => (await api.post<{ id: number; title: string }[]>('/dashboard/pins/', { report_id: reportId })).data;
export const unpinReport = async (reportId: number): Promise<void> => {
  await api.delete(`/dashboard/pins/${reportId}/`);
};

export const fetchAssistantHistory = async (): Promise<ChatMessage[]> => (await api.get<ChatMessage[]>('/assistant/messages/')).data;
export const askAssistant = async (request: { content: string; quick?: QuickAction; context: AssistantContext; time_zone: string }): Promise<ChatMessage[]> =>
  (await api.post<{ messages: ChatMessage[] }>('/assistant/messages/', request)).data.messages;
export const runAssistantAction = async (request: AssistantActionRequest): Promise<ChatMessage[]> =>
  (await api.post<{ messages: ChatMessage[] }>('/assistant/actions/', request)).data.messages;
