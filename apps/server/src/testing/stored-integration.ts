// Tests that need an integration as its runs leave it (a schedule, a last run that failed) without
// running one: the row as the integrations screen would have saved it, with what the test sets.
import type { Insertable, Kysely } from 'kysely';
import type { Database, IntegrationsTable } from '../db/schema.ts';

const savedIntegration: Insertable<IntegrationsTable> = {
  endpoint: 'https://shop.example.com/api/order-lines',
  schedule_frequency: 'daily',
  mapping_selection: 'shop_export_json',
  target_entity: 'sales',
  data_action: 'upsert',
  data_fetch_type: 'latest',
  previous_days: null,
  initial_setup: false,
  rate_limit: 60,
  batch_size: 100,
  records_path: null,
  pagination: 'none',
  next_field: 'next',
  page_parameter: 'page',
  auth_header_name: null,
  auth_header_secret: null,
};

export const storeIntegration = (db: Kysely<Database>, values: Partial<Insertable<IntegrationsTable>> = {}) =>
  db.insertInto('integrations').values({ ...savedIntegration, ...values }).returning('id').executeTakeFirstOrThrow();
