// Everything the server reads from the environment, parsed once and validated (docs/operations.md).
import path from 'node:path';
import { z } from 'zod';
import { role, type Role } from '@stockwise/contract';
import { PGLITE_COST_PER_SECOND } from './reports/sandbox/plan-cost.ts';

const booleanFlag = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => ['true', '1', 'yes'].includes(v));
const ACCESS_TOKEN_TTL_MAX_SECONDS = 15 * 60;

const environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(ACCESS_TOKEN_TTL_MAX_SECONDS).default(ACCESS_TOKEN_TTL_MAX_SECONDS),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(7 * 24 * 3600),
  REGISTRATION_ENABLED: booleanFlag.default(true),
  REGISTRATION_ROLE: role.default('pending'),
  TRUSTED_PROXIES: z.string().default(''),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(100).default(20),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(100),
  LOGIN_DELAY_BASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(1),
  DEMO_DATA: booleanFlag.default(true),
  DEMO_PASSWORD: z.string().min(8).default('stockwise-demo'),
  WEB_DIST_DIR: z.string().optional(),
  CONFIG_FILE: z.string().optional(),
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).default(200 * 1024 * 1024),
  UPLOAD_IDLE_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  UPLOAD_TOTAL_TIMEOUT_SECONDS: z.coerce.number().min(1).max(86_400).default(3600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).default(15),
  JOB_SUPERVISE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  REPORT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  REPORT_MAX_ROWS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  REPORT_MAX_COST: z.coerce.number().min(1).optional(),
  REPORT_DATABASE_URL: z.string().optional(),
  REPORT_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(8),
  LLM_BASE_URL: z.url('LLM_BASE_URL must be a URL such as https://api.openai.com/v1').optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  JOB_CRON_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(45).default(30),
  SECRET_KEY: z.string().min(32, 'SECRET_KEY must be at least 32 characters').optional(),
  OUTBOUND_ALLOWED_HOSTS: z.string().default(''),
  OUTBOUND_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  OUTBOUND_READ_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  OUTBOUND_MAX_RESPONSE_BYTES: z.coerce.number().int().min(1024).max(1024 * 1024 * 1024).default(10 * 1024 * 1024),
  INTEGRATION_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  INTEGRATION_RETRY_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
  INTEGRATION_PAUSE_AFTER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  INTEGRATION_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  FORECAST_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
});

