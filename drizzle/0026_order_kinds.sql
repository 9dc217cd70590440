ALTER TABLE "orders" RENAME COLUMN "adds_to_license_id" TO "license_id";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "kind" text DEFAULT 'new-license' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "orders_adds_to_license_id_licenses_id_fk" TO "orders_license_id_licenses_id_fk";--> statement-breakpoint
UPDATE "orders" SET "kind" = 'add-seats' WHERE "license_id" IS NOT NULL;
