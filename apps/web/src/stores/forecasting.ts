// The Forecasting screen's state (spec §3, §4): the product list and search, the selected product
// and its forecast, the latest inventory report, the low-stock panel (the same order advice, paged
// on its own), a generation run, and the orders recorded from the lists while their products'
// advice is updated (ADR 0182).
// Every part has its loading and error flags: loading set at start and cleared at end, error
// cleared at start (products: isLoadingProducts/productsError, forecast: isLoadingForecast/
// forecastError, report: isLoadingReport/reportError, low stock: isLoadingLowStock/lowStockError,
// generation: generation.phase/generation.error).
import { create } from 'zustand';
import { DEFAULT_FORECAST_DAYS, withFullStop, type InventoryReport, type ProductForecastResponse, type RecordedOrder, type RecordedOrders, type RecordOrderRequest } from '@stockwise/contract';
import * as forecastingApi from '../api/forecasting.ts';
import * as orderAdviceApi from '../api/order-advice.ts';
import type { Product, SupplierFilter } from '../api/forecasting.ts';
import { normalizeError } from '../api/errors.ts';
import { i18n } from '../i18n.ts';
import { pollGeneration, type PollOptions, type Progress, type TaskResults } from '../pages/forecasting/generation-poll.ts';
import { orderOutcomeWords, recordedWords } from '../pages/forecasting/order-words.ts';

export type GenerationScope = 'product' | 'all';

export type GenerationState = {
  phase: 'idle' | 'starting' | 'running' | 'done' | 'error';
  scope: GenerationScope | null;
  styleCode: string | null;
  status: string | null;
  progress: Progress;
  /** The server stopped during the run and it was restarted: when, and how far it had got (the server's sentence). */
  restart: string | null;
  results: TaskResults | null;
  error: string | null;
};

export type ForecastingState = {
  products: Product[];
  /** The unfiltered product list came back empty: nothing to forecast until products are imported. */
  catalogueEmpty: boolean;
  isLoadingProducts: boolean;
  productsError: string | null;
  searchText: string;

  selectedCode: string | null;
  selectedProduct: Product | null;
  forecast: ProductForecastResponse | null;
  isLoadingForecast: boolean;
  forecastError: string | null;
  /** The server's reason behind forecastError (e.g. "Product 'X' not found."), shown under it. */
  forecastErrorDetail: string | null;
  showHistoricalForecast: boolean;
  /** Days the forecast shown looks ahead: the screen's choice, kept in the URL (ADR 0162, amendment 2026-12-04 horizon). */
  horizon: number;

  report: InventoryReport | null;
  /** The report page shown, whether products without recent demand are listed, and whose (every supplier: undefined; none: null). */
  reportPage: number;
  reportIncludeInactive: boolean;
  /** Whether products made here (not ordered, ADR 0194) are listed. */
  reportIncludeMadeHere: boolean;
  reportSupplier: SupplierFilter;
  reportMessage: string | null;
  isLoadingReport: boolean;
  reportError: string | null;

  /** The low-stock panel's page of the order advice (the report's list), and its own page and filter. */
  lowStock: InventoryReport | null;
  lowStockPage: number;
  lowStockIncludeInactive: boolean;
  lowStockIncludeMadeHere: boolean;
  lowStockSupplier: SupplierFilter;
  lowStockMessage: string | null;
  isLoadingLowStock: boolean;
  lowStockError: string | null;

  generation: GenerationState;

  /** Products an order was recorded for whose advice is being updated (their run not ended yet), by style code. */
  ordersUpdating: Record<string, true>;
  /**
   * What each recorded order came to, oldest first, one notice per order until closed: recorded, then
   * its advice updated (or why not). Several saved in a row each keep their own.
   */
  orderNotices: OrderNotice[];
};

/** `id`: the recorded order's, which its sentences replace each other under; `settled`: the advice is updated, or could not be. */
export type OrderNotice = { id: number; name: string; text: string; settled: boolean; failed: boolean };

