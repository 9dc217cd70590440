CREATE TABLE "checkout_starts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"tool_id" uuid NOT NULL,
	"coupon_code" text,
	"opened_at" timestamp with time zone NOT NULL,
	"reminders_sent" integer DEFAULT 0 NOT NULL,
	"first_reminder_at" timestamp with time zone,
	"last_reminder_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "checkout_reminder_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_starts" ADD CONSTRAINT "checkout_starts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_starts" ADD CONSTRAINT "checkout_starts_tool_id_tools_id_fk" FOREIGN KEY ("tool_id") REFERENCES "public"."tools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_starts_user_tool_key" ON "checkout_starts" USING btree ("user_id","tool_id");--> statement-breakpoint
CREATE INDEX "checkout_starts_due_idx" ON "checkout_starts" USING btree ("opened_at") WHERE "checkout_starts"."reminders_sent" < 2;