// Kysely table types of the application schema (public) and the demo entity tables (data schema).
import type { ColumnType, Generated, RawBuilder } from 'kysely';
import type { ChartConfig, ColumnDefinition, DateOrderPreference, FilteredBy, NewProduct, RetryProgress, Role } from '@stockwise/contract';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type RawTimestamp = Date | string | RawBuilder<unknown>;

export type UsersTable = {
  id: Generated<number>;
  username: string;
  email: string | null;
  password_hash: string;
  role: ColumnType<Role, Role | undefined, Role>;
  disabled_at: Timestamp | null;
  last_sign_in_at: RawTimestamp | null;
  created_at: CreatedAt;
  must_change_password: ColumnType<boolean, boolean | undefined, boolean>;
  date_order: ColumnType<DateOrderPreference, DateOrderPreference | undefined, DateOrderPreference>;
};

export type RefreshTokensTable = {
  id: Generated<number>;
  user_id: number;
  family_id: string;
  token_hash: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
};

/** A sign-in: the refresh-token family its rotations belong to (`refresh_tokens.family_id`). */
export type SessionsTable = {
  id: string;
  user_id: number;
  started_at: CreatedAt;
  last_used_at: Timestamp;
  expires_at: Timestamp;
  user_agent: string | null;
  revoked_at: Timestamp | null;
};

/** Sign-in attempts per (account, client address); `account` '' counts every account of an address. */
export type SignInThrottleTable = {
  account: string;
  ip: string;
  attempts: number;
  retry_at: Timestamp;
  updated_at: Timestamp;
};

export type AppSecretsTable = { name: string; value: string };

export type TaskKind = 'reorder' | 'no_sales' | 'import_sales' | 'count_stock' | 'integration_failed' | 'forecast_failed';
export type TasksTable = {
  id: Generated<number>;
  user_id: number;
  text: string;
  completed: Generated<boolean>;
  position: number;
  kind: TaskKind | null;
  created_at: CreatedAt;
  /** A generated task that completed itself when its condition cleared (it reopens when the condition holds again). */
  condition_cleared: Generated<boolean>;
  /** A generated task the user deleted: hidden, and not made again. */
  dismissed: Generated<boolean>;
};
export type DashboardPinsTable = { user_id: number; report_id: number; position: number };
export type DashboardProductSummaryTable = {
  product_id: number;
  forecast_start: string;
  cum_demand: number[];
  cum_variance: number[];
  first_stockout: string | null;
  order_quantity: number;
};
/** The stock of the products counted in one unit at the latest snapshot day (`now`) and a month before. */
export type SnapshotUnitsOfUnit = { unit: string | null; now: number; before: number };
export type DashboardCatalogueSummaryTable = {
  id: number;
  snapshot_date: string | null;
  snapshot_units: number | null;
  previous_date: string | null;
  previous_units: number | null;
  /** `snapshot_units` and `previous_units` per product unit as stored (migration 0660). */
  snapshot_units_by_unit: ColumnType<SnapshotUnitsOfUnit[], string | undefined, string>;
  reorder_count: Generated<number>;
  no_sales_count: Generated<number>;
  /** Products with recent demand and no stock count (no order can be advised for them). */
  unknown_stock_count: Generated<number>;
  /** Products with recent demand counted only after their sales data ends (migration 0730): not projected until recent sales come in. */
  counted_after_sales_count: Generated<number>;
  /** The order-by dates (ISO) of the products on the order advice's list: the reorder task counts those due soon. */
  reorder_order_by: Generated<string[]>;
  last_sale: string | null;
  computed_at: ColumnType<Date, string | undefined, RawTimestamp>;
};
export type AssistantMessagesTable = {
  id: Generated<number>;
  user_id: number;
  role: 'user' | 'assistant';
  content: string;
  blocks: ColumnType<unknown[], string | undefined, string>;
  context: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
};

/** The catalogue of configurable data tables: each row names a real table of the `data` schema. */
export type DataTablesTable = {
  id: Generated<number>;
  name: string;
  encoded_name: string;
  folder: Generated<string>;
  base_table: string | null;
  parent_id: number | null;
  variation_number: number | null;
  columns: ColumnType<ColumnDefinition[], string, string>;
  created_at: CreatedAt;
};

