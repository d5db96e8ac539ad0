// The order a signed-in person writes dates with numbers alone in, for the server's readers of typed
// text (the assistant, the report writer, the import preview): their own choice (Profile), else their
// browser's language. Other features ask here, not auth's repo.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { dateOrderFor, type DateOrder, type DateOrderPreference } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { currentUser } from './guard.ts';
import { findDateOrderPreference } from './repo.ts';

/** The asker's own choice as saved ('browser': none; undefined for an account without a row), read per request like `askersDateOrder`. */
export const askersDateOrderChoice = (db: Kysely<Database>, request: FastifyRequest): Promise<DateOrderPreference | undefined> =>
  findDateOrderPreference(db, currentUser(request).userId);

/** Read per request, not cached with the role: a changed choice holds from the next question on. */
export async function askersDateOrder(db: Kysely<Database>, request: FastifyRequest): Promise<DateOrder> {
  return dateOrderFor((await askersDateOrderChoice(db, request)) ?? 'browser', request.headers['accept-language']);
}
