DROP INDEX "invoices_order_id_key";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "cancelled_by_credit_note_id" uuid;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_cancelled_by_credit_note_id_credit_notes_id_fk" FOREIGN KEY ("cancelled_by_credit_note_id") REFERENCES "public"."credit_notes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_current_order_id_key" ON "invoices" USING btree ("order_id") WHERE "invoices"."cancelled_by_credit_note_id" is null;--> statement-breakpoint
CREATE INDEX "invoices_order_id_idx" ON "invoices" USING btree ("order_id");