export type ForecastingActions = {
  loadProducts: () => Promise<void>;
  searchProducts: (text: string) => Promise<void>;
  selectProduct: (styleCode: string | null, product?: Product | null) => Promise<void>;
  reloadForecast: () => Promise<void>;
  setShowHistoricalForecast: (show: boolean) => void;
  /** Looks that many days ahead: the product shown is read again over them. */
  setHorizon: (days: number) => Promise<void>;
  /** Reloads the report; a page or filter given here (`supplier` undefined: every supplier) is kept for later reloads. */
  loadLatestReport: (options?: AdviceView) => Promise<void>;
  /** Reloads the low-stock panel; a page or filter given here (`supplier` undefined: every supplier) is kept for later reloads. */
  loadLowStock: (options?: AdviceView) => Promise<void>;
  regenerate: (scope: GenerationScope, options?: Pick<PollOptions, 'sleep' | 'signal' | 'log'>) => Promise<void>;
  /**
   * Records an order placed (ADR 0182) and answers once it is written (a refusal throws the
   * normalised error, for the dialog to show on its fields); the product's advice is then updated
   * without waiting (`followRecordedOrder`).
   */
  recordOrder: (order: RecordOrderRequest) => Promise<RecordedOrder>;
  /**
   * Waits for the recorded order's forecast run, then reads the lists and the product again and says
   * what the advice is now, in the order's notice `noticeId` (not again if it was closed meanwhile), else in a new one.
   */
  followRecordedOrder: (recorded: RecordedOrder, options?: Pick<PollOptions, 'sleep' | 'log'> & { noticeId?: number }) => Promise<void>;
  /**
   * Records a supplier's orders at once, all or none (ADR 0185; a refusal throws the normalised
   * error, its fields named `orders.3.quantity`): one notice for the batch, its products "Updating
   * advice…" until the one run that counts them ends, then the lists read again.
   */
  recordOrders: (orders: RecordOrderRequest[], supplier: string | null) => Promise<RecordedOrders>;
  dismissOrderNotice: (id: number) => void;
  dismissOrderNotices: () => void;
};

export type ForecastingStore = ForecastingState & ForecastingActions;

/** A page and filters of a list of the order advice; a filter left out keeps the one shown (`supplier` given as undefined: every supplier). */
export type AdviceView = { page?: number; includeInactive?: boolean; includeMadeHere?: boolean; supplier?: SupplierFilter };

export const idleGeneration: GenerationState = { phase: 'idle', scope: null, styleCode: null, status: null, progress: { done: 0, total: 0 }, restart: null, results: null, error: null };

export const initialForecastingState: ForecastingState = {
  products: [],
  catalogueEmpty: false,
  isLoadingProducts: false,
  productsError: null,
  searchText: '',
  selectedCode: null,
  selectedProduct: null,
  forecast: null,
  isLoadingForecast: false,
  forecastError: null,
  forecastErrorDetail: null,
  showHistoricalForecast: false,
  horizon: DEFAULT_FORECAST_DAYS,
  report: null,
  reportPage: 1,
  reportIncludeInactive: false,
  reportIncludeMadeHere: false,
  reportSupplier: undefined,
  reportMessage: null,
  isLoadingReport: false,
  reportError: null,
  lowStock: null,
  lowStockPage: 1,
  lowStockIncludeInactive: false,
  lowStockIncludeMadeHere: false,
  lowStockSupplier: undefined,
  lowStockMessage: null,
  isLoadingLowStock: false,
  lowStockError: null,
  generation: idleGeneration,
  ordersUpdating: {},
  orderNotices: [],
};

/** A single product's run takes about a tenth of a second (ADR 0182): its end is asked for every half second, for up to a minute. */
const ORDER_RUN_POLL = { intervalMs: 500, maxAttempts: 120 };
/**
 * Several products' orders are counted by a run of those products (ADR 0187: well under two seconds
 * for a purchase order's 500 lines), asked for every half second — for up to ten minutes, as the run
 * may be a whole-catalogue run waiting behind another (ADR 0132) that it joined.
 */
const BATCH_RUN_POLL = { intervalMs: 500, maxAttempts: 1200 };
let noticeCount = 0;

type AdvicePage = { report: InventoryReport | null; message: string | null };
/** Pages being read: the report and the low-stock panel open on the same page, and share one read. */
const pendingAdvice = new Map<string, Promise<AdvicePage>>();

