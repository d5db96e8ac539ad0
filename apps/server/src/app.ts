// Builds the HTTP application: the API of every feature, its OpenAPI docs, and the web app.
import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ProductConfig, Role } from '@stockwise/contract';
import type { ServerConfig } from './environment.ts';
import type { AppDatabase } from './db/database.ts';
import type { JobQueue } from './jobs/queue.ts';
import { forecastingRoutes } from './forecasting/routes.ts';
import { orderAdviceRoutes } from './order-advice/routes.ts';
import { importRoutes } from './import/routes.ts';
import type { ImportedTable } from './import/service.ts';
import { createForecastingContext, refreshForecastAfterOrders, refreshForecastsAfterDeliveries, refreshForecastsAfterRowsChange, refreshSummaryAfterProductsDeleted, requestCatalogueForecast, writesForecastInput, writesListColumn, type ForecastingContext } from './forecasting/service.ts';
import { integrationRoutes } from './integrations/routes.ts';
import type { IntegrationsContext } from './integrations/service.ts';
import { frameworkErrors, registerErrorHandling } from './http/errors.ts';
import { ACCOUNT_STATUS_TTL_MS, AccountStatusCache, registerAuthGuard } from './auth/guard.ts';
import { authRoutes } from './auth/routes.ts';
import type { AuthContext } from './auth/service.ts';
import { createTokenSigner, loadSigningKey } from './auth/tokens.ts';
import { productName } from './product.ts';
import { configRoutes } from './config/routes.ts';
import { checkSavedValueMaps } from './import/value-maps.ts';
import { checkSavedMappingTargets } from './import/target.ts';
import { checkSavedFieldValues } from './import/field-values.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { supplierRoutes } from './suppliers/routes.ts';
import { demoRoutes } from './demo/routes.ts';
import { shopRoutes } from './shop/routes.ts';
import { assistantRoutes } from './assistant/routes.ts';
import { createChatModel } from './ai/chat.ts';
import { CONFIG_CHANGED_CHANNEL, ProductConfigCache } from './config/cache.ts';
import { currentProductConfig, sharedProductConfig, type ConfigContext, type ConfigReading } from './config/service.ts';
import { queryRoutes } from './queries/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { closeReportsContext, createReportsContext } from './reports/service.ts';
import { tableRoutes } from './tables/routes.ts';
import { CatalogueCache } from './tables/catalogue-cache.ts';
import { storedColumnKeys, type TablesContext } from './tables/service.ts';

export type RouteEntry = { method: string; url: string; public: boolean; policy: Role | null };

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with whether it is reachable without a token and the least role it needs (the route-table test walks it). */
    routeTable: RouteEntry[];
  }
}

export type AppDependencies = { config: ServerConfig; database: AppDatabase; queue: JobQueue; integrations: IntegrationsContext };

const BODY_LIMIT_BYTES = 1024 * 1024;
/** Node's default limit for all request headers, the URL included: no path parameter can be longer. */
const MAX_URL_BYTES = 16 * 1024;

/**
 * Security headers on every answer. Scripts only from our own origin (the built app has no inline
 * script); styles also inline because Mantine writes <style> tags and style attributes at run time
 * (docs/security.md). No framing by anyone, no referrer sent to other origins.
 */
const securityHeaderOptions: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
  // The app is served over plain HTTP on a LAN too; HSTS belongs to the TLS-terminating proxy.
  strictTransportSecurity: false,
};

/**
 * helmet's headers for these options, taken once from its middleware: none of them depends on the
 * request (no CSP nonces), and building and running the middleware per request cost more than a
 * cached page read's own code (docs/adr/0081).
 */
function securityHeaderValues(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = { setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value), removeHeader: () => {} };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}
const securityHeaders = securityHeaderValues(securityHeaderOptions);

/** One configuration cache per database, whoever builds contexts on it (docs/adr/0081). */
const configCaches = new WeakMap<AppDatabase, ProductConfigCache<ConfigReading>>();

function configCacheOf(database: AppDatabase): ProductConfigCache<ConfigReading> {
  let cache = configCaches.get(database);
  if (!cache) {
    cache = new ProductConfigCache<ConfigReading>();
    database.listen(CONFIG_CHANGED_CHANNEL, cache.watcher);
    configCaches.set(database, cache);
  }
  return cache;
}

/**
 * The contexts the feature services run in, shared by the HTTP app and start-up work.
 * `loadConfig` gives each caller its own copy of the configuration; the tables feature only reads
 * it, on every page of a table with references, so it gets the shared frozen one.
 */
export function featureContexts({ config, database }: Pick<AppDependencies, 'config' | 'database'>): {
  configContext: ConfigContext;
  tablesContext: TablesContext;
  loadConfig: () => Promise<ProductConfig>;
} {
  const configContext: ConfigContext = { db: database.db, configFile: config.configFile, cache: configCacheOf(database) };
  return {
    configContext,
    tablesContext: { db: database.db, loadConfig: () => sharedProductConfig(configContext), catalogueCache: new CatalogueCache() },
    loadConfig: () => currentProductConfig(configContext),
  };
}

/**
 * New demand or stock history changes every forecast built on it: after an import of it, the
 * catalogue is forecast again. Products an integration's replace deleted leave the dashboard's
 * counts at once, as a delete on the Data screen does (ADR 0150).
 */
