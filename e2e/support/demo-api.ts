// The demo shop's API as a suite's set-up reads and writes it, signed in as the demo administrator.
import { expect } from 'vitest';
import type { InventoryReport } from '@stockwise/contract';

export function demoApi(baseUrl: () => string, token: () => string) {
  async function api<T>(path: string, body?: unknown): Promise<T> {
    const answer = await fetch(`${baseUrl()}/api${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${token()}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(answer.ok, `${path}: ${answer.status}`).toBe(true);
    return (await answer.json()) as T;
  }

  /** The first page of the list (under `query`), once the demo's first catalogue run (started by its seeding) has ended. */
  async function latestReport(query = ''): Promise<InventoryReport> {
    for (const deadline = Date.now() + 150_000; Date.now() < deadline; ) {
      const answer = await api<{ success: boolean; report?: InventoryReport }>(`/forecasting/latest-report/${query}`);
      if (answer.success && answer.report) return answer.report;
      await new Promise((resolve) => setTimeout(resolve, 500)); // polling the server's background run
    }
    throw new Error('no latest report after 150 s');
  }

  /** Sets a product's supplier on the products table, as the Data screen's row form saves it. */
  async function setSupplier(code: string, supplier: string) {
    const filters = encodeURIComponent(JSON.stringify({ product_code: { equals: code } }));
    const [row] = (await api<{ results: { id: number }[] }>(`/records/tables/products/data/?page=1&page_size=1&filters_json=${filters}`)).results;
    await api('/records/tables/products/rows/edit/', { id: row!.id, supplier });
  }

  /** The products of these suppliers (a file-walk spec's own: no demo product has one of them), read as the Data screen reads them. */
  async function productsOf(suppliers: readonly string[]): Promise<{ id: number; product_code: string; name: string }[]> {
    const rows: { id: number; product_code: string; name: string }[] = [];
    for (const supplier of suppliers) {
      const filters = encodeURIComponent(JSON.stringify({ supplier: { equals: supplier } }));
      rows.push(...(await api<{ results: { id: number; product_code: string; name: string }[] }>(`/records/tables/products/data/?page=1&page_size=500&sort_by=product_code&filters_json=${filters}`)).results);
    }
    return rows;
  }

  /** Removes the products of these suppliers with what they hold (sales), so other specs see the demo catalogue. */
  async function removeProductsOf(suppliers: readonly string[]) {
    for (const row of await productsOf(suppliers)) await api('/records/tables/products/rows/delete/', { id: row.id, cascade: true });
  }

  return { api, latestReport, setSupplier, productsOf, removeProductsOf };
}
