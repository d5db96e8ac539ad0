// Migration 0710 (ADR 0187): forecast tasks get a list of products. A list's task is none of the
// whole catalogue's (not its one queued or one running run, not its latest completed one, which
// dates the report), a task names one product or a list, never both; going back removes the lists'
// tasks, keeps the others, and the catalogue's indexes are as they were.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { migrations } from './migrations/index.ts';
import { backends } from '../testing/test-server.ts';
import { migrationDatabase } from '../testing/migration-database.ts';
import { columnType } from '../testing/column-type.ts';
import { latestCompletedCatalogueTask } from '../order-advice/repo.ts';
import { queuedCatalogueTask } from '../forecasting/repo.ts';

describe.each(backends)('migration 0710 on %s', (backend) => {
  const opened = migrationDatabase(backend, 'stockwise-list-task');

  it("adds a task's list of products, kept apart from the whole catalogue's runs, and takes it away again", async () => {
    const database = opened();
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0690-reorder-advice-names-the-supplier-and-its-terms')).error).toBeUndefined();
    const task = (status: string, createdSecondsAgo: number, scope: { style_code?: string; product_ids?: number[] } = {}) => {
      const id = randomUUID();
      const columns = scope.product_ids ? sql`, product_ids` : sql``;
      const values = scope.product_ids ? sql`, ${scope.product_ids}::bigint[]` : sql``;
      return {
        id,
        insert: () =>
          sql`insert into forecast_tasks (id, style_code, forecast_days, status, created_at ${columns}) values (${id}, ${scope.style_code ?? null}, 90, ${status}, now() - ${`${createdSecondsAgo} seconds`}::interval ${values})`.execute(db),
      };
    };
    const catalogueRun = task('completed', 60);
    await catalogueRun.insert();

    expect((await migrator.migrateTo('0710-forecast-tasks-of-a-list-of-products')).error).toBeUndefined();
    expect(await columnType(database, 'forecast_tasks', 'product_ids')).toBe('bigint[]');
    const list = task('completed', 10, { product_ids: [7, 3, 12] });
    await list.insert();
    // The newest completed task is the list's; the catalogue's latest run is still the other.
    expect((await latestCompletedCatalogueTask(db))?.id).toBe(catalogueRun.id);
    const stored = await db.selectFrom('forecast_tasks').select('product_ids').where('id', '=', list.id).executeTakeFirstOrThrow();
    expect(stored.product_ids?.map(Number)).toEqual([7, 3, 12]);

    // A list waiting and one running beside the catalogue's one queued and one running run.
    const queuedCatalogue = task('pending', 5);
    for (const inserted of [queuedCatalogue, task('running', 5), task('pending', 4, { product_ids: [1, 2] }), task('pending', 3, { product_ids: [4] }), task('running', 3, { product_ids: [5] })]) await inserted.insert();
    expect((await queuedCatalogueTask(db))?.id).toBe(queuedCatalogue.id);
    await expect(task('pending', 1).insert()).rejects.toThrow(/forecast_tasks_one_queued_catalogue/);
    await expect(task('running', 1).insert()).rejects.toThrow(/forecast_tasks_one_running_catalogue/);
    // One product or a list, never both.
    await expect(task('pending', 1, { style_code: 'P-1', product_ids: [1] }).insert()).rejects.toThrow(/forecast_tasks_one_scope/);

    expect((await migrator.migrateTo('0690-reorder-advice-names-the-supplier-and-its-terms')).error).toBeUndefined();
    expect(await columnType(database, 'forecast_tasks', 'product_ids')).toBeUndefined();
    const { rows } = await sql<{ id: string; status: string }>`select id::text, status from forecast_tasks order by created_at`.execute(db);
    expect(rows.map((row) => row.status)).toEqual(['completed', 'pending', 'running']);
    expect(rows[0]?.id).toBe(catalogueRun.id);
    expect(rows[1]?.id).toBe(queuedCatalogue.id);
    await expect(task('pending', 1).insert()).rejects.toThrow(/forecast_tasks_one_queued_catalogue/);
    const indexes = (await sql<{ definition: string }>`select indexdef as definition from pg_indexes where tablename = 'forecast_tasks' and indexname like 'forecast_tasks_%catalogue' order by indexname`.execute(db)).rows;
    expect(indexes.map((row) => row.definition).join('\n')).not.toContain('product_ids');
    expect(indexes).toHaveLength(3);

    expect((await migrator.migrateTo('0710-forecast-tasks-of-a-list-of-products')).error).toBeUndefined();
  });
});
