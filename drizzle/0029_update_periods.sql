CREATE TABLE "renewal_reminders" (
	"license_id" uuid NOT NULL,
	"updates_until" timestamp with time zone NOT NULL,
	"stage" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "renewal_reminders_license_id_updates_until_stage_pk" PRIMARY KEY("license_id","updates_until","stage")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "renewal_reminder_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "tool_editions" ADD COLUMN "updates_months" integer;--> statement-breakpoint
ALTER TABLE "tool_editions" ADD COLUMN "renewal_price_inr_paise" integer;--> statement-breakpoint
ALTER TABLE "tool_editions" ADD COLUMN "renewal_price_usd_cents" integer;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "updates_months" integer;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "renewal_price_inr_paise" integer;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "renewal_price_usd_cents" integer;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "updates_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "suspended_reason" text;--> statement-breakpoint
ALTER TABLE "renewal_reminders" ADD CONSTRAINT "renewal_reminders_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A new end of updates and a suspension's reason change what validate answers (updatesUntil, the reason with
-- SUSPENDED): announced like a new status (migration 0005, decision 018).
DROP TRIGGER "licenses_announce_change" ON "licenses";--> statement-breakpoint
CREATE TRIGGER "licenses_announce_change"
  AFTER UPDATE OF "status", "license_key", "username", "password", "expires_at", "purchase_id", "edition_id", "updates_until", "suspended_reason" OR DELETE ON "licenses"
  FOR EACH ROW EXECUTE FUNCTION "announce_license_change"();
