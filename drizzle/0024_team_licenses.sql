CREATE TABLE "team_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_license_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"member_license_id" uuid,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "licenses_purchase_id_key";--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "seats" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "team_license_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "seats" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "adds_to_license_id" uuid;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_team_license_id_licenses_id_fk" FOREIGN KEY ("team_license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_member_license_id_licenses_id_fk" FOREIGN KEY ("member_license_id") REFERENCES "public"."licenses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "team_invitations_token_hash_key" ON "team_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "team_invitations_team_license_id_idx" ON "team_invitations" USING btree ("team_license_id");--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_team_license_id_licenses_id_fk" FOREIGN KEY ("team_license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "licenses_team_license_id_idx" ON "licenses" USING btree ("team_license_id");--> statement-breakpoint
CREATE UNIQUE INDEX "licenses_purchase_id_key" ON "licenses" USING btree ("purchase_id") WHERE "licenses"."team_license_id" is null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_adds_to_license_id_licenses_id_fk" FOREIGN KEY ("adds_to_license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;
