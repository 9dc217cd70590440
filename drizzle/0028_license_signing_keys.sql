CREATE TABLE "license_signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"first_used_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone NOT NULL
);
