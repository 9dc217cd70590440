ALTER TABLE "release_artifacts" ADD COLUMN "installer_arguments" text;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "build_number" integer;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "minimum_macos_version" text;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "minimum_windows_version" text;--> statement-breakpoint
-- Issue 51: existing releases get build numbers 1, 2, 3… per tool in the order they were created.
UPDATE "releases" SET "build_number" = "numbered"."n" FROM (
  SELECT "id", row_number() OVER (PARTITION BY "tool_id" ORDER BY "created_at", "id")::integer AS "n" FROM "releases"
) AS "numbered" WHERE "releases"."id" = "numbered"."id";--> statement-breakpoint
-- The one minimum OS version was written on every item; keep it for the platform its format names:
-- major.minor.build with a build of 1000 or more is Windows (10.0.17763), anything else macOS (12.0, 13.4.1).
UPDATE "releases" SET "minimum_windows_version" = "minimum_os_version"
  WHERE "minimum_os_version" ~ '^\d+\.\d+\.\d{4,}$';--> statement-breakpoint
UPDATE "releases" SET "minimum_macos_version" = "minimum_os_version"
  WHERE "minimum_os_version" ~ '^\d+\.\d+(\.\d+)?$' AND "minimum_windows_version" IS NULL;--> statement-breakpoint
ALTER TABLE "releases" ALTER COLUMN "build_number" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "releases_tool_id_build_number_key" ON "releases" USING btree ("tool_id","build_number");
