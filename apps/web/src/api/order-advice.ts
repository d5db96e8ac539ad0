// Calls of the order advice (docs/api.md "Order advice"): an order a buyer placed, recorded from the
// list that advised it (ADR 0182), and a supplier's orders recorded at once (ADR 0185).
import type { RecordedOrder, RecordedOrders, RecordOrderRequest, RecordOrdersRequest } from '@stockwise/contract';
import { api } from './http.ts';

/** Writes the order as a scheduled delivery; the answer names the product's forecast run that counts it. */
export const recordOrder = async (order: RecordOrderRequest): Promise<RecordedOrder> => (await api.post<RecordedOrder>('/order-advice/orders/', order)).data;

/** Writes every order, or none (a refusal names each order's field as `orders.3.quantity`); the answer names the one run that counts them all. */
export const recordOrders = async (request: RecordOrdersRequest): Promise<RecordedOrders> => (await api.post<RecordedOrders>('/order-advice/orders/batch/', request)).data;
