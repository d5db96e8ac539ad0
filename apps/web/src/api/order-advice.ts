// Calls of the order advice (docs/api.md "Order advice"): an order a buyer placed, recorded from the
// list that advised it (ADR 0182).
import type { RecordedOrder, RecordOrderRequest } from '@stockwise/contract';
import { api } from './http.ts';

/** Writes the order as a scheduled delivery; the answer names the product's forecast run that counts it. */
export const recordOrder = async (order: RecordOrderRequest): Promise<RecordedOrder> => (await api.post<RecordedOrder>('/order-advice/orders/', order)).data;
