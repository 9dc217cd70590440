ALTER TABLE "releases" ALTER COLUMN "build_number" SET DEFAULT 1;--> statement-breakpoint
ALTER TABLE "releases" DROP COLUMN "minimum_os_version";