/** One page of the order advice; no report yet (no catalogue run) gives its message instead. */
function adviceReport(page: number, includeInactive: boolean, includeMadeHere: boolean, supplier: SupplierFilter): Promise<AdvicePage> {
  const key = `${page}:${includeInactive}:${includeMadeHere}:${supplier === undefined ? '*' : JSON.stringify(supplier)}`;
  const pending = pendingAdvice.get(key);
  if (pending) return pending;
  const request = forecastingApi
    .fetchLatestReport({ page, includeInactive, includeMadeHere, supplier })
    .then((answer) => (answer.success ? { report: answer.report, message: null } : { report: null, message: answer.message || i18n.t('forecasting.errors.noReport') }))
    .finally(() => pendingAdvice.delete(key));
  pendingAdvice.set(key, request);
  return request;
}

/**
 * The supplier filter as the answer spells it (ADR 0186): the list of "Acme" chosen when most of its
 * products came to say "ACME" is ACME's, and its select shows ACME (one of its choices) for it.
 */
const answeredSupplier = (asked: SupplierFilter, report: InventoryReport | null): SupplierFilter => (typeof asked === 'string' && typeof report?.supplier === 'string' ? report.supplier : asked);

/** The spec's message as is (spec §8); the server's reason goes to the console. */
function withReason(message: string, error: unknown): string {
  console.warn(`${message}: ${normalizeError(error).message}`);
  return message;
}

