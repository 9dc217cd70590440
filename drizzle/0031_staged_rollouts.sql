CREATE TABLE "machine_versions" (
	"activation_id" uuid PRIMARY KEY NOT NULL,
	"tool_id" uuid NOT NULL,
	"version" text NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "release_machines" (
	"release_id" uuid NOT NULL,
	"activation_id" uuid NOT NULL,
	"offered_at" timestamp with time zone,
	"downloaded_at" timestamp with time zone,
	"running_at" timestamp with time zone,
	CONSTRAINT "release_machines_release_id_activation_id_pk" PRIMARY KEY("release_id","activation_id")
);
--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "rollout_percent" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "rollout_state" text DEFAULT 'complete' NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "phased_rollout_interval_seconds" integer;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "halt_if_stuck_percent" integer;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "rollout_resumed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "machine_versions" ADD CONSTRAINT "machine_versions_activation_id_license_activations_id_fk" FOREIGN KEY ("activation_id") REFERENCES "public"."license_activations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_versions" ADD CONSTRAINT "machine_versions_tool_id_tools_id_fk" FOREIGN KEY ("tool_id") REFERENCES "public"."tools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_machines" ADD CONSTRAINT "release_machines_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_machines" ADD CONSTRAINT "release_machines_activation_id_license_activations_id_fk" FOREIGN KEY ("activation_id") REFERENCES "public"."license_activations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "machine_versions_tool_id_idx" ON "machine_versions" USING btree ("tool_id","seen_at");--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_rollout_percent_range" CHECK ("releases"."rollout_percent" between 1 and 100);--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_halt_if_stuck_percent_range" CHECK ("releases"."halt_if_stuck_percent" between 1 and 100);