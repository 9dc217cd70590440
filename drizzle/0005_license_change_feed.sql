-- Every change that can alter a validate answer announces itself on the channel "license_changes", inside the
-- transaction that makes it: PostgreSQL delivers the notification on commit and never for a rollback, to every
-- instance listening (decision 018). The payload is the license's id, or "*" when a change concerns many licenses
-- (a tool renamed, or its activation limit changed). Written as triggers, so no code path, the command line, the
-- dashboard or an operator's own SQL can change a license without the instances hearing of it. "Last seen" writes
-- are left out on purpose: they change no answer, and validate makes them.
CREATE FUNCTION "announce_license_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text;
BEGIN
  IF TG_TABLE_NAME = 'licenses' THEN
    changed := COALESCE(NEW.id, OLD.id)::text;
  ELSIF TG_TABLE_NAME = 'license_activations' THEN
    changed := COALESCE(NEW.license_id, OLD.license_id)::text;
  ELSIF TG_TABLE_NAME = 'purchases' THEN
    SELECT "id"::text INTO changed FROM "licenses" WHERE "purchase_id" = NEW.id;
  ELSE
    changed := '*';
  END IF;
  IF changed IS NOT NULL THEN
    PERFORM pg_notify('license_changes', changed);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "licenses_announce_change"
  AFTER UPDATE OF "status", "license_key", "username", "password" OR DELETE ON "licenses"
  FOR EACH ROW EXECUTE FUNCTION "announce_license_change"();--> statement-breakpoint
CREATE TRIGGER "license_activations_announce_change"
  AFTER INSERT OR UPDATE OF "deactivated_at", "fingerprint", "name", "license_id" OR DELETE ON "license_activations"
  FOR EACH ROW EXECUTE FUNCTION "announce_license_change"();--> statement-breakpoint
CREATE TRIGGER "purchases_announce_change"
  AFTER UPDATE OF "refunded_at" ON "purchases"
  FOR EACH ROW WHEN (OLD."refunded_at" IS DISTINCT FROM NEW."refunded_at")
  EXECUTE FUNCTION "announce_license_change"();--> statement-breakpoint
-- A tool edit writes every column; only a new name or limit concerns its licenses (a price change does not).
CREATE TRIGGER "tools_announce_change"
  AFTER UPDATE OF "name", "activation_limit" ON "tools"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."activation_limit" IS DISTINCT FROM NEW."activation_limit")
  EXECUTE FUNCTION "announce_license_change"();