export type ServerConfig = {
  port: number;
  host: string;
  database: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string | null };
  jwtSecret: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  registrationEnabled: boolean;
  /** Role of a self-registered account (pending: an admin must approve it). */
  registrationRole: Role;
  trustedProxies: string[];
  loginMaxFailuresPerAccount: number;
  loginMaxFailuresPerIp: number;
  loginDelayBaseSeconds: number;
  demoData: boolean;
  demoPassword: string;
  webDistDir: string;
  /** The product configuration YAML (tables, mappings, queries, inventory.entities). */
  configFile: string;
  /** Largest file accepted by the import (413 above it). */
  uploadMaxBytes: number;
  /** An upload that sends nothing for this long is stopped (408), holding nothing. */
  uploadIdleTimeoutSeconds: number;
  /** An upload still arriving after this long is stopped (408). */
  uploadTotalTimeoutSeconds: number;
  logLevel: z.infer<typeof environment>['LOG_LEVEL'];
  /** all: API + job workers; api: HTTP only; worker: job workers only (several processes need PostgreSQL). */
  role: 'all' | 'api' | 'worker';
  /** A long job whose worker stops heartbeating this long is retried elsewhere. */
  jobHeartbeatSeconds: number;
  /** How often pg-boss looks for such jobs (and does its other maintenance). */
  jobSuperviseIntervalSeconds: number;
  reports: {
    /** A report running longer is stopped (statement_timeout on PostgreSQL; checked between row batches on PGlite). */
    timeoutMs: number;
    /** Rows a report answers at most (`truncated` says when there were more). */
    maxRows: number;
    /** PGlite only: reports whose worst-case plan cost is higher are refused before they run (default: the timeout's worth). */
    maxCost: number;
    /** PostgreSQL only: the report login's connection string when the app's role may not create it (docs/operations.md). */
    databaseUrl: string | null;
    poolSize: number;
  };
  /** The OpenAI-compatible chat model that writes reports and answers the assistant; null: the built-in generator. */
  llm: { baseUrl: string; model: string; apiKey: string | null; timeoutMs: number } | null;
  /** How often pg-boss's cron pass looks for due schedules (one process at a time does it). */
  jobCronIntervalSeconds: number;
  /** Forecast generation requests one user may make a minute (429 with Retry-After above it). */
  forecastRequestsPerMinute: number;
  /** Key material for secrets stored encrypted (integration auth headers); else one generated in the database. */
  secretKey: string | undefined;
  /** Outbound HTTP of integrations (http/outbound.ts). */
  outbound: { allowedHosts: string; connectTimeoutMs: number; readTimeoutMs: number; maxResponseBytes: number };
  integrations: {
    /** Tries after the first for a transient failure (5xx, 429, timeout, reset), with exponential backoff. */
    retries: number;
    retryDelayMs: number;
    /** Failed runs in a row after which an integration switches itself off. */
    pauseAfterFailures: number;
    /** Integration runs one worker process runs at once. */
    concurrency: number;
  };
};

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = environment.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  if (e.LLM_BASE_URL && !e.LLM_MODEL) throw new Error('Invalid configuration: LLM_MODEL: required when LLM_BASE_URL is set');
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.resolve(e.DATA_DIR) },
    jwtSecret: e.JWT_SECRET,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL_SECONDS,
    registrationEnabled: e.REGISTRATION_ENABLED,
    registrationRole: e.REGISTRATION_ROLE,
    trustedProxies: e.TRUSTED_PROXIES.split(',').map((s) => s.trim()).filter(Boolean),
    loginMaxFailuresPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
    loginMaxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
    loginDelayBaseSeconds: e.LOGIN_DELAY_BASE_SECONDS,
    demoData: e.DEMO_DATA,
    demoPassword: e.DEMO_PASSWORD,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(repositoryRoot, 'apps/web/dist')),
    configFile: path.resolve(e.CONFIG_FILE ?? path.join(repositoryRoot, 'config/stockwise.yaml')),
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    uploadIdleTimeoutSeconds: e.UPLOAD_IDLE_TIMEOUT_SECONDS,
    uploadTotalTimeoutSeconds: e.UPLOAD_TOTAL_TIMEOUT_SECONDS,
    logLevel: e.LOG_LEVEL,
    role: e.ROLE,
    jobHeartbeatSeconds: e.JOB_HEARTBEAT_SECONDS,
    jobSuperviseIntervalSeconds: e.JOB_SUPERVISE_INTERVAL_SECONDS,
    reports: {
      timeoutMs: e.REPORT_TIMEOUT_MS,
      maxRows: e.REPORT_MAX_ROWS,
      maxCost: e.REPORT_MAX_COST ?? (e.REPORT_TIMEOUT_MS / 1000) * PGLITE_COST_PER_SECOND,
      databaseUrl: e.REPORT_DATABASE_URL ?? null,
      poolSize: e.REPORT_POOL_SIZE,
    },
    llm: e.LLM_BASE_URL && e.LLM_MODEL ? { baseUrl: e.LLM_BASE_URL, model: e.LLM_MODEL, apiKey: e.LLM_API_KEY || null, timeoutMs: e.LLM_TIMEOUT_MS } : null,
    jobCronIntervalSeconds: e.JOB_CRON_INTERVAL_SECONDS,
    forecastRequestsPerMinute: e.FORECAST_REQUESTS_PER_MINUTE,
    secretKey: e.SECRET_KEY,
    outbound: { allowedHosts: e.OUTBOUND_ALLOWED_HOSTS, connectTimeoutMs: e.OUTBOUND_CONNECT_TIMEOUT_MS, readTimeoutMs: e.OUTBOUND_READ_TIMEOUT_MS, maxResponseBytes: e.OUTBOUND_MAX_RESPONSE_BYTES },
    integrations: { retries: e.INTEGRATION_RETRIES, retryDelayMs: e.INTEGRATION_RETRY_DELAY_MS, pauseAfterFailures: e.INTEGRATION_PAUSE_AFTER_FAILURES, concurrency: e.INTEGRATION_CONCURRENCY },
  };
}
