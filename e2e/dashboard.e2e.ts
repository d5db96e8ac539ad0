// The dashboard and the assistant through the real UI on the demo catalogue: figures and the
// projection chart, and how they move when products arrive; a task toggled and still ticked after a
// reload; a pinned report's chart, its table opened by keyboard (the whole category paths the axis shortens), and monthly, yearly and daily ones whose last period has not
// ended, named (axis, tooltip, words) and dashed or lighter so;
// each quick button's rows (low stock is the forecast's order advice, the Forecasting report's
// list); a plain question; the advised orders created from the assistant and found in the
// deliveries; the browser's language and time zone reaching the assistant's answers; a shop of its
// own selling by the kg and by the piece, whose total, growth and projection go one unit at a time;
// axe's WCAG 2 A/AA rules.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './support/browser.ts';
import { demoUser, registerUser } from './support/context.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { dayOfMonth, fullDay } from './support/days.ts';
import { axeViolations } from './support/axe.ts';

const browser = useBrowser();
/** The machine is shared (2 cores): answers that write many rows take seconds. */
const slow = { timeout: 30_000 };
const code = `DASH-${Date.now().toString(36)}`.toUpperCase();
let token = '';
let productId = 0;
let reportId = 0;
/** Deliveries above this id were created by this spec's orders. */
let lastDeliveryBefore: number | null = null;