export const useForecastingStore = create<ForecastingStore>()((set, get) => {
  /** Only the latest search may write its answer. */
  let searchSequence = 0;

  const loadForecast = async (styleCode: string) => {
    const { horizon } = get();
    // Only the product and horizon still chosen may write their answer.
    const stillChosen = () => get().selectedCode === styleCode && get().horizon === horizon;
    set({ isLoadingForecast: true, forecastError: null, forecastErrorDetail: null });
    try {
      const forecast = await forecastingApi.fetchProductForecast(styleCode, horizon);
      if (!stillChosen()) return;
      set({ forecast, isLoadingForecast: false });
    } catch (error) {
      if (!stillChosen()) return;
      set({ forecast: null, isLoadingForecast: false, forecastError: i18n.t('forecasting.errors.fetchForecast', { code: styleCode }), forecastErrorDetail: normalizeError(error).message || i18n.t('forecasting.errors.forecastData') });
    }
  };

  return {
    ...initialForecastingState,

    loadProducts: async () => {
      const sequence = ++searchSequence;
      set({ isLoadingProducts: true, productsError: null, searchText: '' });
      try {
        const products = await forecastingApi.fetchProducts();
        if (sequence === searchSequence) set({ products, catalogueEmpty: products.length === 0, isLoadingProducts: false });
      } catch (error) {
        if (sequence === searchSequence) set({ isLoadingProducts: false, productsError: withReason(i18n.t('forecasting.errors.fetchProducts'), error) });
      }
    },

    searchProducts: async (text) => {
      const sequence = ++searchSequence;
      set({ isLoadingProducts: true, productsError: null, searchText: text });
      try {
        const products = await forecastingApi.searchProducts(text);
        // A blank search is the whole catalogue: it answers whether there is any product, as the
        // first load would have (the picker's first, empty search can supersede that load).
        if (sequence === searchSequence) set({ products, isLoadingProducts: false, ...(text.trim() === '' ? { catalogueEmpty: products.length === 0 } : {}) });
      } catch (error) {
        if (sequence === searchSequence) set({ isLoadingProducts: false, productsError: withReason(i18n.t('forecasting.errors.fetchProducts'), error) });
      }
    },

    selectProduct: async (styleCode, product = null) => {
      const code = styleCode?.trim() ?? '';
      if (code === '') {
        set({ selectedCode: null, selectedProduct: null, forecast: null, isLoadingForecast: false, forecastError: null, forecastErrorDetail: null });
        return;
      }
      const known = product ?? get().products.find((candidate) => candidate.styleCode === code) ?? null;
      set({ selectedCode: code, selectedProduct: known, forecast: null });
      await loadForecast(code);
    },

    reloadForecast: async () => {
      const code = get().selectedCode;
      if (!code) {
        set({ forecastError: i18n.t('forecasting.errors.noProduct') });
        return;
      }
      forecastingApi.invalidateProductForecast(code);
      await loadForecast(code);
    },

    setShowHistoricalForecast: (show) => set({ showHistoricalForecast: show }),

    setHorizon: async (days) => {
      if (days === get().horizon) return;
      set({ horizon: days });
      const code = get().selectedCode;
      if (code) await loadForecast(code);
    },

    loadLatestReport: async (options = {}) => {
      const page = options.page ?? get().reportPage;
      const includeInactive = options.includeInactive ?? get().reportIncludeInactive;
      const includeMadeHere = options.includeMadeHere ?? get().reportIncludeMadeHere;
      const supplier = 'supplier' in options ? options.supplier : get().reportSupplier;
      set({ isLoadingReport: true, reportError: null, reportPage: page, reportIncludeInactive: includeInactive, reportIncludeMadeHere: includeMadeHere, reportSupplier: supplier });
      try {
        const { report, message } = await adviceReport(page, includeInactive, includeMadeHere, supplier);
        // A filter chosen since asks again: only its answer may show under it.
        if (get().reportSupplier !== supplier) return;
        set({ report, reportMessage: message, isLoadingReport: false, reportSupplier: answeredSupplier(supplier, report) });
      } catch (error) {
        set({ isLoadingReport: false, reportError: withReason(i18n.t('forecasting.errors.fetchReport'), error) });
      }
    },

    loadLowStock: async (options = {}) => {
      const page = options.page ?? get().lowStockPage;
      const includeInactive = options.includeInactive ?? get().lowStockIncludeInactive;
      const includeMadeHere = options.includeMadeHere ?? get().lowStockIncludeMadeHere;
      const supplier = 'supplier' in options ? options.supplier : get().lowStockSupplier;
      set({ isLoadingLowStock: true, lowStockError: null, lowStockPage: page, lowStockIncludeInactive: includeInactive, lowStockIncludeMadeHere: includeMadeHere, lowStockSupplier: supplier });
      try {
        const { report, message } = await adviceReport(page, includeInactive, includeMadeHere, supplier);
        if (get().lowStockSupplier !== supplier) return;
        set({ lowStock: report, lowStockMessage: message, isLoadingLowStock: false, lowStockSupplier: answeredSupplier(supplier, report) });
      } catch (error) {
        set({ isLoadingLowStock: false, lowStockError: withReason(i18n.t('forecasting.errors.fetchReport'), error) });
      }
    },

    regenerate: async (scope, options = {}) => {
      if (get().generation.phase === 'starting' || get().generation.phase === 'running') return;
      const styleCode = scope === 'product' ? get().selectedCode : null;
      if (scope === 'product' && !styleCode) {
        set({ generation: { ...idleGeneration, phase: 'error', scope, error: i18n.t('forecasting.errors.noProduct') } });
        return;
      }
      set({ generation: { ...idleGeneration, phase: 'starting', scope, styleCode } });
      let taskId: string;
      try {
        taskId = await forecastingApi.requestForecastGeneration(styleCode);
      } catch (error) {
        const missing = error instanceof Error && error.message === i18n.t('forecasting.errors.missingTaskId');
        const message = missing ? error.message : withReason(i18n.t('forecasting.errors.startGeneration'), error);
        set({ generation: { ...get().generation, phase: 'error', error: message } });
        return;
      }
      set({ generation: { ...get().generation, phase: 'running', status: 'pending' } });
      const outcome = await pollGeneration({
        taskId,
        fetchStatus: forecastingApi.fetchTaskStatus,
        ...options,
        onStatus: (task) => {
          const progress = task.status === 'not_found' ? get().generation.progress : task.progress;
          set({ generation: { ...get().generation, status: task.status, progress, restart: task.restart?.message ?? get().generation.restart } });
        },
      });
      if (options.signal?.aborted) return;
      if (outcome.kind === 'error') {
        set({ generation: { ...get().generation, phase: 'error', error: outcome.message } });
        return;
      }
      set({ generation: { ...get().generation, phase: 'done', results: outcome.results, status: 'completed' } });
      forecastingApi.invalidateProductForecast(styleCode);
      const selected = get().selectedCode;
      await Promise.all([selected && (styleCode === null || styleCode === selected) ? loadForecast(selected) : null, get().loadLatestReport(), get().loadLowStock()]);
    },

    recordOrder: async (order) => {
      let recorded: RecordedOrder;
      try {
        recorded = await orderAdviceApi.recordOrder(order);
      } catch (error) {
        throw normalizeError(error);
      }
      const recording = notice(recorded, `${recordedWords(recorded, i18n.t)} ${i18n.t('forecasting.recordOrder.updatingNotice')}`, false);
      set({ ordersUpdating: { ...get().ordersUpdating, [recorded.styleCode]: true }, orderNotices: [...get().orderNotices, recording] });
      void get().followRecordedOrder(recorded, { noticeId: recording.id });
      return recorded;
    },

    followRecordedOrder: async (recorded, { noticeId, ...options } = {}) => {
      const code = recorded.styleCode;
      const outcome = recorded.taskId
        ? await pollGeneration({ taskId: recorded.taskId, fetchStatus: forecastingApi.fetchTaskStatus, ...ORDER_RUN_POLL, ...options })
        : ({ kind: 'error', message: i18n.t('forecasting.recordOrder.notQueued') } as const);
      forecastingApi.invalidateProductForecast(code);
      const [advice] = await Promise.all([
        outcome.kind === 'done' ? forecastingApi.fetchProductForecast(code).catch(() => null) : null,
        get().selectedCode === code ? loadForecast(code) : null,
        get().loadLatestReport(),
        get().loadLowStock(),
      ]);
      const { [code]: _done, ...stillUpdating } = get().ordersUpdating;
      const said = `${recordedWords(recorded, i18n.t)} ${orderOutcomeWords(outcome.kind === 'done' ? { advice } : { failure: outcome.message }, i18n.t)}`;
      const settled = { ...notice(recorded, said, true), failed: outcome.kind === 'error' || !advice };
      const notices = get().orderNotices;
      const orderNotices = noticeId === undefined ? [...notices, settled] : notices.map((shown) => (shown.id === noticeId ? { ...settled, id: noticeId } : shown));
      set({ ordersUpdating: stillUpdating, orderNotices });
    },

    recordOrders: async (orders, supplier) => {
      let recorded: RecordedOrders;
      try {
        recorded = await orderAdviceApi.recordOrders({ orders });
      } catch (error) {
        throw normalizeError(error);
      }
      const codes = recorded.deliveries.map((order) => order.styleCode);
      const said = (outcome: string) => `${withFullStop(i18n.t(supplier === null ? 'forecasting.recordOrders.recordedNoSupplier' : 'forecasting.recordOrders.recorded', { count: recorded.recorded, supplier }))} ${outcome}`;
      const name = supplier ?? i18n.t('forecasting.recordOrders.noSupplierName');
      const recording: OrderNotice = { id: ++noticeCount, name, text: said(i18n.t('forecasting.recordOrders.updatingNotice')), settled: false, failed: false };
      set({ ordersUpdating: { ...get().ordersUpdating, ...Object.fromEntries(codes.map((code) => [code, true as const])) }, orderNotices: [...get().orderNotices, recording] });
      void (async () => {
        const outcome = recorded.taskId
          ? await pollGeneration({ taskId: recorded.taskId, fetchStatus: forecastingApi.fetchTaskStatus, ...BATCH_RUN_POLL })
          : ({ kind: 'error', message: i18n.t('forecasting.recordOrder.notQueued') } as const);
        codes.forEach((code) => forecastingApi.invalidateProductForecast(code));
        const selected = get().selectedCode;
        await Promise.all([selected && codes.includes(selected) ? loadForecast(selected) : null, get().loadLatestReport(), get().loadLowStock()]);
        const stillUpdating = Object.fromEntries(Object.entries(get().ordersUpdating).filter(([code]) => !codes.includes(code)));
        const failed = outcome.kind === 'error';
        const text = said(failed ? i18n.t('forecasting.recordOrders.notUpdated', { reason: outcome.message }) : i18n.t('forecasting.recordOrders.updated'));
        set({ ordersUpdating: stillUpdating, orderNotices: get().orderNotices.map((shown) => (shown.id === recording.id ? { ...shown, text, settled: true, failed } : shown)) });
      })();
      return recorded;
    },

    dismissOrderNotice: (id) => set({ orderNotices: get().orderNotices.filter((shown) => shown.id !== id) }),
    dismissOrderNotices: () => set({ orderNotices: [] }),
  };
});

const notice = (recorded: RecordedOrder, text: string, settled: boolean): OrderNotice => ({ id: ++noticeCount, name: recorded.name, text, settled, failed: false });
