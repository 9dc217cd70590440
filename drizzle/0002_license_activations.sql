CREATE TABLE "license_activations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"license_id" uuid NOT NULL,
	"fingerprint" text NOT NULL,
	"name" text,
	"activated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" text
);
--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "status_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "self_deactivations_reset_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "activation_limit" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "license_activations" ADD CONSTRAINT "license_activations_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "license_activations_live_key" ON "license_activations" USING btree ("license_id","fingerprint") WHERE "license_activations"."deactivated_at" is null;--> statement-breakpoint
CREATE INDEX "license_activations_license_id_idx" ON "license_activations" USING btree ("license_id","deactivated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "licenses_username_key" ON "licenses" USING btree ("username");