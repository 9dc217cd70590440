CREATE TABLE "trial_machines" (
	"tool_id" uuid NOT NULL,
	"fingerprint_hash" text NOT NULL,
	"trial_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trial_machines_tool_id_fingerprint_hash_pk" PRIMARY KEY("tool_id","fingerprint_hash")
);
--> statement-breakpoint
CREATE TABLE "trials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"tool_id" uuid NOT NULL,
	"license_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"converted_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"reminder_sent_at" timestamp with time zone,
	"end_notice_sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "download_tokens" ALTER COLUMN "purchase_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ALTER COLUMN "purchase_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "download_tokens" ADD COLUMN "trial_id" uuid;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "trial_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "trial_machines" ADD CONSTRAINT "trial_machines_tool_id_tools_id_fk" FOREIGN KEY ("tool_id") REFERENCES "public"."tools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_machines" ADD CONSTRAINT "trial_machines_trial_id_trials_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trials"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_tool_id_tools_id_fk" FOREIGN KEY ("tool_id") REFERENCES "public"."tools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trials_user_tool_key" ON "trials" USING btree ("user_id","tool_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trials_license_id_key" ON "trials" USING btree ("license_id");--> statement-breakpoint
CREATE INDEX "trials_tool_id_idx" ON "trials" USING btree ("tool_id");--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_trial_id_trials_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_purchase_or_trial" CHECK ("download_tokens"."purchase_id" is not null or "download_tokens"."trial_id" is not null);--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_purchase_or_trial" CHECK ("licenses"."purchase_id" is not null or "licenses"."status" = 'trial');--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_trial_ends" CHECK ("licenses"."status" <> 'trial' or ("licenses"."expires_at" is not null and "licenses"."purchase_id" is null));--> statement-breakpoint
-- custom (hand-written):
-- (unchanged from the branch's 0008_trials; the trigger's columns are still 0005's plus these two: no migration since
-- changed it, and the update feeds read licenses on every request rather than through the change feed.)
-- A trial's end and its purchase (set when the trial is bought) change what validate answers: announce them too
-- (decision 018).
DROP TRIGGER "licenses_announce_change" ON "licenses";--> statement-breakpoint
CREATE TRIGGER "licenses_announce_change"
  AFTER UPDATE OF "status", "license_key", "username", "password", "expires_at", "purchase_id" OR DELETE ON "licenses"
  FOR EACH ROW EXECUTE FUNCTION "announce_license_change"();