export type DataFoldersTable = { path: string; created_at: CreatedAt };
export type ConfigEntitiesTable = {
  name: string;
  /** Null: set back to the configuration file's version, which it follows (ADR 0181). */
  config: ColumnType<Record<string, unknown> | null, string, string | null>;
  updated_at: ColumnType<Date, string | undefined, string>;
  /** Saves of the entity through the API (ADR 0168's amendment); bigint, read as text. */
  version: ColumnType<string, number | undefined, RawBuilder<unknown>>;
  updated_by: number | null;
};

export type ProductsTable = {
  id: Generated<number>;
  product_code: string;
  name: string;
  category: string | null;
  current_stock: number;
  /** What its quantities count (kg, m, box), as the shop wrote it; null: pieces (migration 0630). */
  unit: ColumnType<string | null, string | null | undefined, string | null>;
  unit_cost: number;
  /** Who it is bought from, as the shop wrote it; null (or blank): no supplier (migration 0680). */
  supplier: ColumnType<string | null, string | null | undefined, string | null>;
  lead_time_days: number;
  /** The supplier's case size: orders in whole multiples of it; null: any quantity (migration 0650). */
  order_multiple: ColumnType<number | null, number | null | undefined, number | null>;
  /** The supplier's minimum order; null: none (migration 0650). */
  min_order_quantity: ColumnType<number | null, number | null | undefined, number | null>;
  /** Made in the shop, not bought: left out of the order lists and stock-count tasks, still forecast; null or false: not made here (migration 0720). */
  made_here: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  /** A service or a fee, no stock kept: left out of the order lists, stock warnings and stock-count tasks, still forecast; null or false: stocked (migration 0750). */
  not_stocked: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
};

export type SalesTable = { id: Generated<number>; product_id: number; date: string; quantity: number };
export type StockSnapshotsTable = { id: Generated<number>; product_id: number; date: string; stock_level: number };
export type DeliveriesTable = {
  id: Generated<number>;
  product_id: number;
  expected_date: string;
  quantity: number;
  status: Generated<'scheduled' | 'received' | 'cancelled'>;
};

export type ForecastTasksTable = {
  id: string;
  job_id: string | null;
  style_code: string | null;
  forecast_days: number;
  status: 'pending' | 'processing' | 'running' | 'completed' | 'failed';
  progress_done: Generated<number>;
  progress_total: Generated<number>;
  results: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  error: string | null;
  requested_by: number | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, string | undefined, RawTimestamp>;
  /** A run cut off and run again: when it stopped and what was done before (migration 0480). */
  restart: ColumnType<TaskRestartRecord | null, string | null | undefined, string | null>;
  /** The products of a list's task (migration 0710; ADR 0187), as the driver gives int8 array items (text on PostgreSQL); null: one product's (style_code) or the whole catalogue's. */
  product_ids: ColumnType<(number | string)[] | null, number[] | null | undefined, number[] | null>;
};

export type TaskRestartRecord = { stopped_at: string; done_before: number; total: number; resumed: boolean };

export type ForecastResultsTable = {
  product_id: number;
  task_id: string | null;
  forecast_days: number;
  forecast_start: string;
  generated_at: ColumnType<Date, string | undefined, RawTimestamp>;
  /** The engine's forecast as JSON text, stored as written (migration 0140). */
  result: string;
  /** The order advice fields of `result`: as the catalogue run writes them, else read from the text by the database (triggers of migrations 0140, 0150). */
  stockouts: ColumnType<unknown, never, never>;
  reorder: ColumnType<unknown, never, never>;
  model_name: ColumnType<string | null, never, never>;
  /** When the histories the forecast was made from were read: a forecast from an earlier read does not replace it (migration 0180). */
  inputs_read_at: ColumnType<Date, string | undefined, string>;
  /** What the product's header says it has on hand, the count it comes from and its day (migration 0370); null: never counted. */
  on_hand: ColumnType<number | null, number | null | undefined, number | null>;
  on_hand_counted: ColumnType<number | null, number | null | undefined, number | null>;
  on_hand_counted_on: ColumnType<string | null, string | null | undefined, string | null>;
};

/** A product added while the catalogue had sales: the last sales day then (migration 0320). None: listed from the first sale. */
export type ProductListingsTable = { product_id: number; sales_up_to: string };

