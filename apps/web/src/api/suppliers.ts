// Calls of the suppliers (docs/api.md "Suppliers"): the suppliers the products name, one spelling each (ADR 0186).
import type { SupplierList } from '@stockwise/contract';
import { api } from './http.ts';

/** The suppliers the products name, each in the spelling most products hold, by name. */
export const fetchSuppliers = async (): Promise<SupplierList> => (await api.get<SupplierList>('/suppliers/')).data;
