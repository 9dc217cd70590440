ALTER TABLE "license_activations" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "license_model" text DEFAULT 'per-device' NOT NULL;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "heartbeat_minutes" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
-- A lease renewed or a license model changed alters validate's answer (a lapsed lease is NOT_ACTIVATED), so both are
-- announced on "license_changes" like the other changes of migration 0005 (decision 049).
DROP TRIGGER "license_activations_announce_change" ON "license_activations";--> statement-breakpoint
CREATE TRIGGER "license_activations_announce_change"
  AFTER INSERT OR UPDATE OF "deactivated_at", "fingerprint", "name", "license_id", "lease_expires_at" OR DELETE ON "license_activations"
  FOR EACH ROW EXECUTE FUNCTION "announce_license_change"();--> statement-breakpoint
DROP TRIGGER "tools_announce_change" ON "tools";--> statement-breakpoint
CREATE TRIGGER "tools_announce_change"
  AFTER UPDATE OF "name", "activation_limit", "license_model", "heartbeat_minutes" ON "tools"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."activation_limit" IS DISTINCT FROM NEW."activation_limit" OR OLD."license_model" IS DISTINCT FROM NEW."license_model" OR OLD."heartbeat_minutes" IS DISTINCT FROM NEW."heartbeat_minutes")
  EXECUTE FUNCTION "announce_license_change"();
