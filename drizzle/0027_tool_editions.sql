CREATE TABLE "tool_editions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tool_id" uuid NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"price_inr_paise" integer NOT NULL,
	"price_usd_cents" integer,
	"entitlements" text[] DEFAULT '{}'::text[] NOT NULL,
	"device_limit" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "trial_edition_id" uuid;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "edition_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "terms" jsonb;--> statement-breakpoint
ALTER TABLE "tool_editions" ADD CONSTRAINT "tool_editions_tool_id_tools_id_fk" FOREIGN KEY ("tool_id") REFERENCES "public"."tools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tool_editions_tool_name_key" ON "tool_editions" USING btree ("tool_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "tool_editions_tool_position_key" ON "tool_editions" USING btree ("tool_id","position");--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_edition_id_tool_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."tool_editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- A tool's trial edition points back into its own editions: a loop between the two tables, so not in the schema
-- file, and deferrable like the other loop references (migration 0025) for the move between databases.
ALTER TABLE "tools" ADD CONSTRAINT "tools_trial_edition_id_tool_editions_id_fk" FOREIGN KEY ("trial_edition_id") REFERENCES "public"."tool_editions"("id") ON DELETE SET NULL DEFERRABLE INITIALLY IMMEDIATE;--> statement-breakpoint
-- A license's new edition changes what validate answers (its entitlements, its seat limit): announced like a new
-- status (migration 0005, decision 018). So is an edition's own change, which concerns every license of it.
DROP TRIGGER "licenses_announce_change" ON "licenses";--> statement-breakpoint
CREATE TRIGGER "licenses_announce_change"
  AFTER UPDATE OF "status", "license_key", "username", "password", "expires_at", "purchase_id", "edition_id" OR DELETE ON "licenses"
  FOR EACH ROW EXECUTE FUNCTION "announce_license_change"();--> statement-breakpoint
CREATE TRIGGER "tool_editions_announce_change"
  AFTER UPDATE OF "name", "entitlements", "device_limit" OR DELETE ON "tool_editions"
  FOR EACH ROW EXECUTE FUNCTION "announce_license_change"();