export type ForecastCalendarTable = {
  id: number;
  history_start: string;
  history_end: string;
  calendar: ColumnType<Record<string, unknown>, string, string>;
  computed_at: ColumnType<Date, string | undefined, RawTimestamp>;
};

export type ImportLogsTable = {
  id: string;
  operation_type: Generated<string>;
  status: 'running' | 'success' | 'error';
  file_name: string;
  mapping_name: string;
  entity_type: string;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
  error_message: string | null;
  file_content: string | null;
  rows_done: Generated<number>;
  bytes_done: Generated<number>;
  bytes_total: number | null;
  created_by: number | null;
  created_at: CreatedAt;
  finished_at: ColumnType<Date | null, never, RawTimestamp>;
  undone_at: ColumnType<Date | null, never, RawTimestamp>;
  undone_by: number | null;
};

export type IntegrationsTable = {
  id: Generated<number>;
  enabled: Generated<boolean>;
  endpoint: string;
  schedule_frequency: 'every_15_minutes' | 'hourly' | 'daily' | 'weekly' | 'custom';
  cron_expression: string | null;
  /** The IANA time zone the schedule's cron runs in ('UTC' for integrations saved before zones). */
  time_zone: Generated<string>;
  mapping_selection: string;
  target_entity: string;
  data_action: 'upsert' | 'insert' | 'replace';
  data_fetch_type: 'latest' | 'historical';
  previous_days: number | null;
  initial_setup: boolean;
  initial_setup_done: Generated<boolean>;
  rate_limit: number;
  batch_size: number;
  records_path: string | null;
  pagination: 'none' | 'next_link' | 'page_parameter';
  next_field: string;
  page_parameter: string;
  auth_header_name: string | null;
  auth_header_secret: string | null;
  status: Generated<'idle' | 'queued' | 'running' | 'failed'>;
  current_run_id: number | null;
  last_run_time: Timestamp | null;
  last_success_time: Timestamp | null;
  last_error_message: string | null;
  consecutive_failures: Generated<number>;
  /** Day-first or month-first, as a run learnt it from a date over 12 (for a mapping whose date format is auto). */
  learnt_date_format: 'dd/mm/yyyy' | 'mm/dd/yyyy' | null;
  /** Records the last finished run refused, and the first of them (where and why); 0 and null when none. */
  last_run_rejected: Generated<number>;
  last_run_warning: string | null;
  /** What replace kept at the end of the last finished run (rows data tables refer to), as its log says; null when none. */
  last_run_kept_message: string | null;
  /** The last finished run's lines left out by row filters and products created, in the import's words; null when neither. */
  last_run_summary: string | null;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, string | undefined, RawTimestamp>;
  /** Counts the saves of the configuration (and a pause after failed runs), never a run's status writes: the integration's version (ADR 0168's amendment). */
  config_version: ColumnType<string, never, RawBuilder<unknown>>;
  /** Who saved the configuration last; null: nobody since it was created, the runs' pause, or an account deleted since. */
  updated_by: number | null;
};

export type IntegrationLogsTable = {
  id: Generated<number>;
  integration_id: number;
  trigger: 'schedule' | 'manual';
  status: Generated<'running' | 'success' | 'failed'>;
  started_at: CreatedAt;
  finished_at: ColumnType<Date | null, never, RawTimestamp>;
  pages: Generated<number>;
  requests: Generated<number>;
  rows_inserted: Generated<number>;
  rows_updated: Generated<number>;
  rows_rejected: Generated<number>;
  rows_deleted: Generated<number>;
  /** replace: rows it would have deleted that rows of data tables refer to, and what it said of them. */
  rows_kept: Generated<number>;
  kept_message: string | null;
  window_from: string | null;
  window_to: string | null;
  error_message: string | null;
  rejections: ColumnType<IntegrationRejection[], string | undefined, string>;
  /** Lines the mapping's row filters left out, by filter (as an import's counts.filtered_by). */
  rows_filtered: Generated<number>;
  filtered_by: ColumnType<FilteredBy[], string | undefined, string>;
  /** Lines the mapping's skip_rows_without_code left out for a blank product code (as an import's counts.skipped). */
  rows_skipped: Generated<number>;
  /** Products created for unknown codes, and the first ones with their fields. */
  products_created: Generated<number>;
  new_products: ColumnType<NewProduct[], string | undefined, string>;
  /** The import's sentences for the two ("5 lines of orders whose … were left out. 1 new product created …"); null when neither. */
  summary: string | null;
  /** While the run waits to retry a failing endpoint, or retries it: which try, when and why (null otherwise). */
  progress: ColumnType<RetryProgress | null, string | null | undefined, string | null>;
};

