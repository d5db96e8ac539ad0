// The order a signed-in person writes dates with numbers alone in, for the server's readers of typed
// text (the assistant, the report writer): their own choice (Profile), else their browser's language.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { dateOrderFor, type DateOrder } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { currentUser } from './guard.ts';
import { findDateOrderPreference } from './repo.ts';

/** Read per request, not cached with the role: a changed choice holds from the next question on. */
export async function askersDateOrder(db: Kysely<Database>, request: FastifyRequest): Promise<DateOrder> {
  const preference = await findDateOrderPreference(db, currentUser(request).userId);
  return dateOrderFor(preference ?? 'browser', request.headers['accept-language']);
}
