CREATE TABLE "release_artifacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"release_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"arch" text NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"size" bigint NOT NULL,
	"sha1" text NOT NULL,
	"sha256" text NOT NULL,
	"signature" text NOT NULL,
	"kid" text NOT NULL,
	"velopack_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tool_id" uuid NOT NULL,
	"version" text NOT NULL,
	"channel" text DEFAULT 'stable' NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"notes_markdown" text DEFAULT '' NOT NULL,
	"minimum_os_version" text,
	"critical" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"yanked_at" timestamp with time zone,
	"announced_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "download_tokens" ADD COLUMN "artifact_id" uuid;--> statement-breakpoint
ALTER TABLE "license_activations" ADD COLUMN "update_token_hash" text;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "package_id" text;--> statement-breakpoint
ALTER TABLE "release_artifacts" ADD CONSTRAINT "release_artifacts_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_tool_id_tools_id_fk" FOREIGN KEY ("tool_id") REFERENCES "public"."tools"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "release_artifacts_file_key" ON "release_artifacts" USING btree ("release_id","kind","platform","arch","file_name");--> statement-breakpoint
CREATE UNIQUE INDEX "releases_tool_id_version_key" ON "releases" USING btree ("tool_id","version");--> statement-breakpoint
CREATE INDEX "releases_tool_id_state_idx" ON "releases" USING btree ("tool_id","state");--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_artifact_id_release_artifacts_id_fk" FOREIGN KEY ("artifact_id") REFERENCES "public"."release_artifacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_activations" ADD CONSTRAINT "license_activations_update_token_hash_unique" UNIQUE("update_token_hash");--> statement-breakpoint
-- custom (hand-written):
-- The one file a tool had becomes the installer of its release 1.0.0, published when the tool was last changed,
-- so no buyer loses a download. SHA-1 and the Ed25519 signature cannot be computed in SQL: they are stored empty
-- and the server fills them at start by reading the stored file once (src/server/releases/backfill.ts).
INSERT INTO "releases" ("tool_id", "version", "channel", "state", "published_at", "created_at")
SELECT "id", '1.0.0', 'stable', 'published', "updated_at", "updated_at" FROM "tools" WHERE "file_key" IS NOT NULL;--> statement-breakpoint
INSERT INTO "release_artifacts" ("release_id", "platform", "arch", "kind", "file_name", "storage_key", "size", "sha1", "sha256", "signature", "kid", "created_at")
SELECT r."id",
       CASE WHEN t."device" = 'macOS' THEN 'macos' ELSE 'windows' END,
       CASE WHEN t."device" = 'macOS' THEN 'universal' ELSE 'x64' END,
       'installer', coalesce(t."file_name", 'download'), t."file_key", coalesce(t."file_size", 0), '',
       coalesce(t."file_sha256", ''), '', '', t."updated_at"
FROM "tools" t JOIN "releases" r ON r."tool_id" = t."id" AND r."version" = '1.0.0'
WHERE t."file_key" IS NOT NULL;
--> statement-breakpoint
-- (from the announcements step:)
-- Releases published before announcements existed (each tool's migrated 1.0.0) are what buyers already have:
-- marked announced, so the release-announcements job never emails owners about them.
UPDATE "releases" SET "announced_at" = coalesce("published_at", now()) WHERE "state" = 'published' AND "announced_at" IS NULL;
