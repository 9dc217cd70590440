-- Every change to a release or its files announces the release's tool on the channel "release_changes", inside the
-- transaction that makes it (delivered on commit, never for a rollback), as license changes are (migration 0005,
-- decision 018): each instance keeps the published releases its feeds and update check read in memory while it
-- hears these (decision 066), so a publish, a rollout's change or a withdrawn file made on another instance, in the
-- command line or in plain SQL shows at once.
CREATE FUNCTION "announce_release_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text;
BEGIN
  IF TG_TABLE_NAME = 'releases' THEN
    changed := COALESCE(NEW.tool_id, OLD.tool_id)::text;
  ELSE
    SELECT "tool_id"::text INTO changed FROM "releases" WHERE "id" = COALESCE(NEW.release_id, OLD.release_id);
  END IF;
  PERFORM pg_notify('release_changes', COALESCE(changed, '*'));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "releases_announce_change"
  AFTER INSERT OR UPDATE OR DELETE ON "releases"
  FOR EACH ROW EXECUTE FUNCTION "announce_release_change"();--> statement-breakpoint
CREATE TRIGGER "release_artifacts_announce_change"
  AFTER INSERT OR UPDATE OR DELETE ON "release_artifacts"
  FOR EACH ROW EXECUTE FUNCTION "announce_release_change"();