export async function refreshForecastsAfterImport(ctx: ForecastingContext, written: ImportedTable): Promise<void> {
  if ((written.table === 'products' && written.deleted > 0) || writesListColumn(written.table, written.columns)) await refreshSummaryAfterProductsDeleted(ctx);
  if (writesForecastInput(written.table, written.columns)) await requestCatalogueForecast(ctx);
}

export async function buildApp({ config, database, queue, integrations }: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Every path parameter reaches its route's schema, which limits its length with a clear 400
    // (find-my-way's default of 100 sent longer ones past the API routes to the static files).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_URL_BYTES },
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  // Only the web app's files and the API docs are public by path; API routes opt in one by one.
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) route.config = { ...route.config, public: true };
    for (const method of [route.method].flat()) {
      routeTable.push({ method, url: route.url, public: route.config?.public === true, policy: route.config?.policy ?? null });
    }
  });

  // Before the guard, so refusals carry the headers too.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(securityHeaders);
    done();
  });

  const signer = createTokenSigner(await loadSigningKey(database.db, config.jwtSecret), config.accessTokenTtlSeconds);
  const accounts = new AccountStatusCache(database.db, ACCOUNT_STATUS_TTL_MS);
  registerAuthGuard(app, signer, accounts);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${productName} API`, version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  app.get('/api/health', { config: { public: true }, schema: { hide: true } }, async () => ({ status: 'ok' }));

  const authContext: AuthContext = {
    db: database.db,
    signer,
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    loginMaxFailuresPerAccount: config.loginMaxFailuresPerAccount,
    loginMaxFailuresPerIp: config.loginMaxFailuresPerIp,
    loginDelayBaseSeconds: config.loginDelayBaseSeconds,
    registrationEnabled: config.registrationEnabled,
    registrationRole: config.registrationRole,
    accounts,
  };
  await app.register(authRoutes(authContext));

  const { configContext, tablesContext, loadConfig } = featureContexts({ config, database });
  await app.register(
    configRoutes(
      configContext,
      (table) => storedColumnKeys(tablesContext, table),
      async (productConfig, entityType, mapping) => {
        await checkSavedValueMaps(database.db, productConfig, entityType, mapping);
        await checkSavedMappingTargets(database.db, productConfig, entityType, mapping);
        await checkSavedFieldValues(database.db, productConfig, entityType, mapping);
      },
    ),
  );
  const forecastingContext = createForecastingContext(database.db, queue, { requestsPerMinute: config.forecastRequestsPerMinute });
  await app.register(tableRoutes({ ...tablesContext, onRowsChanged: (change) => refreshForecastsAfterRowsChange(forecastingContext, change) }));
  await app.register(queryRoutes(database.db, loadConfig));
  await app.register(fastifyMultipart, { limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 10, fieldSize: 1024 * 1024, parts: 12, headerPairs: 100 } });
  await app.register(
    importRoutes({
      database,
      loadConfig,
      progress: new Map(),
      uploadLimits: { maxBytes: config.uploadMaxBytes, idleMs: config.uploadIdleTimeoutSeconds * 1000, totalMs: config.uploadTotalTimeoutSeconds * 1000 },
      onTableImported: (written) => refreshForecastsAfterImport(forecastingContext, written),
    }),
  );
  await app.register(forecastingRoutes(forecastingContext));
  await app.register(orderAdviceRoutes({ db: database.db, onOrdersRecorded: (productIds, userId) => refreshForecastAfterOrders(forecastingContext, productIds, userId) }));
  const reportsContext = await createReportsContext({ config, database });
  app.addHook('onClose', () => closeReportsContext(reportsContext));
  await app.register(reportRoutes(reportsContext));
  await app.register(integrationRoutes(integrations));
  await app.register(dashboardRoutes({ db: database.db }));
  await app.register(supplierRoutes({ db: database.db }));
  await app.register(shopRoutes({ db: database.db }));
  await app.register(
    demoRoutes({
      db: database.db,
      // The shop's own products are forecast again: the catalogue's closed days and seasons were the demo's too.
      onProductsRemoved: async () => {
        await refreshSummaryAfterProductsDeleted(forecastingContext);
        await requestCatalogueForecast(forecastingContext);
      },
    }),
  );
  await app.register(assistantRoutes({ db: database.db, model: createChatModel(config.llm), onDeliveriesCreated: (productIds) => refreshForecastsAfterDeliveries(forecastingContext, productIds) }));

  if (existsSync(path.join(config.webDistDir, 'index.html'))) {
    await app.register(fastifyStatic, { root: config.webDistDir, wildcard: true, index: 'index.html' });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    // Client-side routes (/app/home, /login, ...) all load the single-page app; a missing file
    // (/assets/gone.js) is a plain 404, not a page the browser would try to run as a script.
    const isClientRoute = !pathname.startsWith('/api/') && !/\.[A-Za-z0-9]+$/.test(pathname);
    const wantsPage = request.method === 'GET' && isClientRoute && existsSync(path.join(config.webDistDir, 'index.html'));
    if (wantsPage) return reply.type('text/html').sendFile('index.html', config.webDistDir);
    return reply.status(404).send({ detail: `No route for ${request.method} ${pathname}.`, code: 'not_found' });
  });
  return app;
}