async function apiCall(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<Record<string, unknown>> {
  const answer = await fetch(`${inject('baseUrl')}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  if (answer.status >= 400) throw new Error(`${path}: ${answer.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const newestDeliveryId = async () => (((await apiCall('/api/records/tables/deliveries/data/?page_size=1&sort_by=id&sort_dir=desc')).results as { id: number }[])[0]?.id ?? 0);
const deliveriesAfter = async (id: number) =>
  ((await apiCall(`/api/records/tables/deliveries/data/?page_size=500&sort_by=id&sort_dir=desc`)).results as { id: number }[]).filter((d) => d.id > id);

const deliveriesOfProduct = async () =>
  ((await apiCall(`/api/records/tables/deliveries/data/?page_size=50&filters_json=${encodeURIComponent(JSON.stringify({ product_id: productId }))}`)).results as { id: number; product_id: number; quantity: number; status: string }[]).filter((d) => d.product_id === productId);

beforeAll(async () => {
  const answer = await fetch(`${inject('baseUrl')}/api/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(demoUser) });
  token = ((await answer.json()) as { access: string }).access;
});

afterAll(async () => {
  // Leave the demo catalogue as it was for the other specs.
  if (lastDeliveryBefore !== null) for (const delivery of await deliveriesAfter(lastDeliveryBefore)) await apiCall('/api/records/tables/deliveries/rows/delete/', { id: delivery.id });
  // The product's deliveries, stock snapshots and forecast go with it (the demo user is an admin).
  if (productId) await apiCall('/api/records/tables/products/rows/delete/', { id: productId, cascade: true });
  if (reportId) await apiCall(`/api/user-reports/${reportId}/`, undefined, 'DELETE');
});

/** The calendar day (YYYY-MM-DD) it is now in a time zone. */
const dayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());

/** The pieces on hand: the bare figure, or the pieces' total once other suites gave products a unit ("1,240 units, 0.75 kg"). */
const totalInventory = async (page: Page) => Number(/^([\d,.]+)(?: units?)?(?:,|$)/.exec((await page.getByTestId('total-inventory').textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? Number.NaN);

describe('Dashboard', () => {
  it('shows the figures and the projection, which move when a file import brings products in', async () => {
    const { page } = browser;
    // A retry starts from the catalogue without the product an earlier attempt imported.
    if (productId) await apiCall('/api/records/tables/products/rows/delete/', { id: productId, cascade: true });
    productId = 0;
    await signIn(page);
    await page.getByTestId('total-inventory').waitFor();
    // The demo catalogue is forecast in the background after seeding: the chart appears once it is.
    await expect
      .poll(async () => {
        if (await page.getByTestId('projection-chart').count()) return true;
        await page.reload();
        await page.getByTestId('total-inventory').waitFor();
        return false;
      }, { timeout: 120_000, interval: 2_000 })
      .toBe(true);
    await page.locator('[data-testid="projection-chart"] .recharts-line').first().waitFor();
    expect(await page.locator('[data-testid="projection-chart"] .recharts-line').count()).toBe(3);
    // Every month named (none dropped between its neighbours), as the other charts name them: the
    // year on the first and on January. The legend from high to low.
    // The month axis's labels (the units axis's are figures).
    const ticks = (await page.locator('[data-testid="projection-chart"] .recharts-cartesian-axis-tick-value').allTextContents()).filter((tick) => /^[A-Z]/.test(tick));
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    ticks.forEach((tick, i) => {
      expect(tick).toMatch(i === 0 || tick.startsWith('Jan') ? /^[A-Z][a-z]{2} \d{4}$/ : /^[A-Z][a-z]{2}$/);
      if (i > 0) expect(months.indexOf(tick.slice(0, 3))).toBe((months.indexOf(ticks[i - 1]!.slice(0, 3)) + 1) % 12);
    });
    expect(await page.locator('[data-testid="projection-chart"] .recharts-legend-item-text').allTextContents()).toEqual(['High', 'Medium', 'Low']);
    const before = await totalInventory(page);
    // A figure with what it compares, or the sentence saying when there will be one (the demo's history decides which).
    // One figure per unit once other suites gave products a unit ("+1.2 % in units, -3.0 % in kg").
    expect(await page.getByTestId('monthly-growth').textContent()).toMatch(/^[+-]?\d+\.\d %( in [^,]+)?(, [+-]?\d+\.\d % in [^,]+)*$|^Growth shows once a month of stock history is here$/);
    expect(await page.getByTestId('monthly-growth-basis').textContent()).toMatch(/a month before|products added since are not growth/);

    // A file import (the same call the Data integration screen makes) brings the new product in.
    const form = new FormData();
    form.append('mapping_config', JSON.stringify({ entities: { products: { field_mappings: { product_code: 'code', name: 'name', current_stock: 'stock', unit_cost: 'cost', lead_time_days: 'lead' } } } }));
    form.append('mapping_name', 'dashboard e2e');
    form.append('entity_type', 'products');
    form.append('file', new Blob([`code,name,stock,cost,lead\n${code},Dashboard lamp ${code},5,12.5,9\n`], { type: 'text/csv' }), 'lamps.csv');
    const imported = await fetch(`${inject('baseUrl')}/api/records/process-file/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const rows = (await apiCall(`/api/records/tables/products/data/?page_size=1&filters_json=${encodeURIComponent(JSON.stringify({ product_code: code }))}`)).results as { id: number }[];
    productId = rows[0]?.id ?? 0;
    expect(productId).toBeGreaterThan(0);
    await page.reload();
    await expect.poll(() => totalInventory(page), slow).toBe(before + 5);
    expect(await axeViolations(page, 'main')).toEqual([]);
  });

  it('keeps a toggled task after a reload', async () => {
    const { page } = browser;
    await signIn(page);
    const text = `Count the shelves ${Date.now().toString(36)}`;
    await page.getByLabel('New task').fill(text);
    await page.getByRole('button', { name: 'Add task' }).click();
    const box = page.getByRole('checkbox', { name: text });
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    // Drawn as a checkbox one line high (without its sheet the tick was some 200 px tall).
    expect((await page.locator('.mantine-Checkbox-root', { hasText: text }).boundingBox())?.height).toBeLessThanOrEqual(32);
    // Ticked once the server has stored it.
    await box.click();
    await expect.poll(() => box.isChecked(), slow).toBe(true);
    await page.reload();
    await page.getByRole('checkbox', { name: text }).waitFor();
    expect(await page.getByRole('checkbox', { name: text }).isChecked()).toBe(true);

    // A task the server would refuse is refused at its field, in words; the dashboard stays as it is.
    const field = page.getByLabel('New task');
    await field.fill('x'.repeat(600));
    await field.press('Enter');
    await expect.poll(() => page.getByText('Task text is at most 500 characters (this has 600).').count(), slow).toBe(1);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    // The server's own reason, for what only it checks.
    await field.fill('Call \u0000 the supplier');
    await field.press('Enter');
    await expect.poll(() => page.getByText(/may not contain NUL/).count(), slow).toBe(1);
    expect(await page.getByTestId('dashboard-error').count()).toBe(0);
    expect(await field.inputValue()).toBe('Call \u0000 the supplier');
    expect(await axeViolations(page, 'main')).toEqual([]);
    await field.fill('');
  });

  it('shows a pinned report with its chart', async () => {
    const { page } = browser;
    const title = `Stock by category ${Date.now().toString(36)}`;
    reportId = (await apiCall('/api/user-reports/', {
      title,
      sql_code: 'select category, sum(current_stock) as stock from products group by category order by category',
      chart_config: { type: 'bar', x_field: 'category', series: [{ field: 'stock' }], group_field: null, stacked: false, title: '', sort: null },
    })).id as number;
    // While a pinned report's rows are on their way its card says so, to a screen reader too.
    let releaseReportData = () => {};
    const reportDataHeld = new Promise<void>((resolve) => (releaseReportData = resolve));
    await page.route(/\/api\/user-reports\/[^/]+\/data\/(\?|$)/, async (route) => {
      await reportDataHeld;
      await route.continue();
    });
    await signIn(page);
    await page.getByTestId('pinned-report').first().getByRole('status', { name: 'Loading the dashboard' }).waitFor();
    expect(await axeViolations(page, 'main')).toEqual([]);
    releaseReportData();
    await page.unrouteAll({ behavior: 'wait' });
    // Pinned from the Reports screen.
    await page.goto('/app/reports');
    await page.getByRole('button', { name: 'Close the assistant' }).click();
    await page.getByText(title).first().click();
    await page.getByTestId('pin-report').click();
    await page.getByRole('button', { name: 'Pinned to the dashboard' }).waitFor();
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
    const pinned = page.getByTestId('pinned-report').filter({ hasText: title });
    await pinned.locator('.recharts-bar-rectangle').first().waitFor();

    // A pinned report that fails when it runs says why, instead of an empty card.
    const failing = `Failing ${Date.now().toString(36)}`;
    const failingId = (await apiCall('/api/user-reports/', {
      title: failing,
      sql_code: 'select category, sum(current_stock) / 0 as stock from products group by category',
      chart_config: { type: 'bar', x_field: 'category', series: [{ field: 'stock' }], group_field: null, stacked: false, title: '', sort: null },
    })).id as number;
    await apiCall('/api/dashboard/pins/', { report_id: failingId });
    await page.reload();
    const failed = page.getByTestId('pinned-report').filter({ hasText: failing }).getByTestId('pinned-report-error');
    await failed.waitFor();
    expect(await failed.textContent()).toContain(`Failed to fetch report data for "${failing}"`);
    expect(await failed.textContent()).toContain('division by zero');
    expect(await axeViolations(page, 'main')).toEqual([]);
    await apiCall(`/api/user-reports/${failingId}/`, undefined, 'DELETE');
  });

  it("opens a pinned chart's table by keyboard: each bar's whole category path, shortened on the axis, with the focus kept (ADR 0196, amendment 2026-12-07)", async () => {
    const { page } = browser;
    const title = `Chairs by path ${Date.now().toString(36)}`;
    const id = (await apiCall('/api/user-reports/', {
      title,
      sql_code: "select category, stock from (values ('All / Office / Chairs', 3), ('All / Garden / Chairs', 5), ('All / Paper', 2)) v(category, stock) order by category",
      chart_config: { type: 'bar', x_field: 'category', series: [{ field: 'stock' }], group_field: null, stacked: false, title: '', sort: null },
    })).id as number;
    try {
      await apiCall('/api/dashboard/pins/', { report_id: id });
      await signIn(page);
      const card = page.getByTestId('pinned-report').filter({ hasText: title });
      await card.locator('.recharts-bar-rectangle').first().waitFor();
      // The axis names each path short; the whole one was in the mouse's tooltip only.
      expect(await card.locator('.recharts-cartesian-axis-tick-value').allTextContents()).toEqual(expect.arrayContaining(['Garden / Chairs', 'Office / Chairs', 'Paper']));
      const toggle = card.getByRole('button', { name: 'Table of the figures' });
      const focused = (locator: typeof toggle) => locator.evaluate((element) => element === document.activeElement);
      // From the page's heading, with Tab alone (signing in put the focus there).
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).focus();
      for (let presses = 0; presses < 80 && !(await focused(toggle)); presses += 1) await page.keyboard.press('Tab');
      expect(await focused(toggle)).toBe(true);
      const ringOf = (locator: typeof toggle) => locator.evaluate((element) => ({ style: getComputedStyle(element).outlineStyle, width: getComputedStyle(element).outlineWidth }));
      expect(await ringOf(toggle)).toEqual({ style: 'solid', width: '2px' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      // Enter opens it; the focus stays on the button.
      await page.keyboard.press('Enter');
      const grid = card.getByRole('table', { name: `${title}: its figures` });
      await grid.waitFor();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await toggle.getAttribute('aria-controls')).toBe(await grid.evaluate((element) => element.parentElement?.id));
      expect(await focused(toggle)).toBe(true);
      expect(await grid.getByRole('cell').allTextContents()).toEqual(['All / Garden / Chairs', '5', 'All / Office / Chairs', '3', 'All / Paper', '2']);
      expect(await axeViolations(page, 'main')).toEqual([]);
      // Tab reaches the table (one stop, scrolled with the arrows), ringed; Shift+Tab returns, Space closes it with the focus kept.
      await page.keyboard.press('Tab');
      expect(await focused(grid)).toBe(true);
      expect(await ringOf(grid)).toEqual({ style: 'solid', width: '2px' });
      await page.keyboard.press('Shift+Tab');
      expect(await focused(toggle)).toBe(true);
      await page.keyboard.press('Space');
      await grid.waitFor({ state: 'detached' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await focused(toggle)).toBe(true);
      expect(await axeViolations(page, 'main')).toEqual([]);
    } finally {
      await apiCall(`/api/user-reports/${id}/`, undefined, 'DELETE');
    }
  });

  it('names the month, the year and today not finished on pinned charts, dashed or lighter, in the tooltip and in words', async () => {
    const { page } = browser;
    const stamp = Date.now().toString(36);
    const chart = (type: string, x: string, y: string) => ({ type, x_field: x, series: [{ field: y }], group_field: null, stacked: false, title: '', sort: null });
    // Days of the last ten weeks by month, of 400 days by year, and the last week's days: each runs to today.
    const reports = [
      { title: `Days by month ${stamp}`, sql_code: "select date_trunc('month', d)::date as month, count(*)::int as days from generate_series(current_date - 70, current_date, interval '1 day') d group by 1 order by 1", chart_config: chart('line', 'month', 'days') },
      { title: `Days by year ${stamp}`, sql_code: "select extract(year from d)::int as year, count(*)::int as days from generate_series(current_date - 400, current_date, interval '1 day') d group by 1 order by 1", chart_config: chart('bar', 'year', 'days') },
      { title: `Last days ${stamp}`, sql_code: "select d::date as day, 1 as days from generate_series(current_date - 6, current_date, interval '1 day') d order by 1", chart_config: chart('line', 'day', 'days') },
    ];
    const ids: number[] = [];
    try {
      for (const report of reports) {
        ids.push((await apiCall('/api/user-reports/', report)).id as number);
        await apiCall('/api/dashboard/pins/', { report_id: ids.at(-1) });
      }
      const today = new Date();
      const month = new Intl.DateTimeFormat('en', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(today);
      const shortMonth = new Intl.DateTimeFormat('en', { month: 'short', timeZone: 'UTC' }).format(today);
      const todayWords = dayOfMonth(today);
      const year = today.getUTCFullYear();
      const day = today.getUTCDate();
      // The last week's days are written with their year when it began last year (1–6 January).
      const weekSpansYears = new Date(today.getTime() - 6 * 86_400_000).getUTCFullYear() !== year;
      const todayOnAxis = weekSpansYears ? `${todayWords} ${year}` : todayWords;
      await signIn(page);
      const card = (index: number) => page.getByTestId('pinned-report').filter({ hasText: reports[index]!.title });
      const note = (index: number) => card(index).getByTestId('unfinished-period');
      await note(0).waitFor();
      expect(await note(0).textContent()).toBe(`${month} is not finished: it holds ${day === 1 ? `1 ${shortMonth}` : `1–${day} ${shortMonth}`} only.`);
      // The figure points a screen reader to the words; the axis names the month "to date".
      const figure = card(0).getByTestId('report-chart');
      expect(await figure.getAttribute('aria-describedby')).toBe(await note(0).getAttribute('id'));
      expect(await card(0).locator('.recharts-cartesian-axis-tick-value').allTextContents()).toContain(`${month} (to date)`);
      // The segment into the month is dashed; the months before it are solid.
      expect(await card(0).locator('.recharts-line path.recharts-curve[stroke-dasharray="6 4"]').count()).toBe(1);
      expect(await card(0).locator('.recharts-line path.recharts-curve:not([stroke-dasharray="6 4"])').count()).toBe(1);

      // This year (extract(year): a number) as a lighter bar, named on the axis, in the tooltip and in words.
      await note(1).waitFor();
      expect(await note(1).textContent()).toBe(`${year} is not finished: it holds ${todayWords === `1 Jan` ? '1 Jan' : `1 Jan–${todayWords}`} only.`);
      expect(await card(1).getByTestId('report-chart').getAttribute('aria-describedby')).toBe(await note(1).getAttribute('id'));
      expect(await card(1).locator('.recharts-cartesian-axis-tick-value').allTextContents()).toEqual(expect.arrayContaining([String(year - 1), `${year} (to date)`]));
      expect(await card(1).locator('.recharts-bar-rectangle path[fill-opacity="0.4"]').count()).toBe(1);
      await card(1).locator('.recharts-bar-rectangle').last().hover();
      await expect.poll(() => card(1).locator('.recharts-tooltip-label').textContent()).toBe(`${year} (to date)`);

      // Today's row of a daily chart: its sales are not all in yet.
      await note(2).waitFor();
      expect(await note(2).textContent()).toBe(`${todayOnAxis} is today, not finished: it holds what has come in so far.`);
      expect(await card(2).locator('.recharts-cartesian-axis-tick-value').allTextContents()).toContain(`${todayOnAxis} (to date)`);
      // The pointer over the last point (the plot's right edge), once the chart is on screen.
      await card(2).scrollIntoViewIfNeeded();
      const plot = (await card(2).locator('.recharts-cartesian-grid').boundingBox())!;
      await page.mouse.move(plot.x + plot.width - 2, plot.y + plot.height / 2);
      await expect.poll(() => card(2).locator('.recharts-tooltip-label').textContent()).toBe(`${todayOnAxis} (to date)`);
      expect(await axeViolations(page, 'main')).toEqual([]);
    } finally {
      for (const id of ids) await apiCall(`/api/user-reports/${id}/`, undefined, 'DELETE');
    }
  });

  it('answers the quick buttons and a question with real rows, and creates the advised orders', async () => {
    const { page } = browser;
    type Advice = { total: number; on_order_late?: number; products: { styleCode: string; orderQuantity: number }[] };
    const readAdvice = async () => ((await apiCall('/api/forecasting/latest-report/?page_size=500')) as { report: Advice }).report;
    await signIn(page);
    await page.getByRole('button', { name: 'Show low stock' }).click();
    const lastAnswer = () => page.locator('[data-testid="assistant-message"][data-role="assistant"]').last();
    const tableOfLast = () => page.locator('[data-testid="assistant-message"][data-role="assistant"]').last().getByTestId('assistant-table');
    await tableOfLast().waitFor();
    const advice = await readAdvice();
    expect(advice.total).toBeGreaterThan(0);
    // The report's list, most urgent first, with its count of orders (its deliveries to hurry are said apart); the new product has no sales, so no order.
    const orders = advice.total - (advice.on_order_late ?? 0);
    expect(await lastAnswer().textContent()).toContain(`${orders} ${orders === 1 ? 'product needs' : 'products need'} an order, most urgent first`);
    expect(await tableOfLast().locator('tbody tr').first().textContent()).toContain(advice.products[0]!.styleCode);
    expect(await tableOfLast().getByRole('row').filter({ hasText: code }).count()).toBe(0);
    await page.getByRole('button', { name: 'Close the assistant' }).click();

    await page.getByRole('button', { name: 'Reorder report' }).click();
    await expect.poll(() => page.locator('[data-testid="assistant-message"][data-role="assistant"]').last().textContent(), slow).toContain('Reorder report:');
    expect(await tableOfLast().locator('tfoot').textContent()).toContain('Total');
    await page.getByRole('button', { name: 'Close the assistant' }).click();

    await page.getByRole('button', { name: 'Deliveries' }).click();
    await expect.poll(() => page.locator('[data-testid="assistant-message"][data-role="assistant"]').last().textContent(), slow).toMatch(/upcoming deliver/);
    // The demo catalogue has deliveries on the way.
    await expect.poll(() => tableOfLast().getByRole('row').count(), slow).toBeGreaterThan(1);

    const input = page.getByPlaceholder('Type your message...');
    await input.fill(`How much stock of ${code} do we have?`);
    await input.press('Enter');
    await expect.poll(() => page.locator('[data-testid="assistant-message"][data-role="assistant"]').last().textContent(), slow).toContain('has 5 units on hand');
    await page.locator('[data-testid="assistant-message"][data-role="assistant"]').last().getByRole('link', { name: /Forecast for/ }).waitFor();

    // The reorder report above offered the action already: wait for this answer's own.
    const actionsBefore = await page.getByTestId('assistant-action').count();
    await input.fill('Create the recommended orders');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('assistant-action').count(), slow).toBeGreaterThan(actionsBefore);
    lastDeliveryBefore = await newestDeliveryId();
    const advisedNow = await readAdvice();
    await page.getByTestId('assistant-action').last().click();
    await expect.poll(() => lastAnswer().textContent(), slow).toMatch(/Created \d+ scheduled deliver/);
    expect(await axeViolations(page, '[data-testid="assistant-panel"]')).toEqual([]);
    // Each created delivery carries its product's advised quantity; the product without sales got none.
    const created = await apiCall(`/api/records/tables/deliveries/data/?page_size=500&sort_by=id&sort_dir=desc`);
    const codeOf = (productId: number) => (created.references as Record<string, Record<string, string>>)['product_id']?.[String(productId)]?.split(' — ')[0];
    const advised = new Map(advisedNow.products.map((p) => [p.styleCode, p.orderQuantity]));
    const mine = (created.results as { id: number; product_id: number; quantity: number; status: string }[]).filter((d) => d.id > (lastDeliveryBefore ?? 0));
    expect(mine.length).toBeGreaterThan(0);
    for (const delivery of mine) expect([delivery.quantity, delivery.status], codeOf(delivery.product_id)).toEqual([advised.get(codeOf(delivery.product_id) ?? ''), 'scheduled']);
    expect(await deliveriesOfProduct()).toEqual([]);
    await page.locator('[data-testid="assistant-message"][data-role="assistant"]').last().getByRole('link', { name: 'Open the deliveries table' }).click();
    await page.waitForURL('**/app/datatab?table=deliveries');
    await page.getByTestId('table-title').filter({ hasText: 'deliveries' }).waitFor();
  });

  it("answers in the browser's language and time zone: 12/05/2024 month-first for en-US, day-first for en-GB; today the zone's day", async () => {
    // Kiritimati (UTC+14) is a day ahead of UTC from 10:00 UTC, Pago Pago (UTC−11) a day behind until 11:00: the zone whose day is not UTC's.
    const farZone = dayIn('Pacific/Kiritimati') !== dayIn('UTC') ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    expect(dayIn(farZone), farZone).not.toBe(dayIn('UTC'));
    for (const { locale, timezoneId, read, notRead } of [
      { locale: 'en-US', timezoneId: farZone, read: '5 Dec 2024', notRead: '12 May 2024' },
      { locale: 'en-GB', timezoneId: 'Europe/London', read: '12 May 2024', notRead: '5 Dec 2024' },
    ]) {
      const context = await browser.browser.newContext({ baseURL: browser.baseUrl, locale, timezoneId });
      context.setDefaultTimeout(30_000);
      try {
        const page = await context.newPage();
        await signIn(page);
        await page.getByRole('button', { name: 'Open the assistant' }).click();
        const input = page.getByPlaceholder('Type your message...');
        const lastAnswer = () => page.locator('[data-testid="assistant-message"][data-role="assistant"]').last();
        const ask = async (question: string) => {
          const before = await page.locator('[data-testid="assistant-message"][data-role="assistant"]').count();
          await input.fill(question);
          await input.press('Enter');
          await expect.poll(() => page.locator('[data-testid="assistant-message"][data-role="assistant"]').count(), slow).toBeGreaterThan(before);
          return (await lastAnswer().textContent()) ?? '';
        };
        const dated = await ask('how many units did we sell on 12/05/2024');
        expect(dated, locale).toContain(`sold on ${read}`);
        expect(dated, locale).not.toContain(notRead);
        expect(await ask('how many units did we sell today'), timezoneId).toContain(`sold today (${fullDay(dayIn(timezoneId))})`);
        expect(await axeViolations(page, '[data-testid="assistant-panel"]')).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});

/** The whole catalogue forecast on a shop of its own, as the Forecasting screen's button asks for it, and waited for. */
async function forecastCatalogue(api: (path: string, body?: unknown) => Promise<Record<string, unknown>>) {
  const taskId = (await api('/api/forecasting/request-generation/', {})).task_id as string;
  await expect.poll(async () => (await api(`/api/forecasting/status/${taskId}/`)).status, { timeout: 120_000, interval: 1_000 }).toBe('completed');
}

describe("A deli's dashboard: cheese by the kg and jars by the piece, never one figure", () => {
  // A shop of its own: two products whose figures are worked out here, away from the demo catalogue
  // and the kilos other suites add to it.
  let deli: RunningServer;
  const deliBrowser = useBrowser({ baseUrl: () => deli.baseUrl });
  let owner = { username: '', password: '' };
  let deliApi: (path: string, body?: unknown) => Promise<Record<string, unknown>> = () => Promise.reject(new Error('the deli is not open yet'));
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    deli = await startServer({ name: 'deli', accessTokenTtlSeconds: 900, env: { DEMO_DATA: 'false' } });
    // The first account of an empty database is its administrator.
    owner = await registerUser(deli.baseUrl);
    const { access } = (await (await fetch(`${deli.baseUrl}/api/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(owner) })).json()) as { access: string };
    const upload = async (entity: string, fieldMappings: Record<string, string>, content: string) => {
      const form = new FormData();
      form.append('mapping_config', JSON.stringify({ entities: { [entity]: { field_mappings: fieldMappings } } }));
      form.append('mapping_name', `deli ${entity}`);
      form.append('entity_type', entity);
      form.append('file', new Blob([content], { type: 'text/csv' }), `${entity}.csv`);
      const answer = await fetch(`${deli.baseUrl}/api/records/process-file/`, { method: 'POST', headers: { authorization: `Bearer ${access}` }, body: form });
      expect(answer.status, await answer.clone().text()).toBe(200);
    };
    await upload('products', { product_code: 'code', name: 'name', unit: 'unit', unit_cost: 'cost', lead_time_days: 'lead' }, 'code,name,unit,cost,lead\nCHE-1,Cheddar mature,kg,9.80,7\nJAR-1,Damson jam,,2.40,7\n');
    // 0.3 kg of cheese and 2 jars a day for 120 days.
    const days = Array.from({ length: 120 }, (_, i) => daysAgo(120 - i));
    await upload('sales', { product_id: 'code', date: 'day', quantity: 'qty' }, `code,day,qty\n${days.flatMap((day) => [`CHE-1,${day},0.3`, `JAR-1,${day},2`]).join('\n')}\n`);
    // Counted 40 days ago and yesterday: the cheese 25 → 20.5 kg (−18 %), the jars 300 → 400 (+33.3 %).
    await upload('stock_snapshots', { product_id: 'code', date: 'day', stock_level: 'count' }, `code,day,count\nCHE-1,${daysAgo(40)},25\nJAR-1,${daysAgo(40)},300\nCHE-1,${daysAgo(1)},20.5\nJAR-1,${daysAgo(1)},400\n`);
    deliApi = async (path: string, body?: unknown) =>
      (await (
        await fetch(`${deli.baseUrl}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      ).json()) as Record<string, unknown>;
  });

  afterAll(async () => {
    await deli?.stop();
  });

  it('totals, grows and projects each unit apart; the chart is chosen by keyboard and names its unit', async () => {
    await forecastCatalogue(deliApi);
    const { page } = deliBrowser;
    await signIn(page, owner);
    expect(await page.getByTestId('total-inventory').textContent()).toBe('400 units, 20.5 kg');
    expect(await page.getByTestId('monthly-growth').textContent()).toBe('+33.3 % in units, -18.0 % in kg');

    const chooser = page.getByRole('radiogroup', { name: 'Unit' });
    await chooser.waitFor();
    expect(await chooser.getByRole('radio').evaluateAll((radios) => radios.map((radio) => (radio as HTMLInputElement).labels?.[0]?.textContent))).toEqual(['units', 'kg']);
    // As many products in each: the chart opens on the first, the pieces.
    expect(await page.getByRole('radio', { name: 'units' }).isChecked()).toBe(true);
    const chart = page.getByTestId('projection-chart');
    await chart.locator('.recharts-line').first().waitFor();
    expect(await chart.getAttribute('aria-label')).toBe('Projected stock in units per month: high, medium and low');
    // The stock axis's labels (the month axis's are words).
    const highestTick = async () => Math.max(0, ...(await chart.locator('.recharts-cartesian-axis-tick-value').allTextContents()).filter((tick) => /^[\d,.]+$/.test(tick)).map((tick) => Number(tick.replace(/,/g, ''))));
    // The jars' hundreds (400 on hand, 2 sold a day).
    await expect.poll(highestTick).toBeGreaterThan(100);

    // Keyboard: the checked choice, then the arrow to the kilos.
    await page.getByRole('radio', { name: 'units' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('radio', { name: 'kg' }).isChecked()).toBe(true);
    await expect.poll(() => chart.getAttribute('aria-label')).toBe('Projected stock in kg per month: high, medium and low');
    expect(await page.getByTestId('projection-explain').textContent()).toBe(
      'Medium: projected stock of the 1 product counted in kg at each month end, from the latest forecasts and scheduled deliveries. High and low: the 80 % band of its demand.',
    );
    // The cheese's 20.5 kg alone, not 420.5 of kilos and jars added.
    await expect.poll(highestTick).toBeLessThanOrEqual(25);
    // A month's readout says its unit.
    const box = (await chart.locator('.recharts-cartesian-grid').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // High to low, as the legend reads, each in kg.
    await expect.poll(() => chart.locator('.recharts-tooltip-item').allTextContents()).toEqual([expect.stringMatching(/^High : [\d.]+ kg$/), expect.stringMatching(/^Medium : [\d.]+ kg$/), expect.stringMatching(/^Low : [\d.]+ kg$/)]);
    expect(await axeViolations(page, 'main')).toEqual([]);
  });
});

describe("A new shop's dashboard: a projection from 3 days of sales says so", () => {
  // A shop of its own, three days into its sales (ADR 0070, amendment 2026-12-06).
  let shop: RunningServer;
  const shopBrowser = useBrowser({ baseUrl: () => shop.baseUrl });
  let owner = { username: '', password: '' };
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  let shopApi: (path: string, body?: unknown) => Promise<Record<string, unknown>> = () => Promise.reject(new Error('the shop is not open yet'));

  beforeAll(async () => {
    shop = await startServer({ name: 'new-shop', accessTokenTtlSeconds: 900, env: { DEMO_DATA: 'false' } });
    owner = await registerUser(shop.baseUrl);
    const { access } = (await (await fetch(`${shop.baseUrl}/api/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(owner) })).json()) as { access: string };
    const api = async (path: string, body?: unknown) =>
      (await (
        await fetch(`${shop.baseUrl}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      ).json()) as Record<string, unknown>;
    const upload = async (entity: string, fieldMappings: Record<string, string>, content: string) => {
      const form = new FormData();
      form.append('mapping_config', JSON.stringify({ entities: { [entity]: { field_mappings: fieldMappings } } }));
      form.append('mapping_name', `new shop ${entity}`);
      form.append('entity_type', entity);
      form.append('file', new Blob([content], { type: 'text/csv' }), `${entity}.csv`);
      const answer = await fetch(`${shop.baseUrl}/api/records/process-file/`, { method: 'POST', headers: { authorization: `Bearer ${access}` }, body: form });
      expect(answer.status, await answer.clone().text()).toBe(200);
    };
    await upload('products', { product_code: 'code', name: 'name', unit_cost: 'cost', lead_time_days: 'lead' }, 'code,name,cost,lead\nPG-01,Bio compost 20L,4,7\n');
    await upload('sales', { product_id: 'code', date: 'day', quantity: 'qty' }, `code,day,qty\nPG-01,${daysAgo(3)},10\nPG-01,${daysAgo(2)},12\nPG-01,${daysAgo(1)},8\n`);
    await upload('stock_snapshots', { product_id: 'code', date: 'day', stock_level: 'count' }, `code,day,count\nPG-01,${daysAgo(1)},500\n`);
    shopApi = api;
  });

  afterAll(async () => {
    await shop?.stop();
  });

  it('draws the chart with a note of the days it rests on, which passes axe', async () => {
    await forecastCatalogue(shopApi);
    const { page } = shopBrowser;
    await signIn(page, owner);
    await page.getByTestId('projection-chart').locator('.recharts-line').first().waitFor();
    expect(await page.getByTestId('projection-history').textContent()).toBe(`An early estimate: drawn from 3 days of sales (${fullDay(daysAgo(3))} – ${fullDay(daysAgo(1))}). It settles once there are 4 weeks of sales.`);
    expect(await axeViolations(page, 'main')).toEqual([]);
  });
});
