CREATE TABLE "account_addresses" (
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_addresses_user_id_email_pk" PRIMARY KEY("user_id","email")
);
--> statement-breakpoint
CREATE TABLE "trial_claims" (
	"claim_hash" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "licenses" DROP CONSTRAINT "licenses_purchase_or_trial";--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "holder_id" uuid;--> statement-breakpoint
-- Hand-written: every license is held by its purchase's buyer or its trial's account.
UPDATE "licenses" l SET "holder_id" = p."user_id" FROM "purchases" p WHERE p."id" = l."purchase_id";--> statement-breakpoint
UPDATE "licenses" l SET "holder_id" = t."user_id" FROM "trials" t WHERE t."license_id" = l."id" AND l."holder_id" IS NULL;--> statement-breakpoint
ALTER TABLE "licenses" ALTER COLUMN "holder_id" SET NOT NULL;--> statement-breakpoint
-- Hand-written: the address each account has now is the first entry of its history.
INSERT INTO "account_addresses" ("user_id", "email", "created_at") SELECT "id", lower(trim("email")), "created_at" FROM "users" WHERE "erased_at" IS NULL ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "reauthenticated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_addresses" ADD CONSTRAINT "account_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "licenses_holder_id_idx" ON "licenses" USING btree ("holder_id");--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_purchase_or_trial" CHECK ("licenses"."purchase_id" is not null or "licenses"."status" = 'trial' or "licenses"."status" = 'revoked');