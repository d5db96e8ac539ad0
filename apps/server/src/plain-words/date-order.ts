// The assistant's and report writer's words for a date order (dateOrderOf, in the contract, decides it).
import type { DateOrder } from '@stockwise/contract';

/** A day and month written with a slash in the order given: "30/11" day-first, "11/30" month-first (help texts and examples). */
export const slashed = (day: number, month: number, order: DateOrder) => (order === 'month-first' ? `${month}/${day}` : `${day}/${month}`);

/** The order said in words, for a model's tool descriptions: "dates day-first (30/11 is 30 November)". */
export const dateOrderWords = (order: DateOrder) => `dates ${order} (${slashed(30, 11, order)} is 30 November)`;
