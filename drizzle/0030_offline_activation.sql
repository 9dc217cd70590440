ALTER TABLE "tools" ADD COLUMN "offline_days" integer DEFAULT 365 NOT NULL;--> statement-breakpoint
ALTER TABLE "license_activations" ADD COLUMN "offline_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "license_activations" ADD COLUMN "offline_code_hash" text;--> statement-breakpoint
ALTER TABLE "license_activations" ADD CONSTRAINT "license_activations_offline_code_hash_unique" UNIQUE("offline_code_hash");