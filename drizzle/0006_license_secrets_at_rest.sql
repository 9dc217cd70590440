-- License keys and credential passwords at rest (decision 031): looked up by a keyed hash, and sealed where they
-- must be shown or re-sent. The keys come from DATA_SECRET_KEY, which SQL cannot know: the server converts rows
-- that still hold the plain "license_key" / "password" at start and nulls those columns
-- (src/server/licenses/secrets-at-rest.ts).
ALTER TABLE "licenses" ADD COLUMN "license_key_hash" text;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "license_key_sealed" text;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "password_sealed" text;--> statement-breakpoint
CREATE UNIQUE INDEX "licenses_license_key_hash_key" ON "licenses" USING btree ("license_key_hash");