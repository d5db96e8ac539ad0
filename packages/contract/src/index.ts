export * from './errors.ts';
export * from './auth.ts';
export * from './tables.ts';
export * from './config.ts';
export * from './queries.ts';
export * from './forecasting.ts';
export * from './import.ts';
export * from './reports.ts';
