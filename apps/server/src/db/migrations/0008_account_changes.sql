-- Every change to what a signed-in call reads of an account (its user row, its sessions, its expiry
-- ledger, its App Store subscriptions and transactions) is announced, once per statement, on the
-- channel `account_changes` with the accounts' ids, or `*` for more than 100 of them. Instances that
-- keep signed-in lookups in memory drop them on hearing it (db/account-changes.ts). A connection
-- that sets `skyway.account_change_notices = on` is also told before its statement ends, by a
-- notice with the code SWACC, so that its own instance drops them before the change commits.
CREATE FUNCTION announce_account_changes(user_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  payload text;
BEGIN
  IF user_ids IS NULL OR cardinality(user_ids) = 0 THEN
    RETURN;
  END IF;
  payload := CASE WHEN cardinality(user_ids) > 100 THEN '*' ELSE array_to_string(user_ids, ',') END;
  PERFORM pg_notify('account_changes', payload);
  IF current_setting('skyway.account_change_notices', true) = 'on' THEN
    RAISE NOTICE USING MESSAGE = payload, ERRCODE = 'SWACC';
  END IF;
END
$$;--> statement-breakpoint
-- The triggers of `users` (by `id`) and of the tables whose rows name their account in `user_id`;
-- an update is announced for the accounts before and after it. Static SQL, planned once a session.
CREATE FUNCTION users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM announce_account_changes((select array_agg(distinct id) from (select id from old_rows union all select id from new_rows) ids));
  ELSE
    PERFORM announce_account_changes((select array_agg(id) from old_rows));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION account_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM announce_account_changes((select array_agg(distinct user_id) filter (where user_id is not null)
      from (select user_id from old_rows union all select user_id from new_rows) ids));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM announce_account_changes((select array_agg(distinct user_id) filter (where user_id is not null) from new_rows));
  ELSE
    PERFORM announce_account_changes((select array_agg(distinct user_id) filter (where user_id is not null) from old_rows));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER users_updated AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_changed();--> statement-breakpoint
CREATE TRIGGER users_deleted AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_changed();--> statement-breakpoint
-- A new session holds nothing anyone has read yet; new rows of the other tables change the ends.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['sessions', 'expiry_ledger', 'app_store_subscriptions', 'app_store_transactions'] LOOP
    EXECUTE format('CREATE TRIGGER %1$s_updated AFTER UPDATE ON %1$I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION account_rows_changed()', t);
    EXECUTE format('CREATE TRIGGER %1$s_deleted AFTER DELETE ON %1$I REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION account_rows_changed()', t);
    IF t <> 'sessions' THEN
      EXECUTE format('CREATE TRIGGER %1$s_inserted AFTER INSERT ON %1$I REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION account_rows_changed()', t);
    END IF;
  END LOOP;
END
$$;
