/**
 * The database schema: every table the sandbox keeps. Everything but the programmes themselves
 * belongs to one programme (docs/programmes.md: Parallel test suites): `programme_id` leads every primary key
 * and every index, references within a programme name it too, and deleting a programme cascades
 * to all it owns. Times are integer milliseconds of sandbox time (UNIX epoch); JSON columns hold
 * plain data. drizzle-kit generates the migrations in `drizzle/` from this file, which gathers the tables of
 * schema/ (`npm run db:generate`).
 */
export * from './schema/programmes.js';
export * from './schema/resources.js';
export * from './schema/outbox.js';
