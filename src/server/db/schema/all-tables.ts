/**
 * Every table of the database, each in its owner's file (docs/structure.md, "Tables and their owners"). Features import
 * a table from its owner's file; this list is for what works on the whole database at once: drizzle-kit, which
 * generates the migrations from it, and the move between databases (db/move.ts).
 */
export * from './accounts';
export * from './catalogue';
export * from './checkout';
export * from './contact';
export * from './coupons';
export * from './downloads';
export * from './invoices';
export * from './licenses';
export * from './mail';
export * from './operator';
export * from './orders';
export * from './payments';
export * from './rate-limits';
export * from './releases';
export * from './teams';
export * from './trials';
export * from './webhooks';
