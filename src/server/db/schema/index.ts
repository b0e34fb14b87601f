/**
 * The Drizzle schema, one file per area (drizzle.config.ts reads this file; `import … from 'db/schema'` finds it). The
 * migrations in ../migrations are the database's truth: after a change here, `npm run db:generate` writes the next one.
 */
export * from './users';
export * from './teams';
export * from './projects';
export * from './task-details';
export * from './notifications';
export * from './saved-views';
export * from './calendar';
export * from './webhooks';
export * from './audit';
export * from './notes';
export * from './rate-limits';
export * from './outside';
export * from './identity';
