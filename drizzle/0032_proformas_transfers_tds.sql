CREATE TABLE "proforma_invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"total" integer NOT NULL,
	"amount_due" integer NOT NULL,
	"document" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"method" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"reference" text NOT NULL,
	"razorpay_order_id" text,
	"received_on" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"recorded_by" text NOT NULL,
	"late" boolean DEFAULT false NOT NULL,
	"returned_at" timestamp with time zone,
	"return_reference" text
);
--> statement-breakpoint
CREATE TABLE "proforma_terms" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"payment_link_id" text,
	"payment_link_url" text,
	"reminder_sent_at" timestamp with time zone,
	"expired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tds_certificates" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_at" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone,
	"checked_by" text
);
--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD COLUMN "held_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tds_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_pan" text;--> statement-breakpoint
ALTER TABLE "proforma_invoices" ADD CONSTRAINT "proforma_invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proforma_invoices" ADD CONSTRAINT "proforma_invoices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_receipts" ADD CONSTRAINT "order_receipts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proforma_terms" ADD CONSTRAINT "proforma_terms_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tds_certificates" ADD CONSTRAINT "tds_certificates_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "proforma_invoices_number_key" ON "proforma_invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "proforma_invoices_order_id_key" ON "proforma_invoices" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_receipts_method_reference_key" ON "order_receipts" USING btree ("method","reference");--> statement-breakpoint
CREATE INDEX "order_receipts_order_id_idx" ON "order_receipts" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "proforma_terms_payment_link_id_key" ON "proforma_terms" USING btree ("payment_link_id");--> statement-breakpoint
CREATE INDEX "proforma_terms_open_valid_until_idx" ON "proforma_terms" USING btree ("valid_until") WHERE "proforma_terms"."expired_at" is null;