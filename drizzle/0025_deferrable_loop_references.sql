-- References that close a loop between tables (an invoice cancelled by a credit note that names the invoice; an
-- order adding seats to a license an earlier order made) or point into their own table (a member's license names
-- its team's) are checked at the end of the statement as before, and may be checked at commit instead where a
-- transaction asks for it (SET CONSTRAINTS ALL DEFERRED): the move to PostgreSQL copies such rows in any order.
ALTER TABLE "invoices" ALTER CONSTRAINT "invoices_cancelled_by_credit_note_id_credit_notes_id_fk" DEFERRABLE INITIALLY IMMEDIATE;--> statement-breakpoint
ALTER TABLE "licenses" ALTER CONSTRAINT "licenses_team_license_id_licenses_id_fk" DEFERRABLE INITIALLY IMMEDIATE;--> statement-breakpoint
ALTER TABLE "orders" ALTER CONSTRAINT "orders_adds_to_license_id_licenses_id_fk" DEFERRABLE INITIALLY IMMEDIATE;
