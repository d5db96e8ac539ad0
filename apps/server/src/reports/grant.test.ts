// Two servers starting at once on one PostgreSQL database both grant the report login its reads:
// the grants must not collide (a duplicate default-privilege row, a schema updated twice at once).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useMigratedDatabase } from '../testing/test-server.ts';
import { grantReportReadAccess, reportRoleSecrets } from './repo.ts';

const ROUNDS = 8;

describe.runIf(process.env.TEST_DATABASE_URL)('granting the report login its reads on postgres', () => {
  const database = useMigratedDatabase('postgres', 'stockwise_grant');

  it(`two grants at once both succeed, ${ROUNDS} rounds, and the login reads tables created later`, async () => {
    const { db } = database();
    const role = (await reportRoleSecrets(db))?.role as string;
    expect(role).toBeTruthy();
    for (let round = 0; round < ROUNDS; round += 1) {
      // Each round starts without the default privilege, so both grants would write its row.
      await sql`alter default privileges in schema data revoke select on tables from ${sql.id(role)}`.execute(db);
      await sql`revoke usage on schema data, report_guard from ${sql.id(role)}`.execute(db);
      const results = await Promise.allSettled([grantReportReadAccess(db, role), grantReportReadAccess(db, role)]);
      expect(results.map((result) => (result.status === 'rejected' ? String(result.reason) : 'granted')), `round ${round + 1}`).toEqual(['granted', 'granted']);
    }
    await sql`create table data.made_later (id int)`.execute(db);
    const { rows } = await sql<{ reads: boolean }>`select has_table_privilege(${role}, 'data.made_later', 'select') as reads`.execute(db);
    expect(rows[0]?.reads).toBe(true);
  });
});
