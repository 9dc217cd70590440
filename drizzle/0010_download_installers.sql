ALTER TABLE "download_tokens" ADD COLUMN "artifact_id" uuid;--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_artifact_id_release_artifacts_id_fk" FOREIGN KEY ("artifact_id") REFERENCES "public"."release_artifacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- custom (hand-written):
-- Releases published before announcements existed (each tool's migrated 1.0.0) are what buyers already have:
-- marked announced, so the release-announcements job never emails owners about them.
UPDATE "releases" SET "announced_at" = coalesce("published_at", now()) WHERE "state" = 'published' AND "announced_at" IS NULL;