/** `line`: the element of the record's inner array read as the record, with a nested records path (orders[].line_items). */
export type IntegrationRejection = { page: number; record: number; line?: number; field: string | null; reason: string };

/**
 * Rows an integration wrote, by table and row id, under its run (data action replace deletes what a
 * later run did not rewrite); `created`: the integration inserted the row, and only those are deleted.
 */
export type ImportRowSourcesTable = { table_name: string; row_id: number; source: string; run: string; created: Generated<boolean> };

/** Named import mappings saved through the API, over the YAML file's `mappings`. */
export type ConfigMappingsTable = {
  name: string;
  config: ColumnType<Record<string, unknown>, string, string>;
  created_by: number | null;
  updated_at: ColumnType<Date, never, RawTimestamp>;
};

export type UserReportsTable = {
  id: Generated<number>;
  title: string;
  description: Generated<string>;
  sql_code: string;
  chart_config: ColumnType<ChartConfig | null, string | null, string | null>;
  pseudocode: Generated<string>;
  owner: number | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, string | undefined, RawTimestamp>;
  /** Who last changed it (null: nobody since it was created, or an account deleted since). */
  updated_by: ColumnType<number | null, never, number | null>;
};

/** The last Data screen save of a row: by whom, when, and the row version it left (ADR 0168). */
export type DataRowEditsTable = {
  table_name: string;
  row_id: number;
  version: string;
  edited_by: number | null;
  edited_at: ColumnType<Date, never, RawTimestamp>;
};

/** The shop-wide settings: one row (`only_row` true) once an administrator has saved them. */
export type ShopSettingsTable = {
  only_row: ColumnType<boolean, boolean | undefined, never>;
  currency: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string | RawBuilder<unknown>>;
  /** Each panel's count of saves, who made the last and when (ADR 0168's amendment): 0 and null before the first. */
  currency_version: ColumnType<string, never, RawBuilder<unknown>>;
  currency_updated_by: number | null;
  currency_updated_at: ColumnType<Date | null, never, RawBuilder<unknown>>;
  closed_dates_version: ColumnType<string, never, RawBuilder<unknown>>;
  closed_dates_updated_by: number | null;
  closed_dates_updated_at: ColumnType<Date | null, never, RawBuilder<unknown>>;
  /** The shop's IANA time zone (ADR 0173); null: none chosen, the server's decides. */
  time_zone: string | null;
  time_zone_version: ColumnType<string, never, RawBuilder<unknown>>;
  time_zone_updated_by: number | null;
  time_zone_updated_at: ColumnType<Date | null, never, RawBuilder<unknown>>;
};

/** The days the shop says it will be closed on (ADR 0171), beside those its sales history shows. */
export type ShopClosedDatesTable = { day: string; note: string | null };

export type Database = {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  sign_in_throttle: SignInThrottleTable;
  app_secrets: AppSecretsTable;
  tasks: TasksTable;
  dashboard_pins: DashboardPinsTable;
  dashboard_product_summary: DashboardProductSummaryTable;
  dashboard_catalogue_summary: DashboardCatalogueSummaryTable;
  assistant_messages: AssistantMessagesTable;
  data_tables: DataTablesTable;
  data_folders: DataFoldersTable;
  config_entities: ConfigEntitiesTable;
  forecast_tasks: ForecastTasksTable;
  forecast_results: ForecastResultsTable;
  forecast_calendar: ForecastCalendarTable;
  product_listings: ProductListingsTable;
  import_logs: ImportLogsTable;
  integrations: IntegrationsTable;
  integration_logs: IntegrationLogsTable;
  import_row_sources: ImportRowSourcesTable;
  config_mappings: ConfigMappingsTable;
  user_reports: UserReportsTable;
  data_row_edits: DataRowEditsTable;
  shop_settings: ShopSettingsTable;
  shop_closed_dates: ShopClosedDatesTable;
  'data.products': ProductsTable;
  'data.sales': SalesTable;
  'data.stock_snapshots': StockSnapshotsTable;
  'data.deliveries': DeliveriesTable;
};
